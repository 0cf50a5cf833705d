import * as v from 'valibot';
import { GAME_STATUSES } from './game/status';
import {
  BoardSquareSchema, GameSchema, LogEntrySchema, PublicGameSchema, TeamStateSchema, WinnerSchema,
  type Game, type LogEntry, type PublicGame,
} from './gameApi';
import type { JoinReviews, SubmissionAnswer } from './submission';
import type { DinkPostUpdate } from './dink';
import type { RequestRelief } from './game/relief';
import type { DraftPick, JoinDraft } from './draft';
import type { DraftState } from './signup';
import type { JoinRequestCount, JoinRequestDecided } from './joins';

/**
 * The live socket of docs/server.md §3 ("Live socket") and docs/server.md §6:
 * Socket.IO at /socket.io, same origin. Names on the wire are the documented, exactly.
 */

const positiveId = (what: string) => v.pipe(v.number(`${what} must be a number.`), v.integer(`${what} must be a whole number.`), v.minValue(1, `${what} is invalid.`), v.maxValue(2147483647, `${what} is invalid.`));

/**
 * join_game / leave_game payload. `compact: true` (join_game only; docs/server.md §6, "Compact
 * sockets") asks for one message per roll, revert or status change: the progress update carries
 * that change's log entries as `new_log_entries` and no `new_log_entry` follows for them.
 */
export const JoinGameSchema = v.object({ game_id: positiveId('game_id'), compact: v.optional(v.boolean('compact must be true or false.')) });
type JoinGame = v.InferOutput<typeof JoinGameSchema>;

/** roll_dice / revert_roll payload: the team and the Leader IGN acting for it. */
export const TeamActionSchema = v.object({
  game_id: positiveId('game_id'),
  team_id: positiveId('team_id'),
  performer_ign_id: positiveId('performer_ign_id'),
});
export type TeamAction = v.InferOutput<typeof TeamActionSchema>;

/** tasks_reordered sent by a manager's screen after a swap. */
export const TasksReorderedInSchema = v.object({ game_id: positiveId('game_id'), message: v.optional(v.pipe(v.string(), v.maxLength(500)), '') });
type TasksReorderedIn = v.InferOutput<typeof TasksReorderedInSchema>;

/**
 * The roll a progress update reports: the team, the die (1..6), the
 * square it moved `from`, the `landing` square of the die alone, the square it ended `to` (after
 * the snake or ladder named by `via`, else the landing) and the `path` walked square by square,
 * `from` to `landing` inclusive. Built by contract lastMoveOf.
 */
export const LastMoveSchema = v.object({
  team_id: v.number(),
  die: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(6)),
  from: v.number(),
  landing: v.number(),
  to: v.number(),
  via: v.nullable(v.picklist(['snake', 'ladder'])),
  path: v.array(v.number()),
});
export type LastMove = v.InferOutput<typeof LastMoveSchema>;

/**
 * What a roll, revert or status change can alter (docs/server.md §6): broadcast instead of
 * the full game; the client merges it into the game it holds. revert_count is absent for
 * spectators.
 */
export const GameProgressSchema = v.object({
  id: v.number(),
  status: v.picklist(GAME_STATUSES),
  team_states: v.array(v.object({ ...TeamStateSchema.entries, revert_count: v.optional(v.number()) })),
  winners: v.nullable(v.array(WinnerSchema)),
  version: v.number(),
  /** The roll this update reports, null after a revert or status change; absent in older shapes (which still parse). */
  last_move: v.optional(v.nullable(LastMoveSchema)),
  /** To compact sockets only: the log entries this change wrote, oldest first (docs/server.md §6). */
  new_log_entries: v.optional(v.array(LogEntrySchema)),
});
export type GameProgress = v.InferOutput<typeof GameProgressSchema>;

/**
 * The full game as broadcast to the members room: the member shape (with revert counts) but no
 * user_teams, which are per viewer and come only with the join_game answer.
 */
