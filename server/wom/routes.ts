import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { describe, ids, input, named, valid } from '../http/route';
import { EVENT_ID_LABELS, gameScope } from '../http/gameScope';
import { ApiError, conflict, forbidden, notFound } from '../errors';
import { isManagerRole } from '../../contract/user';
import { CHECK_WAIT_S, checkWaitLeft, WOM_CHECK_MESSAGES, WomCheckAnswerSchema } from '../../contract/womCheck';
import { teamOnWomSquare } from '../games/progress';
import { checkNow, startChecks } from './checks';

/** The path ids: the event's, the game's and the team's. */
const CHECK_IDS = ids({ ...EVENT_ID_LABELS, gameId: 'game id', teamId: 'team id' });

/**
 * 'Check now' of a Wise Old Man team total (docs/server.md §17 'Wise Old Man checks'):
 * - POST /clan/{clanId}/events/{eventId}/game/{gameId}/teams/{teamId}/progress/check, members of
 *   that team and managers → 202 {asked_at, retry_after} at once; the check runs in the background
 *   (the team's next round of calls due now in the Wise Old Man queue). Refusals in order: as
 *   gameScope (401, 400 ids, 404 clan, 403 non-member, 404 event or game), 404 'Team not found.'
 *   for a team not in the game, 403 for a member of another team, 409 when the team's square is not
 *   a Wise Old Man total of a game in progress, 429 'Progress was checked {n} s ago; try again in
 *   {m} s.' with Retry-After {m} within 5 minutes of the last accepted ask ({n} from it). The wait
 *   is one conditional write of wom_team_checks.asked_at, so it holds over every process.
 */
export function womRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post(
    '/clan/:clanId/events/:eventId/game/:gameId/teams/:teamId/progress/check',
    describe({
      tag: 'games', access: 'member', status: 202, answer: named('WomCheckAnswer', WomCheckAnswerSchema),
      summary: "Checks a team's Wise Old Man total now (members of the team and managers); 429 with Retry-After within 5 minutes of the last accepted ask.",
      also: { 429: { description: "'Progress was checked {n} s ago; try again in {m} s.' with Retry-After" } },
    }),
    input('param', CHECK_IDS),
    async (c) => {
      const { user, role, gameId, deps } = await gameScope(c, false);
      const { teamId } = valid(c, 'param');
      const { db } = deps;
      const state = await db.selectFrom('team_states').select('id').where('game_id', '=', gameId).where('team_id', '=', teamId).executeTakeFirst();
      if (!state) throw notFound(WOM_CHECK_MESSAGES.teamNotFound);
      if (!isManagerRole(role)) {
        const mine = await db.selectFrom('team_members').innerJoin('igns', 'igns.id', 'team_members.ign_id').select('team_members.id')
          .where('team_members.team_id', '=', teamId).where('igns.user_id', '=', user.id).limit(1).executeTakeFirst();
        if (!mine) throw forbidden(WOM_CHECK_MESSAGES.notOnTeam);
      }
      const team = await teamOnWomSquare(db, gameId, teamId);
      if (!team) throw conflict(WOM_CHECK_MESSAGES.notWom);
      await startChecks(deps, team);
      const now = Date.now();
      const at = new Date(now).toISOString();
      const accepted = await db.updateTable('wom_team_checks').set({ asked_at: at }).where('game_id', '=', gameId).where('team_id', '=', teamId)
        .where((eb) => eb.or([eb('asked_at', 'is', null), eb('asked_at', '<=', new Date(now - CHECK_WAIT_S * 1000).toISOString())]))
        .executeTakeFirst();
      if (Number(accepted.numUpdatedRows) === 0) {
        const row = await db.selectFrom('wom_team_checks').select('asked_at').where('game_id', '=', gameId).where('team_id', '=', teamId).executeTakeFirst();
        const asked = row?.asked_at ? Date.parse(row.asked_at) : now;
        const left = Math.max(1, checkWaitLeft(asked, now));
        const ago = Math.max(0, Math.floor((now - asked) / 1000));
        c.header('Retry-After', String(left));
        throw new ApiError(429, WOM_CHECK_MESSAGES.tooSoon(ago, left));
      }
      await checkNow(deps, team);
      return c.json({ asked_at: at, retry_after: CHECK_WAIT_S }, 202);
    },
  );
  return app;
}
