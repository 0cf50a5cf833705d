import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema';
import type { Announce } from '../../contract/discord';
import type { Announcement, AnnouncedBoard, AnnouncedTeam, StatusTitle, TeamPing } from './embeds';
import { announceOf, findWebhook, insertAnnouncement, webhookOfGame, type GameWebhook } from './repository';

/**
 * The outbox side of Discord announcements (docs/server.md §10): each function runs
 * inside the transaction of the change it reports (so an announcement exists exactly when its
 * change committed) and queues it for the game's event webhook, unless there is none, it is
 * disabled, or its `announce` flag for that kind is off. The worker (worker.ts) posts them.
 */

/**
 * Queues `a` under the `flag` of the game's webhook: `known` when the caller read it in this
 * transaction already (null: the game's event has none), else looked up here.
 */
async function queue(
  trx: Db,
  gameId: number,
  flag: keyof Announce,
  build: (eventName: string, hook: GameWebhook) => Announcement | Promise<Announcement>,
  known?: GameWebhook | null,
): Promise<void> {
  const hook = known === undefined ? await webhookOfGame(trx, gameId) : known;
  if (!hook || hook.state === 'disabled' || !announceOf(hook)[flag]) return;
  await insertAnnouncement(trx, hook.id, gameId, await build(hook.event_name, hook));
}

/**
 * The team ping of an announcement about team `teamName` of game `gameId` (docs/server.md §19
 * "Team pings"): nothing unless `hook` has ping_teams on and the team (names are unique in an
 * event) has a Discord role; then `ping`, and for an approval `may_roll` when it lets the team
 * roll: the game requires proof, is in progress, and the team, still on `square`, is now approved
 * (the caller wrote that state earlier in this transaction).
 */
async function teamPing(trx: Db, gameId: number, hook: GameWebhook, teamName: string, approval: { square: number } | null): Promise<TeamPing> {
  if (hook.ping_teams !== 1) return {};
  const row = await trx.selectFrom('games')
    .innerJoin('teams', 'teams.event_id', 'games.event_id')
    .leftJoin('team_states', (j) => j.onRef('team_states.team_id', '=', 'teams.id').onRef('team_states.game_id', '=', 'games.id'))
    .select(['teams.discord_role_id', 'games.status', 'games.proof_required', 'team_states.current_position', 'team_states.task_state'])
    .where('games.id', '=', gameId)
    .where('teams.name', '=', teamName)
    .executeTakeFirst();
  if (!row?.discord_role_id) return {};
  const mayRoll = approval !== null && row.proof_required === 1 && row.status === 'in-progress'
    && row.current_position === approval.square && row.task_state === 'approved';
  return { ping: row.discord_role_id, ...(mayRoll ? { may_roll: true } : {}) };
}

/**
 * A status change: 'Game started', 'Game paused', 'Game resumed', 'Game reset' or 'Game finished'
 * (`hook`: the game's webhook when the caller read it in this transaction, null for none).
 */
export async function announceStatus(trx: Db, gameId: number, title: StatusTitle, hook?: GameWebhook | null): Promise<void> {
  await queue(trx, gameId, 'status', (event_name) => ({ kind: 'status', title, event_name }), hook);
}

/** A roll as announced: the team, the die, from, the landing square, the final square and the snake or ladder taken. */
export interface AnnouncedRoll {
  team: AnnouncedTeam;
  die: number;
  from: number;
  landing: number;
  to: number;
  via: 'snake' | 'ladder' | null;
}

/**
 * Whether a roll that did not win is announced through `hook` (the game's webhook, null for
 * none), as announceRoll decides: the webhook exists, is not disabled and announces rolls. For a
 * caller that writes the outbox row itself (games/play.ts, SQLite's synchronous roll).
 */
export function announcesRolls(hook: GameWebhook | null): hook is GameWebhook {
  return hook !== null && hook.state !== 'disabled' && announceOf(hook).rolls;
}

/**
 * The outbox payload of a roll (announce.rolls), as announceRoll queues it; `board`, the game and
 * the version the roll set, for the board picture (docs/server.md §19).
 */
export function rollAnnouncement(roll: AnnouncedRoll, board?: AnnouncedBoard): Announcement {
  return { kind: 'roll', ...roll, ...(board ? { board } : {}) };
}

