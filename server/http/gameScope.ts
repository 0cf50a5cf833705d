import type { Context } from 'hono';
import type { AppEnv } from './context';
import { pathId, requireUser } from './context';
import { requireManager, requireMember } from '../clans/access';
import { findEvent } from '../events/repository';
import { findGame } from '../games/repository';
import type { LogEntry } from '../../contract/gameApi';
import type { GameChange } from '../realtime/broadcaster';
import { log as serverLog } from '../observability/log';

/**
 * The signed-in user and the path's clan, event and (when in the path) game and square, checked
 * in this order: 401 signed out; 400 'Invalid clan id.' etc. for bad ids; 404 'Clan ID {id} not
 * found.'; 403 for a non-member, or a non-manager when `manager`; 404 'Event ID {id} not found.'
 * for an event of another clan; 404 'Game not found.' for a game of another event or clan.
 */
export async function gameScope(c: Context<AppEnv>, manager: boolean) {
  const user = requireUser(c);
  const clanId = pathId(c, 'clanId', 'clan id');
  const eventId = pathId(c, 'eventId', 'event id');
  const gameId = c.req.param('gameId') === undefined ? null : pathId(c, 'gameId', 'game id');
  const squareId = c.req.param('squareId') === undefined ? null : pathId(c, 'squareId', 'square id');
  const deps = c.get('deps');
  await (manager ? requireManager : requireMember)(deps.db, clanId, user.id);
  await findEvent(deps.db, clanId, eventId);
  const scope = { clanId, eventId, gameId: gameId ?? 0 };
  if (gameId !== null) await findGame(deps.db, scope);
  return { user, clanId, eventId, gameId: gameId ?? 0, squareId: squareId ?? 0, scope, deps };
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
