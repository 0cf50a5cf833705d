import type { Context } from 'hono';
import type { AppEnv } from './context';
import { requireUser } from './context';
import { checkIds, valid } from './route';
import { requireManager, requireMember } from '../clans/access';
import { findEvent } from '../events/repository';
import { findGame } from '../games/repository';
import type { LogEntry } from '../../contract/gameApi';
import type { GameChange } from '../realtime/broadcaster';
import { log as serverLog } from '../observability/log';

/** The labels of an event route's path ids for ids() (http/route.ts): 400 'Invalid clan id.', 'Invalid event id.'. */
export const EVENT_ID_LABELS = { clanId: 'clan id', eventId: 'event id' } as const;

/** The path ids of an event's routes; checked by the route's input('param', ids({...})) (http/route.ts). */
interface EventIds {
  clanId: number;
  eventId: number;
}

/** A route's context whose path ids (the clan's, the event's and any more) input('param', ...) checked. */
type IdsContext<P> = Context<AppEnv, string, { out: { param: P } }>;

/**
 * The signed-in user, the path's ids, clan and event, checked in this order: 401 signed out; 400
 * 'Invalid clan id.' etc. for the first bad id of the route's ids(); 404 'Clan ID {id} not found.';
 * 403 for a non-member (`notMember` its text, else the permission text), or a non-manager when
 * `manager`; 404 'Event ID {id} not found.' for an event of another clan. Also the caller's role
 * in the clan and the event's row. The one scope of the event's own routes (sign-ups, draft,
 * Discord, Dink) and of gameScope.
 */
export async function eventScope<P extends EventIds>(c: IdsContext<P>, manager: boolean, notMember?: string) {
  const s = await scopeOfEvent(c, manager, notMember);
  return { ...valid(c, 'param'), ...s };
}

/** The ids checked before the access checks; a later (trailing) id is checked after the clan, event and game were. */
const LEADING_IDS = ['clanId', 'eventId', 'gameId', 'squareId'] as const;

/** eventScope's checks without the trailing id's (see LEADING_IDS). */
async function scopeOfEvent<P extends EventIds>(c: IdsContext<P>, manager: boolean, notMember?: string) {
  const user = requireUser(c);
  checkIds(c, LEADING_IDS);
  const path = c.req.param() as Record<string, string>;
  const clanId = Number(path.clanId);
  const deps = c.get('deps');
  const access = manager ? await requireManager(deps.db, clanId, user.id) : await requireMember(deps.db, clanId, user.id, notMember);
  const event = await findEvent(deps.db, clanId, Number(path.eventId));
  return { user, event, role: access.role, deps };
}

/**
 * As eventScope, and then (when the path has one) the game: 404 'Game not found.' for a game of
 * another event or clan. `scope` is what findGame takes; gameId is 0 on the paths without one.
 */
export async function gameScope<P extends EventIds & { gameId?: number }>(c: IdsContext<P>, manager: boolean) {
  const first = await scopeOfEvent(c, manager);
  const path = c.req.param() as Record<string, string>;
  const scope = { clanId: Number(path.clanId), eventId: Number(path.eventId), gameId: path.gameId === undefined ? 0 : Number(path.gameId) };
  if (path.gameId !== undefined) await findGame(first.deps.db, scope);
  const s = { ...valid(c, 'param'), ...first };
  return { ...s, gameId: scope.gameId, scope };
}

/**
 * Live updates after a committed change (docs/server.md §6), through
 * Broadcaster.gameChanged: the full game after a board change, only progress after a status
 * change (plus its log entry, which reaches compact sockets inside the update), and the full game with
 * `tasks_reordered` after a task swap, assign or reorder. A failed broadcast is logged and never
 * fails the answer: the change is already saved, and clients catch up on join_game.
 */
export async function announce(c: Context<AppEnv>, gameId: number, change: GameChange, log: readonly LogEntry[] = []): Promise<void> {
  try {
    await c.get('deps').broadcaster.gameChanged(gameId, change, log);
  } catch (err) {
    serverLog.error({ err, game_id: gameId }, '[games] broadcast failed');
  }
}
