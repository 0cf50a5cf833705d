import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/context';
import { pathId, readJson, requireUser } from '../http/context';
import { routeBodyLimit } from '../http/bodyLimit';
import { uploadGate } from '../http/uploads';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { requireManager, requireMember } from '../clans/access';
import { lockClan } from '../clans/repository';
import { lockEvent } from '../db/locks';
import { uniqueOrConflict } from '../db/uniqueKey';
import { findEvent, gameOfEvent } from '../events/repository';
import { addTeamToGame, insertTeam, insertTeamMember, loadTeam } from '../teams/repository';
import { broadcastTeamChange } from '../teams/service';
import { readCsvUpload } from '../tasks/service';
import { isManagerRole } from '../../contract/user';
import { CSV_MAX_BYTES, CSV_TOO_LARGE } from '../../contract/task';
import { DRAFT_MESSAGES } from '../../contract/draft';
import {
  ApplyBodySchema,
  BalanceBodySchema,
  ScoreBodySchema,
  SIGNUP_MESSAGES,
  SignupBodySchema,
  WomBodySchema,
  beforePlay,
  signupsAccepted,
} from '../../contract/signupApi';
import { deleteSignup, findSignup, insertSignup, listSignups, placeSignup, requireHeldSignups, setScore, signupOfUser, womProgress } from './repository';
import { balanceSlots, distinctColors, freeAgents, importScores, leadersOnOwnTeams, proposeTeams, sameProposal } from './service';
import { balanceTeams } from '../../contract/balance';
import { startWomScores } from './wom';

/** Multipart envelope allowed on top of the 1 MiB CSV. */
const MULTIPART_SLACK = 16 * 1024;

/**
 * The signed-in user, the path's clan and event, checked: 401 signed out, 400 bad ids, 404 missing
 * clan, 403 for a non-member ('You are not a member of this clan.' on the members' routes, the
 * permission text on the managers' ones) or a non-manager when `manager`, 404 'Event ID {id} not
 * found.' for an event of another clan. Also the user's role and the event's game status (null
 * without a game).
 */
async function eventScope(c: Context<AppEnv>, manager: boolean) {
  const user = requireUser(c);
  const clanId = pathId(c, 'clanId', 'clan id');
  const eventId = pathId(c, 'eventId', 'event id');
  const { db } = c.get('deps');
  const access = manager ? await requireManager(db, clanId, user.id) : await requireMember(db, clanId, user.id, DRAFT_MESSAGES.notMember);
  const event = await findEvent(db, clanId, eventId);
  const game = await gameOfEvent(db, eventId);
  return { user, clanId, eventId, event, role: access.role, gameStatus: game?.status ?? null };
}

/** True when the event takes sign-ups now (docs/server.md §16). */
function accepting(event: { signups_open: number; signups_close_at: string | null }, gameStatus: string | null): boolean {
  return signupsAccepted({ signups_open: event.signups_open === 1, signups_close_at: event.signups_close_at }, gameStatus, Date.now());
}

/**
 * Sign-ups, free agents, scores and balanced teams (docs/server.md §16). Members read and sign
 * up; managers (Owner, Admin) score, balance and apply. Errors as eventScope, 404 'Sign-up ID {id}
 * not found.' for a sign-up of another event.
 * - GET /clan/{clanId}/events/{eventId}/signups → {signups}, oldest first (ties by id)
 * - POST same path {osrs_ign_id, wants_leader?, note?} (Member or above, one of their own IGNs)
 *   → 201 {signup}; 409 closed, already signed up, or the IGN already on a team of the event
 * - DELETE .../signups/{id}: its owner while sign-ups are open, or a manager → {ok: true}; a
 *   placed sign-up also leaves its team
 * - PUT .../signups/{id} {score} (managers) → {signup}; score a finite number 0..1,000,000 or null
 * - POST .../signups/scores (managers; multipart `file`, CSV `ign,score`, 1 MiB) →
 *   {updated_count, errors: [{row, ign, message}]}; 503 with Retry-After after 10 s waiting for
 *   an upload slot (docs/server.md §8)
 * - POST .../signups/scores/wom {metric} (managers) → 202 {total, done, errors}: the look-ups run
 *   in the background; GET the same path answers the progress
 * - POST .../teams/balance {team_count} (managers) → {proposal}, changing nothing
 * - POST .../teams/balance/apply {proposal} (managers) → {created_team_ids, placed_count}; 409 while
 *   the game is in progress or when the sign-ups changed since the proposal; a sign-up it names
 *   that is gone 404, of someone no longer in the clan 409 (requireHeldSignups)
 */