const MembersGameSchema = v.omit(GameSchema, ['user_teams']);
export type MembersGame = v.InferOutput<typeof MembersGameSchema>;

/**
 * game_state_update payload: the full game (a viewer's own, the members-room or the public shape)
 * or a progress update. Order matters: valibot takes the first shape that fits and drops unknown
 * keys, so the richer shapes come first.
 */
export const GameStateUpdateSchema = v.object({ game_state: v.union([GameSchema, MembersGameSchema, PublicGameSchema, GameProgressSchema]) });
type GameStateUpdate = v.InferOutput<typeof GameStateUpdateSchema>;

/** new_log_entry payload. */
export const NewLogEntrySchema = v.object({ log_entry: LogEntrySchema });
type NewLogEntry = v.InferOutput<typeof NewLogEntrySchema>;

/** tasks_reordered payload from the server. */
export const TasksReorderedOutSchema = v.object({
  board_data: v.object({ board_squares: v.array(BoardSquareSchema) }),
  game_state: v.union([GameSchema, PublicGameSchema]),
});
type TasksReorderedOut = v.InferOutput<typeof TasksReorderedOutSchema>;

/** team_update payload. */
export const TeamUpdateSchema = v.object({
  updated_team_data: v.object({
    id: v.number(),
    name: v.string(),
    color: v.string(),
    members: v.array(v.object({ osrs_ign_id: v.number(), osrs_ign: v.string(), role: v.string() })),
  }),
});
export type TeamUpdate = v.InferOutput<typeof TeamUpdateSchema>;

/** action_error payload: a refused roll or revert, to the sender only. */
export const ActionErrorSchema = v.object({ message: v.string() });
type ActionError = v.InferOutput<typeof ActionErrorSchema>;

/**
 * server_restarting payload (docs/server.md §14): sent to every socket of a process that is
 * shutting down (a deploy, a restart), just before it closes them. The connection then drops;
 * a client reconnects (to another process where there is one) and sends join_game again, which
 * brings the full game, so nothing is missed.
 */
export const ServerRestartingSchema = v.object({ message: v.string() });
type ServerRestarting = v.InferOutput<typeof ServerRestartingSchema>;

/** The text of server_restarting. */
export const SERVER_RESTARTING_MESSAGE = 'The server is restarting. Reconnecting…';

/** Events the client sends (Socket.IO typed maps, docs/architecture.md §5). */
export interface ClientToServerEvents {
  join_game: (payload: JoinGame) => void;
  leave_game: (payload: JoinGame) => void;
  roll_dice: (payload: TeamAction) => void;
  revert_roll: (payload: TeamAction) => void;
  /** docs/server.md §15: a Leader asks for a substitute task for the team's square. */
  request_relief: (payload: RequestRelief) => void;
  tasks_reordered: (payload: TasksReorderedIn) => void;
  /** docs/server.md §9: managers join their clan's managers room; anyone else joins nothing. */
  join_reviews: (payload: JoinReviews) => void;
  /** docs/server.md §16: clan members watch an event's captains' draft (answered with draft_state). */
  join_draft: (payload: JoinDraft) => void;
  /** Stops watching an event's draft. */
  leave_draft: (payload: JoinDraft) => void;
  /** docs/server.md §16: the captain on the clock picks a free agent. */
  draft_pick: (payload: DraftPick) => void;
}

