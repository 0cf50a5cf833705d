import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { ids, named, route, valid } from '../http/route';
import { EVENT_ID_LABELS, eventScope } from '../http/gameScope';
import { routeBodyLimit } from '../http/bodyLimit';
import { uploadGate } from '../http/uploads';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { recordAudit } from '../audit/service';
import { requireMember } from '../clans/access';
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
import { OkSchema } from '../../contract/common';
import {
  ApplyAnswerSchema,
  ApplyBodySchema,
  BalanceAnswerSchema,
  BalanceBodySchema,
  ScoreBodySchema,
  ScoreImportAnswerSchema,
  SIGNUP_MESSAGES,
  SignupAnswerSchema,
  SignupBodySchema,
  SignupListSchema,
  WomBodySchema,
  WomProgressSchema,
  beforePlay,
  signupsAccepted,
} from '../../contract/signupApi';
import { deleteSignup, findSignup, insertSignup, listSignups, placeSignup, requireHeldSignups, setScore, signupOfUser, signupRow, signupRows, womProgress } from './repository';
import { balanceSlots, distinctColors, freeAgents, importScores, leadersOnOwnTeams, proposeTeams, sameProposal } from './service';
import { balanceTeams } from '../../contract/balance';
import { startWomScores } from './wom';

/** Multipart envelope allowed on top of the 1 MiB CSV. */
const MULTIPART_SLACK = 16 * 1024;

/** The path ids: the event's, and a sign-up's of the event. */
const EVENT_IDS = ids(EVENT_ID_LABELS);
const SIGNUP_IDS = ids({ ...EVENT_ID_LABELS, signupId: 'sign-up id' });
/** The 403 text of the members' routes for a caller outside the clan (the managers' ones give the permission text). */
const NOT_MEMBER = DRAFT_MESSAGES.notMember;

const SignupAnswer = named('SignupAnswer', SignupAnswerSchema);
const WomProgress = named('WomProgress', WomProgressSchema);

/** True when the event takes sign-ups now (docs/server.md §16). */
function accepting(event: { signups_open: number; signups_close_at: string | null }, gameStatus: string | null): boolean {
  return signupsAccepted({ signups_open: event.signups_open === 1, signups_close_at: event.signups_close_at }, gameStatus, Date.now());
}