export function signupRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get('/clan/:clanId/events/:eventId/signups', async (c) => {
    const { eventId } = await eventScope(c, false);
    return c.json({ signups: await listSignups(c.get('deps').db, eventId) });
  });

  app.post('/clan/:clanId/events/:eventId/signups', async (c) => {
    const { user, clanId, eventId, role } = await eventScope(c, false);
    if (role === 'Guest') throw forbidden('Permission denied. Only clan members can sign up.');
    const body = await readJson(c, SignupBodySchema);
    if (body.osrs_ign_id === 0) throw badRequest(SIGNUP_MESSAGES.badIgnId);
    const deps = c.get('deps');
    const id = await deps.db.transaction().execute(async (trx) => {
      // The clan first, as a kick or a leave holds it (then the events) to withdraw the user's
      // sign-ups: a sign-up made while its user leaves is withdrawn by the departure or refused here.
      await lockClan(trx, clanId);
      await lockEvent(trx, deps.dialect, eventId);
      await requireMember(trx, clanId, user.id);
      const event = await findEvent(trx, clanId, eventId);
      const game = await gameOfEvent(trx, eventId);
      if (!accepting(event, game?.status ?? null)) throw conflict(SIGNUP_MESSAGES.closed);
      const ign = await trx.selectFrom('igns').select(['id', 'user_id']).where('id', '=', body.osrs_ign_id).executeTakeFirst();
      if (!ign) throw notFound(SIGNUP_MESSAGES.ignNotFound);
      if (ign.user_id !== user.id) throw forbidden(SIGNUP_MESSAGES.notYourIgn);
      if (await signupOfUser(trx, eventId, user.id)) throw conflict(SIGNUP_MESSAGES.already);
      const onTeam = await trx.selectFrom('team_members').select('id').where('event_id', '=', eventId).where('ign_id', '=', ign.id).executeTakeFirst();
      if (onTeam) throw conflict(SIGNUP_MESSAGES.onTeam);
      return uniqueOrConflict(SIGNUP_MESSAGES.already, () => insertSignup(trx, { event_id: eventId, user_id: user.id, osrs_ign_id: ign.id, wants_leader: body.wants_leader, note: body.note }));
    });
    return c.json({ signup: await findSignup(deps.db, eventId, id) }, 201);
  });

  app.delete('/clan/:clanId/events/:eventId/signups/:signupId', async (c) => {
    const { user, eventId, event, role, gameStatus } = await eventScope(c, false);
    const signupId = pathId(c, 'signupId', 'sign-up id');
    const deps = c.get('deps');
    const signup = await findSignup(deps.db, eventId, signupId);
    if (!isManagerRole(role)) {
      if (signup.user_id !== user.id) throw forbidden();
      if (!accepting(event, gameStatus)) throw conflict(SIGNUP_MESSAGES.closed);
    }
    await deps.db.transaction().execute((trx) => deleteSignup(trx, signup));
    if (signup.team_id !== null) {
      const team = await deps.db.selectFrom('teams').select(['id', 'name', 'color']).where('id', '=', signup.team_id).executeTakeFirst();
      if (team) await broadcastTeamChange(deps, eventId, team);
    }
    return c.json({ ok: true as const });
  });

  app.put('/clan/:clanId/events/:eventId/signups/:signupId', async (c) => {
    const { eventId } = await eventScope(c, true);
    const signupId = pathId(c, 'signupId', 'sign-up id');
    const { db } = c.get('deps');
    await findSignup(db, eventId, signupId);
    const body = await readJson(c, ScoreBodySchema);
    if (body.score === undefined) throw badRequest(SIGNUP_MESSAGES.badScore);
    await setScore(db, signupId, body.score, 'manual');
    return c.json({ signup: await findSignup(db, eventId, signupId) });
  });

  app.post(
    '/clan/:clanId/events/:eventId/signups/scores',
    async (c, next) => {
      await eventScope(c, true);
      await next();
    },
    uploadGate(CSV_MAX_BYTES + MULTIPART_SLACK),
    routeBodyLimit(CSV_MAX_BYTES + MULTIPART_SLACK, CSV_TOO_LARGE),
    async (c) => {
      const eventId = pathId(c, 'eventId', 'event id');
      const text = await readCsvUpload(c);
      const { db } = c.get('deps');
      return c.json(await db.transaction().execute((trx) => importScores(trx, eventId, text)));
    },
  );

  app.post('/clan/:clanId/events/:eventId/signups/scores/wom', async (c) => {
    const { clanId, eventId } = await eventScope(c, true);
    const { metric } = await readJson(c, WomBodySchema);
    const deps = c.get('deps');
    const signups = (await listSignups(deps.db, eventId)).map((s) => ({ id: s.id, ign: s.ign }));
    await startWomScores(deps, clanId, eventId, metric, signups);
    return c.json(await womProgress(deps.db, eventId), 202);
  });

  app.get('/clan/:clanId/events/:eventId/signups/scores/wom', async (c) => {
    const { eventId } = await eventScope(c, true);
    return c.json(await womProgress(c.get('deps').db, eventId));
  });

  app.post('/clan/:clanId/events/:eventId/teams/balance', async (c) => {
    const { clanId, eventId } = await eventScope(c, true);
    const { team_count } = await readJson(c, BalanceBodySchema);
    return c.json({ proposal: await proposeTeams(c.get('deps').db, clanId, eventId, team_count) });
  });

  app.post('/clan/:clanId/events/:eventId/teams/balance/apply', async (c) => {
    const { clanId, eventId } = await eventScope(c, true);
    const { proposal } = await readJson(c, ApplyBodySchema);
    if (!leadersOnOwnTeams(proposal)) throw badRequest(SIGNUP_MESSAGES.leaderNotOnTeam);
    const deps = c.get('deps');
    const result = await deps.db.transaction().execute(async (trx) => {
      await lockEvent(trx, deps.dialect, eventId);
      const game = await gameOfEvent(trx, eventId);
      if (!beforePlay(game?.status ?? null)) throw conflict(SIGNUP_MESSAGES.gameRunning);
      await requireHeldSignups(trx, eventId, proposal.teams.flatMap((t) => t.signup_ids));
      // The proposal is recomputed from the sign-ups as they are now: any change since (a score,
      // a sign-up added, withdrawn or placed, a team added) gives another proposal.
      const agents = await freeAgents(trx, clanId, eventId);
      const current = agents.length === 0 ? null : balanceTeams(agents, await balanceSlots(trx, eventId, proposal.teams.length));
      if (!current || !sameProposal(current, proposal)) throw conflict(SIGNUP_MESSAGES.stale);
      const used = (await trx.selectFrom('teams').select('color').where('event_id', '=', eventId).execute()).map((t) => t.color);
      const colors = distinctColors(used, current.teams.filter((t) => t.team_id === null).length);
      const ignOf = new Map(agents.map((a) => [a.id, a.osrs_ign_id]));
      const created: number[] = [];
      const touched: number[] = [];
      for (const [i, t] of current.teams.entries()) {
        // The leader is the one sent (same teams in the same order): the manager may have chosen
        // another member of the team.
        const leader = proposal.teams[i].leader_signup_id;
        let teamId = t.team_id;
        if (teamId === null) {
          teamId = await insertTeam(trx, eventId, t.name, colors[created.length]);
          if (game) await addTeamToGame(trx, game, teamId);
          created.push(teamId);
        }
        const team = { id: teamId, event_id: eventId, name: t.name, color: '' };
        for (const signupId of t.signup_ids) {
          await insertTeamMember(trx, team, ignOf.get(signupId) as number, signupId === leader ? 'Leader' : 'Member');
          await placeSignup(trx, signupId, teamId);
        }
        touched.push(teamId);
      }
      return { created, touched, placed: agents.length };
    });
    for (const teamId of result.touched) {
      await broadcastTeamChange(deps, eventId, await loadTeam(deps.db, teamId), { teamSetChanged: result.created.includes(teamId) });
    }
    return c.json({ created_team_ids: result.created, placed_count: result.placed });
  });

  return app;
}