/** Events the server sends, each payload the output type of its schema above. */
export interface ServerToClientEvents {
  game_state_update: (payload: GameStateUpdate) => void;
  new_log_entry: (payload: NewLogEntry) => void;
  tasks_reordered: (payload: TasksReorderedOut) => void;
  team_update: (payload: TeamUpdate) => void;
  action_error: (payload: ActionError) => void;
  /** docs/server.md §9: every change of a submission, to the members room and the managers room. */
  submission_update: (payload: SubmissionAnswer) => void;
  /** docs/server.md §13: a Dink post was judged (its outcome), to the clan's managers room. */
  dink_post: (payload: DinkPostUpdate) => void;
  /** docs/server.md §14: this process is shutting down; the socket closes next, reconnect. */
  server_restarting: (payload: ServerRestarting) => void;
  /** docs/server.md §16: the captains' draft as it now is, to its room. */
  draft_state: (payload: DraftState) => void;
  /** docs/server.md §18: the clan's count of pending join requests changed, to the clan's managers room (JoinRequestCountSchema). */
  join_request: (payload: JoinRequestCount) => void;
  /** docs/server.md §18: a manager approved or denied the user's join request, to the asker's own sockets (JoinRequestDecidedSchema). */
  join_request_decided: (payload: JoinRequestDecided) => void;
}

/** True when a game_state_update carries the whole game rather than a progress update. */
export function isFullGame(state: Game | PublicGame | GameProgress): state is Game | PublicGame {
  return 'board_squares' in state;
}

/**
 * Merges a progress update into the game a client holds (docs/server.md §6). Returns the
 * new game, or null when the update skips a version (the client must ask for the full state
 * again with join_game). Updates older than what is held are ignored (returns the held game).
 */
export function mergeProgress<G extends Game | PublicGame>(held: G, progress: GameProgress): G | null {
  if (progress.id !== held.id) return held;
  if (progress.version <= held.version) return held;
  if (progress.version !== held.version + 1) return null;
  return {
    ...held,
    status: progress.status,
    winners: progress.winners,
    version: progress.version,
    team_states: progress.team_states.map((t) => {
      const before = held.team_states.find((h) => h.team_id === t.team_id) as { revert_count?: number; relief_count?: number } | undefined;
      const revert_count = t.revert_count ?? before?.revert_count;
      // A roll's or revert's update has no relief count: the one held stays.
      const relief_count = t.relief_count ?? before?.relief_count;
      // A public (spectator) game has no revert counts and keeps none.
      const { revert_count: _dropped, relief_count: _relief, ...rest } = t;
      const kept = relief_count === undefined ? rest : { ...rest, relief_count };
      return revert_count === undefined ? kept : { ...kept, revert_count };
    }),
  } as G;
}

/** The game a screen holds: the members' shape (play screen, Event Game view) or the public one (spectator view). */
export type HeldGame = Game | PublicGame;

/** A game_state_update payload: the full game (members' or public shape) or a progress update. */
export type GameUpdate = Game | PublicGame | GameProgress;

/** What applyGameUpdate makes of an update: the game to hold (the held one itself when nothing changes), or a resync. */
export type GameUpdateResult<G extends HeldGame> = { game: G } | { resync: true };

/**
 * The one live-update reducer of every chart that holds a game (docs/server.md §6): the
 * held game after `update`. A full game replaces it (a members' screen receiving a shape without
 * user_teams keeps the viewer's team entries, and the revert counts it held where the update has
 * none); a progress update is merged with mergeProgress. An update of another game or an older
 * version leaves the held game as it is (the same object comes back), and so does a full game equal
 * to the held one; the parts of a full game that did not change are the held game's (shareEqual).
 * `{ resync: true }` when a progress update skips a version or arrives before any game is held: the full state must be asked
 * for again (join_game).
 */