/**
 * A roll (announce.rolls); when it `won` the game, then 'Game finished' (announce.status) and the
 * result (announce.results): the winner and the final standings (every team by position, then
 * name), read from the team states this transaction already wrote. `hook` is the game's webhook
 * as the roll's transaction read it (null for none), so it is not looked up again; without it, it is.
 * `version`, the game version the roll set, goes with the roll and the result for their board
 * picture (docs/server.md §19).
 */
export async function announceRoll(trx: Db, gameId: number, roll: AnnouncedRoll, won: boolean, hook?: GameWebhook | null, version?: number): Promise<void> {
  const board = version === undefined ? undefined : { game_id: gameId, version };
  await queue(trx, gameId, 'rolls', () => rollAnnouncement(roll, board), hook);
  if (!won) return;
  await announceStatus(trx, gameId, 'Game finished', hook);
  await queue(trx, gameId, 'results', async (event_name) => {
    const rows = await trx.selectFrom('team_states')
      .innerJoin('teams', 'teams.id', 'team_states.team_id')
      .select(['teams.name', 'teams.color', 'team_states.current_position as position'])
      .where('team_states.game_id', '=', gameId)
      .orderBy('team_states.current_position', 'desc')
      .orderBy('teams.name')
      .execute();
    return { kind: 'result', event_name, winner: roll.team, standings: rows, ...(board ? { board } : {}) };
  }, hook);
}

/**
 * A substitute task from stuck-tile relief (docs/server.md §15), under announce.reviews (it changes
 * the task a referee will review): the team, its square, the whole hours it waited and the new task;
 * with ping_teams, the team's role pinged (docs/server.md §19).
 */
export async function announceRelief(trx: Db, gameId: number, relief: { team: AnnouncedTeam; square: number; hours: number; task: string }): Promise<void> {
  await queue(trx, gameId, 'reviews', async (_name, hook) => ({ kind: 'relief', ...relief, ...(await teamPing(trx, gameId, hook, relief.team.name, null)) }));
}

/**
 * A review (announce.reviews): approved, or denied with the reason; with ping_teams, the team's
 * role pinged and, when the approval lets it roll, '{team} may roll.' (docs/server.md §19).
 */
export async function announceReview(
  trx: Db,
  gameId: number,
  review: { team: AnnouncedTeam; square: number; task: string; decision: 'approved' | 'denied'; reviewer: string; reason: string | null },
): Promise<void> {
  await queue(trx, gameId, 'reviews', async (_name, hook) => ({
    kind: 'review',
    ...review,
    ...(await teamPing(trx, gameId, hook, review.team.name, review.decision === 'approved' ? { square: review.square } : null)),
  }));
}

/**
 * Sign-ups of an event opened or closed (docs/server.md §16), under the webhook's `status` flag:
 * 'Sign-ups open' (with the close time, when set) or 'Sign-ups closed'. Run in the transaction
 * that changes the event.
 */
export async function announceSignups(trx: Db, event: { id: number; name: string }, open: boolean, closeAt: string | null): Promise<void> {
  const hook = await findWebhook(trx, event.id);
  if (!hook || hook.state === 'disabled' || !announceOf(hook).status) return;
  await insertAnnouncement(trx, hook.id, null, { kind: 'signups', open, event_name: event.name, close_at: open ? closeAt : null });
}

/**
 * Announces 'Sign-ups closed' for events whose `signups_close_at` has passed while open
 * (docs/server.md §16), once over every process: each event is claimed by one conditional update
 * of `signups_close_announced` in the transaction that queues its announcement. Run by the
 * announcement worker each round; returns how many it announced.
 */
export async function announceSignupsClosedByTime(db: Kysely<Database>, now = new Date().toISOString()): Promise<number> {
  const due = await db.selectFrom('events').select(['id', 'name'])
    .where('signups_open', '=', 1)
    .where('signups_close_announced', '=', 0)
    .where('signups_close_at', 'is not', null)
    .where('signups_close_at', '<=', now)
    .orderBy('id')
    .limit(50)
    .execute();
  let announced = 0;
  for (const e of due) {
    await db.transaction().execute(async (trx) => {
      const claimed = await trx.updateTable('events').set({ signups_close_announced: 1 }).where('id', '=', e.id).where('signups_close_announced', '=', 0).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return;
      await announceSignups(trx, e, false, null);
      announced += 1;
    });
  }
  return announced;
}
