import { badRequest } from '../errors';
import type { Deps } from '../http/context';
import { log } from '../observability/log';
import { PUSH_ENDPOINT_MAX, PUSH_MESSAGES, type PushKind, type PushPayload, type PushSubscribeBody } from '../../contract/push';
import type { DraftState } from '../../contract/signup';
import {
  clanManagerIds,
  enqueuePush,
  markWaiting,
  recordNotifications,
  saveSubscription,
  teamUserIds,
  waitingOfClan,
  withSwitchOn,
} from './repository';
import { kickPushWorkers, proofWaitingPayload } from './queue';

/** The gap between two 'Proof waiting' pushes of one manager and clan, in ms. */
const WAITING_GAP_MS = 5 * 60 * 1000;

/** The byte length of a base64url text, or -1 when it is not base64url. */
function decodedLength(text: string): number {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(text)) return -1;
  return Buffer.from(text, 'base64url').length;
}

/**
 * Checks and stores a subscription of `userId` (docs/server.md §20): 400 PUSH_MESSAGES.endpoint
 * unless the endpoint is an https URL of at most 2,048 characters (an http one only when its
 * origin is in PUSH_ALLOWED_ORIGINS); 400 PUSH_MESSAGES.keys unless p256dh decodes to 65 bytes
 * and auth to 16. An 11th subscription replaces the user's oldest.
 */
export async function subscribe(deps: Deps, userId: number, body: PushSubscribeBody): Promise<void> {
  const endpoint = body.endpoint.trim();
  let url: URL | null = null;
  try {
    url = new URL(endpoint);
  } catch {
    url = null;
  }
  const allowed = url !== null && deps.config.push.pushAllowedOrigins.includes(url.origin);
  if (!url || endpoint.length > PUSH_ENDPOINT_MAX || (!allowed && url.protocol !== 'https:') || (allowed && !/^https?:$/.test(url.protocol))) {
    throw badRequest(PUSH_MESSAGES.endpoint);
  }
  if (decodedLength(body.keys.p256dh) !== 65 || decodedLength(body.keys.auth) !== 16) throw badRequest(PUSH_MESSAGES.keys);
  await saveSubscription(deps.db, userId, { endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth });
}

/**
 * Records `payload` in the page of every one of `userIds` but `actorId` (the user whose own action
 * caused it), whatever their switches (docs/server.md §20 "In the page"), and queues it as a push
 * for those whose `kind` switch is on. Called after the change committed; never throws (the change
 * is stored; a lost notification is only logged).
 */
async function notify(deps: Pick<Deps, 'db'>, kind: PushKind, userIds: readonly number[], actorId: number | null, payload: PushPayload): Promise<void> {
  try {
    const others = userIds.filter((id) => id !== actorId);
    await recordNotifications(deps.db, others, payload);
    const to = await withSwitchOn(deps.db, others, kind);
    if ((await enqueuePush(deps.db, to, JSON.stringify(payload))) > 0) kickPushWorkers();
  } catch (err) {
    log.error({ err, kind }, '[push] queueing failed');
  }
}

/** The game page's path. */
const gamePath = (g: { clan_id: number; event_id: number; id: number }) => `/games/clan/${g.clan_id}/events/${g.event_id}/game/${g.id}`;

/**
 * After a review of submission `submissionId` committed (docs/server.md §20): 'Proof approved' or
 * 'Proof denied' to every member of its team, and 'Your roll' to the team's Leaders when the
 * approval lets it roll (the team still on that square with its task approved, the game in
 * progress). Never to `actorId`, the referee. Never throws.
 */