export function applyGameUpdate<G extends HeldGame>(held: G | null, update: GameUpdate): GameUpdateResult<G> {
  if (!isFullGame(update)) {
    const merged = held ? mergeProgress(held, update) : null;
    return merged ? { game: merged } : { resync: true };
  }
  if (!held) return { game: update as G };
  if (update.id !== held.id || update.version < held.version) return { game: held };
  // The join_game answer right after the page's own load repeats the held game: compared without building anything.
  if (update.version === held.version && sameData(held, update)) return { game: held };
  if ('user_teams' in update || !('user_teams' in held)) return { game: shareEqual(held, update as G) };
  const before = new Map(held.team_states.map((t) => [t.team_id, t.revert_count]));
  return {
    game: shareEqual(held, {
      ...update,
      user_teams: held.user_teams,
      team_states: update.team_states.map((t) => ({
        ...t,
        revert_count: (t as { revert_count?: number }).revert_count ?? before.get(t.team_id) ?? 0,
      })),
    } as Game as G),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/**
 * Whether two JSON values are equal (same keys, same values, arrays in the same order), stopping
 * at the first difference and allocating nothing: shareEqual's answer for equal values, at a
 * fraction of its cost on a whole game.
 */
function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  if (isRecord(a) && isRecord(b)) {
    let count = 0;
    for (const key in a) {
      if (!Object.hasOwn(b, key) || !sameData(a[key], b[key])) return false;
      count++;
    }
    return count === Object.keys(b).length;
  }
  return false;
}

/**
 * `next` with every part that equals the same part of `prev` (JSON data: same keys, same values,
 * arrays in the same order) taken from `prev` instead, and `prev` itself when the two are equal.
 * applyGameUpdate uses it so a full game that repeats the held one (the join_game answer right
 * after the page's own load) changes nothing, and a full game that changes a little keeps the
 * unchanged board, teams and log: screens comparing by identity redraw only what changed.
 */
function shareEqual<T>(prev: unknown, next: T): T {
  if (Object.is(prev, next)) return next;
  if (Array.isArray(prev) && Array.isArray(next)) {
    let same = prev.length === next.length;
    const out = next.map((item: unknown, i) => {
      const shared = shareEqual(prev[i], item);
      if (shared !== prev[i]) same = false;
      return shared;
    });
    return (same ? prev : out) as T;
  }
  if (isRecord(prev) && isRecord(next)) {
    const keys = Object.keys(next);
    let same = keys.length === Object.keys(prev).length;
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      out[key] = shareEqual(prev[key], next[key]);
      if (!(key in prev) || out[key] !== prev[key]) same = false;
    }
    return (same ? prev : out) as T;
  }
  return next;
}

/**
 * Puts a live log entry in its place, keeping `limit` entries (docs/client.md §12: 100). The log is
 * newest first, as the server lists it (by id, descending): an entry goes before the first entry
 * with a smaller id, so entries that arrive out of order (updates from two processes,
 * docs/server.md §6 "Order") still read in the order they were written. An entry already held
 * (same id) changes nothing (the same array comes back), and so does one older than every entry
 * of a log that is not full: that log was cleared since (a reset), or the entry would fall off it.
 */
export function prependLogEntry(entries: LogEntry[], entry: LogEntry, limit = 100): LogEntry[] {
  if (entries.some((e) => e.id === entry.id)) return entries;
  const at = entries.findIndex((e) => e.id < entry.id);
  if (at < 0 && entries.length > 0) return entries;
  const next = at < 0 ? [entry] : [...entries.slice(0, at), entry, ...entries.slice(at)];
  return next.slice(0, limit);
}

/** prependLogEntry for each of `added` (a compact update's new_log_entries, oldest first). */
export function mergeLogEntries(entries: LogEntry[], added: readonly LogEntry[] | undefined, limit = 100): LogEntry[] {
  return (added ?? []).reduce((log, entry) => prependLogEntry(log, entry, limit), entries);
}

/**
 * How long a client waits, after a progress update that skips a version, for the missing one
 * before it asks for the full state again (docs/server.md §6 "Order"). With several processes an
 * update made on another process comes through Redis a few milliseconds after one made on this
 * process, so a gap usually closes well within this.
 */
export const ORDER_WAIT_MS = 1000;

/** Progress updates a client keeps waiting for a missing version before it asks for the full state at once. */
export const ORDER_PENDING_LIMIT = 32;