/**
 * Sign-ups, free agents, scores and balanced teams (docs/server.md §16). Members read and sign
 * up; managers (Owner, Admin) score, balance and apply. Errors as eventScope (http/gameScope.ts:
 * 401 signed out, 400 bad ids, 404 missing clan, 403 for a non-member — 'You are not a member of
 * this clan.' on the members' routes, the permission text on the managers' ones — or a
 * non-manager, 404 'Event ID {id} not found.' for an event of another clan), 404 'Sign-up ID {id}
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

  app.get(
    '/clan/:clanId/events/:eventId/signups',
    ...route({ tag: 'signups', access: 'member', summary: "The event's sign-ups, oldest first.", answer: named('SignupList', SignupListSchema), param: EVENT_IDS }),
    async (c) => {
      const scope = await eventScope(c, false, NOT_MEMBER);
      return c.json({ signups: await listSignups(c.get('deps').db, scope.eventId, scope) });
    },
  );

  app.post(
    '/clan/:clanId/events/:eventId/signups',
    ...route({ tag: 'signups', access: 'member', status: 201, summary: 'Signs up with one of your own IGNs while sign-ups are open (Member or above).', answer: SignupAnswer, param: EVENT_IDS, json: named('SignupBody', SignupBodySchema) }),
    async (c) => {
      const scope = await eventScope(c, false, NOT_MEMBER);
      const { user, clanId, eventId, role } = scope;
      if (role === 'Guest') throw forbidden('Permission denied. Only clan members can sign up.');
      const body = valid(c, 'json');
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
      return c.json({ signup: await findSignup(deps.db, eventId, id, scope) }, 201);
    },
  );

  app.delete(
    '/clan/:clanId/events/:eventId/signups/:signupId',
    ...route({ tag: 'signups', access: 'member', summary: 'Withdraws a sign-up (its owner while open, or a manager); a placed sign-up leaves its team.', answer: named('Ok', OkSchema), param: SIGNUP_IDS }),
    async (c) => {
      const { user, eventId, signupId, event, role } = await eventScope(c, false, NOT_MEMBER);
      const deps = c.get('deps');
      const game = await gameOfEvent(deps.db, eventId);
      const signup = await signupRow(deps.db, eventId, signupId);
      if (!isManagerRole(role)) {
        if (signup.user_id !== user.id) throw forbidden();
        if (!accepting(event, game?.status ?? null)) throw conflict(SIGNUP_MESSAGES.closed);
      }
      await deps.db.transaction().execute((trx) => deleteSignup(trx, signup));
      if (signup.team_id !== null) {
        const team = await deps.db.selectFrom('teams').select(['id', 'name', 'color']).where('id', '=', signup.team_id).executeTakeFirst();
        if (team) await broadcastTeamChange(deps, eventId, team);
      }
      return c.json({ ok: true as const });
    },
  );

  app.put(
    '/clan/:clanId/events/:eventId/signups/:signupId',
    ...route({ tag: 'signups', access: 'manager', summary: "Sets a sign-up's score (0..1,000,000, or null).", answer: SignupAnswer, param: SIGNUP_IDS, json: named('ScoreBody', ScoreBodySchema) }),
    async (c) => {
      const scope = await eventScope(c, true);
      const { eventId, signupId } = scope;
      const { db } = c.get('deps');
      await signupRow(db, eventId, signupId);
      const body = valid(c, 'json');
      if (body.score === undefined) throw badRequest(SIGNUP_MESSAGES.badScore);
      await setScore(db, signupId, body.score, 'manual');
      return c.json({ signup: await findSignup(db, eventId, signupId, scope) });
    },
  );

  app.post(
    '/clan/:clanId/events/:eventId/signups/scores',
    ...route({
      tag: 'signups', access: 'manager', answer: named('ScoreImportAnswer', ScoreImportAnswerSchema),
      summary: 'Sets scores from a CSV file (ign,score); 413 over 1 MiB; 503 with Retry-After after 10 s waiting for an upload slot.',
      multipart: { fields: { file: { type: 'string', contentMediaType: 'text/csv', description: 'CSV with a header naming ign and score.' } }, required: ['file'] },
      param: EVENT_IDS,
    }),
    async (c, next) => {
      await eventScope(c, true);
      await next();
    },
    uploadGate(CSV_MAX_BYTES + MULTIPART_SLACK),
    routeBodyLimit(CSV_MAX_BYTES + MULTIPART_SLACK, CSV_TOO_LARGE),
    async (c) => {
      const { eventId } = valid(c, 'param');
      const text = await readCsvUpload(c);
      const { db } = c.get('deps');
      return c.json(await db.transaction().execute((trx) => importScores(trx, eventId, text)));
    },
  );

  app.post(
    '/clan/:clanId/events/:eventId/signups/scores/wom',
    ...route({ tag: 'signups', access: 'manager', status: 202, summary: 'Fetches scores from Wise Old Man in the background, within its rate limit.', answer: WomProgress, param: EVENT_IDS, json: named('WomBody', WomBodySchema) }),
    async (c) => {
      const { clanId, eventId } = await eventScope(c, true);
      const { metric } = valid(c, 'json');
      const deps = c.get('deps');
      const signups = (await signupRows(deps.db, eventId)).map((s) => ({ id: s.id, ign: s.ign }));
      await startWomScores(deps, clanId, eventId, metric, signups);
      return c.json(await womProgress(deps.db, eventId), 202);
    },
  );

  app.get(
    '/clan/:clanId/events/:eventId/signups/scores/wom',
    ...route({ tag: 'signups', access: 'manager', summary: 'The progress of the last Wise Old Man fetch.', answer: WomProgress, param: EVENT_IDS }),
    async (c) => {
      const { eventId } = await eventScope(c, true);
      return c.json(await womProgress(c.get('deps').db, eventId));
    },
  );

  app.post(
    '/clan/:clanId/events/:eventId/teams/balance',
    ...route({ tag: 'signups', access: 'manager', summary: 'Proposes balanced teams of the free agents, changing nothing.', answer: named('BalanceAnswer', BalanceAnswerSchema), param: EVENT_IDS, json: named('BalanceBody', BalanceBodySchema) }),
    async (c) => {
      const { clanId, eventId } = await eventScope(c, true);
      const { team_count } = valid(c, 'json');
      return c.json({ proposal: await proposeTeams(c.get('deps').db, clanId, eventId, team_count) });
    },
  );

  app.post(
    '/clan/:clanId/events/:eventId/teams/balance/apply',
    ...route({ tag: 'signups', access: 'manager', summary: 'Applies a proposal: creates the missing teams and places the sign-ups (409 when stale or in play).', answer: named('ApplyAnswer', ApplyAnswerSchema), param: EVENT_IDS, json: named('ApplyBody', ApplyBodySchema) }),
    async (c) => {
      const { user, event, clanId, eventId } = await eventScope(c, true);
      const { proposal } = valid(c, 'json');
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
        await recordAudit(trx, clanId, user.id, 'balance.apply', event.name, `${agents.length} sign-ups placed on ${touched.length} teams (${created.length} new)`);
        return { created, touched, placed: agents.length };
      });
      for (const teamId of result.touched) {
        await broadcastTeamChange(deps, eventId, await loadTeam(deps.db, teamId), { teamSetChanged: result.created.includes(teamId) });
      }
      return c.json({ created_team_ids: result.created, placed_count: result.placed });
    },
  );

  return app;
}