export async function notifyReview(deps: Pick<Deps, 'db'>, submissionId: number, actorId: number, referee: string): Promise<void> {
  try {
    const row = await deps.db.selectFrom('submissions')
      .innerJoin('teams', 'teams.id', 'submissions.team_id')
      .innerJoin('games', 'games.id', 'submissions.game_id')
      .innerJoin('events', 'events.id', 'games.event_id')
      .select(['submissions.status', 'submissions.reason', 'submissions.square_index', 'submissions.square_since', 'submissions.team_id',
        'teams.name as team', 'events.name as event', 'games.id', 'games.clan_id', 'games.event_id', 'games.status as game_status'])
      .where('submissions.id', '=', submissionId).executeTakeFirst();
    if (!row || (row.status !== 'approved' && row.status !== 'denied')) return;
    const url = gamePath(row);
    const tag = `proof-${submissionId}`;
    const members = await teamUserIds(deps.db, row.team_id);
    if (row.status === 'approved') {
      await notify(deps, 'proof_decided', members, actorId, { title: 'Proof approved', body: `${row.team}, square ${row.square_index}: approved by ${referee}.`, url, tag });
      const state = await deps.db.selectFrom('team_states').select(['task_state', 'square_since']).where('game_id', '=', row.id).where('team_id', '=', row.team_id).executeTakeFirst();
      if (state && state.task_state === 'approved' && state.square_since === row.square_since && row.game_status === 'in-progress') {
        await notify(deps, 'may_roll', await teamUserIds(deps.db, row.team_id, 'Leader'), actorId, { title: 'Your roll', body: `${row.team} may roll in ${row.event}.`, url, tag: `roll-${row.id}-${row.team_id}` });
      }
    } else {
      await notify(deps, 'proof_decided', members, actorId, { title: 'Proof denied', body: `${row.team}, square ${row.square_index}: ${row.reason ?? ''}`, url, tag });
    }
  } catch (err) {
    log.error({ err, submission_id: submissionId }, '[push] review notification failed');
  }
}

/**
 * After proof arrived for review in clan `clanId` (docs/server.md §20): a 'Proof waiting' is made
 * due for each manager whose switch is on, except `actorId` (the sender); the sender (queue.ts)
 * sends at most one per manager and clan per 5 minutes, counting what still waits when it is sent.
 * In the page every such manager sees one at once, counting what waits now. Never throws.
 */
export async function notifyProofWaiting(deps: Pick<Deps, 'db'>, clanId: number, actorId: number | null): Promise<void> {
  try {
    const managers = (await clanManagerIds(deps.db, clanId)).filter((id) => id !== actorId);
    // In the page at once, counting what waits now; it replaces the clan's earlier one (same tag).
    const clan = await waitingOfClan(deps.db, clanId);
    if (clan && clan.count > 0) {
      await recordNotifications(deps.db, managers, proofWaitingPayload(clanId, clan));
    }
    const to = await withSwitchOn(deps.db, managers, 'proof_waiting');
    for (const userId of to) await markWaiting(deps.db, userId, clanId, WAITING_GAP_MS);
    if (to.length > 0) kickPushWorkers();
  } catch (err) {
    log.error({ err, clan_id: clanId }, '[push] proof waiting notification failed');
  }
}

/**
 * After a draft change committed (docs/server.md §20): 'Your pick' to the captain on the clock
 * while the draft runs, unless that captain made the change (`actorId`). Never throws.
 */
export async function notifyDraftTurn(deps: Pick<Deps, 'db'>, state: DraftState, actorId: number | null): Promise<void> {
  try {
    if (state.status !== 'running' || state.on_the_clock === null) return;
    const captain = state.captains.find((c) => c.team_id === state.on_the_clock);
    if (!captain) return;
    const signup = await deps.db.selectFrom('signups').select('user_id').where('id', '=', captain.signup_id).executeTakeFirst();
    const event = await deps.db.selectFrom('events').select(['name', 'clan_id']).where('id', '=', state.event_id).executeTakeFirst();
    if (!signup?.user_id || !event) return;
    await notify(deps, 'draft_turn', [signup.user_id], actorId, {
      title: 'Your pick',
      body: `You are on the clock in ${event.name}.`,
      url: `/clans/${event.clan_id}/events/${state.event_id}/draft`,
      tag: `draft-${state.event_id}`,
    });
  } catch (err) {
    log.error({ err, event_id: state.event_id }, '[push] draft turn notification failed');
  }
}