/** One update applyInOrder applied: the game it made, and the update (a full game or a progress update with its log entries). */
export interface OrderedStep<G extends HeldGame> {
  game: G;
  update: GameUpdate;
}

/** What applyInOrder makes of an update. */
export interface OrderedResult<G extends HeldGame> {
  /** The game held after the update (the held object itself when nothing was applied). */
  game: G | null;
  /** Each update applied, in version order (the arriving one and the waiting ones it let through). */
  steps: OrderedStep<G>[];
  /** Progress updates past a missing version, lowest version first, waiting for it. */
  pending: GameProgress[];
  /** Log entries of progress updates older than the game held, to merge (the game has them already, or they came with a later version). */
  late: LogEntry[];
  /** Ask for the full state now (join_game): a progress update before any game, or more than `limit` waiting (once, as they pass it). */
  resync: boolean;
}

/** `pending` with `update` in its version's place; a second update of a waiting version adds its log entries to the first. */
function withPending(pending: readonly GameProgress[], update: GameProgress): GameProgress[] {
  const same = pending.find((p) => p.version === update.version);
  if (same) {
    const entries = [...(same.new_log_entries ?? []), ...(update.new_log_entries ?? []).filter((e) => !same.new_log_entries?.some((s) => s.id === e.id))];
    return pending.map((p) => (p === same ? { ...same, new_log_entries: entries } : p));
  }
  return [...pending, update].sort((x, y) => x.version - y.version);
}

/**
 * The live-update reducer with the order of docs/server.md §6 ("Order"): updates are applied in
 * version order and never step back, whichever process sent them and whatever order they arrive in.
 * - A progress update of version held + 1 is applied (applyGameUpdate), and then every waiting
 *   update that follows it without a gap.
 * - A progress update further ahead waits in `pending` (the caller asks for the full state after
 *   ORDER_WAIT_MS if the gap is still open; `resync` at once past `limit` waiting updates, or when
 *   no game is held yet).
 * - A progress update of a version held or older changes nothing; its log entries come back in
 *   `late` (merging them by id adds only what is missing).
 * - A full game replaces the held one unless it is older (applyGameUpdate); waiting updates it
 *   covers are dropped (their entries in `late`) and the ones right after it are applied.
 * Updates of another game change nothing. Log entries travel with their update (`steps`), so a
 * caller that merges them step by step never shows an entry ahead of its change, twice, or lost.
 */
export function applyInOrder<G extends HeldGame>(held: G | null, pending: readonly GameProgress[], update: GameUpdate, limit = ORDER_PENDING_LIMIT): OrderedResult<G> {
  const steps: OrderedStep<G>[] = [];
  const late: LogEntry[] = [];
  let game = held;
  let waiting = [...pending];
  if (!isFullGame(update)) {
    if (!game) return { game, steps, pending: withPending(waiting, update), late, resync: true };
    if (update.id !== game.id) return { game, steps, pending: waiting, late, resync: false };
    if (update.version <= game.version) return { game, steps, pending: waiting, late: [...(update.new_log_entries ?? [])], resync: false };
    waiting = withPending(waiting, update);
  } else {
    const result = applyGameUpdate(game, update);
    if ('game' in result && result.game !== game) {
      game = result.game;
      steps.push({ game, update });
    }
  }
  while (game && waiting.length > 0) {
    const [first, ...rest] = waiting;
    if (first.id !== game.id || first.version <= game.version) {
      if (first.id === game.id) late.push(...(first.new_log_entries ?? []));
      waiting = rest;
      continue;
    }
    if (first.version !== game.version + 1) break;
    const merged = mergeProgress(game, first);
    if (!merged) break;
    game = merged;
    steps.push({ game, update: first });
    waiting = rest;
  }
  // Asked once, when the waiting updates first pass the limit (the wait's timer asks again if need be).
  return { game, steps, pending: waiting, late, resync: waiting.length > limit && pending.length <= limit };
}
