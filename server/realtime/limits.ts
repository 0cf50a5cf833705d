import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { IoSocket } from './types';
import type { InFlight } from '../lifecycle/shutdown';
import { log } from '../observability/log';

/** The refusal of an event past a limit (docs/server.md §8). */
const TOO_MANY = 'Too many requests. Slow down.';

/**
 * The limit classes of client events (docs/server.md §8): each has its own window per socket and
 * per user, so a join does not use up a roll's place.
 * - `action`: roll_dice, revert_roll, request_relief, draft_pick (game or draft changes);
 * - `fullGame`: join_game, tasks_reordered (each answered with the whole game, 33-50 KB), also
 *   counted per client address since spectators have no user;
 * - `room`: join_draft, leave_draft, join_reviews, leave_game (room joins and leaves).
 */
export type LimitClass = 'action' | 'fullGame' | 'room';

/** The limits of the live socket (docs/server.md §8), per second. */
export interface SocketLimits {
  /** `action` events one socket may send a second (contract: 5). */
  actionsPerSocket: number;
  /** `action` events one user may send a second over all their sockets and processes (contract: 10). */
  actionsPerUser: number;
  /** `fullGame` events one socket may send a second. */
  fullGamePerSocket: number;
  /** `fullGame` events one signed-in user may send a second over all their sockets and processes. */
  fullGamePerUser: number;
  /** `fullGame` events one client address may send a second over all its sockets. */
  fullGamePerAddress: number;
  /** `room` events one socket may send a second. */
  roomsPerSocket: number;
  /** `room` events one signed-in user may send a second over all their sockets and processes. */
  roomsPerUser: number;
}

/**
 * Limits from the configuration: ROLLS_PER_SOCKET and ROLLS_PER_USER (5 and 10) for every class
 * per socket and per user, except JOINS_PER_SOCKET (5) for `fullGame` per socket; JOINS_PER_ADDRESS
 * (30) for `fullGame` per address.
 */
export function socketLimits(config: { actionsPerSocket: number; actionsPerUser: number; joinsPerAddress: number; joinsPerSocket: number }): SocketLimits {
  return {
    actionsPerSocket: config.actionsPerSocket,
    actionsPerUser: config.actionsPerUser,
    fullGamePerSocket: config.joinsPerSocket,
    fullGamePerUser: config.actionsPerUser,
    fullGamePerAddress: config.joinsPerAddress,
    roomsPerSocket: config.actionsPerSocket,
    roomsPerUser: config.actionsPerUser,
  };
}

/** The per-socket limit of each class (a SocketWindow's size). */
function perSocketLimit(limits: SocketLimits, kind: LimitClass): number {
  return kind === 'action' ? limits.actionsPerSocket : kind === 'fullGame' ? limits.fullGamePerSocket : limits.roomsPerSocket;
}

/**
 * A fixed one-second window counted on one socket (a socket lives in one process, so nothing
 * needs sharing). `take()` is true while the window has room.
 */
export class SocketWindow {
  private start = 0;
  private used = 0;

  constructor(private readonly perSecond: number) {}

  /** Counts one event at `now` (ms); false once `perSecond` were taken in the current second. */
  take(now = Date.now()): boolean {
    if (now - this.start >= 1000) {
      this.start = now;
      this.used = 0;
    }
    this.used += 1;
    return this.used <= this.perSecond;
  }
}

/** Dropped events after which a socket is not read for `FLOOD_PAUSE_MS`. */
const FLOOD_DROPS = 50;
/** How long (ms) a flooding socket is not read after each `FLOOD_DROPS` dropped events. */
const FLOOD_PAUSE_MS = 20;

/**
 * Paces the reading of a socket that keeps sending past its limits (docs/server.md §8). Events
 * past a limit are dropped without work, but each still costs this process a WebSocket frame and
 * a packet parse; after every `FLOOD_DROPS` drops the socket's WebSocket is not read for
 * `FLOOD_PAUSE_MS`, so a flood is read in slices with the process free for everyone else
 * between them (a flood of 30,000 events is still read, and its sender's disconnect seen,
 * within about a second). A client within the limits never drops that many, so it is never
 * paused. Long-polling sockets are not paced (each of their requests is bounded).
 */
export class FloodBrake {
  private dropped = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** `transport` gives the socket's current transport (Engine.IO's; a WebSocket one has `socket.pause/resume`). */
  constructor(private readonly transport: () => unknown) {}

  /** Counts one dropped event; every `FLOOD_DROPS`th pauses reading for `FLOOD_PAUSE_MS`. */
  drop(): void {
    if (this.timer) return;
    this.dropped += 1;
    if (this.dropped < FLOOD_DROPS) return;
    const ws = webSocketOf(this.transport());
    if (!ws) return;
    this.dropped = 0;
    ws.pause();
    this.timer = setTimeout(() => {
      this.timer = null;
      ws.resume();
    }, FLOOD_PAUSE_MS);
  }

  /** Resumes at once and forgets the pending timer (the Socket.IO socket disconnected; its connection may serve others). */
  stop(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    webSocketOf(this.transport())?.resume();
  }
}

/** The `ws` WebSocket under an Engine.IO websocket transport, or null for another transport. */
function webSocketOf(transport: unknown): { pause(): void; resume(): void } | null {
  const ws = (transport as { name?: string; socket?: { pause?: unknown; resume?: unknown } } | null)?.socket;
  if ((transport as { name?: string } | null)?.name !== 'websocket' || !ws) return null;
  if (typeof ws.pause !== 'function' || typeof ws.resume !== 'function') return null;
  return ws as { pause(): void; resume(): void };
}

/**
 * Counters shared by every socket of a user or an address, in memory for one process or in Redis
 * when REDIS_URL is set, so the bound holds across processes (rate-limiter-flexible). When Redis
 * fails, the in-memory limiter answers instead (insurance), so a Redis outage never blocks play.
 */
export class SharedLimits {
  private readonly perUser: Record<LimitClass, RateLimiterAbstract>;
  private readonly perAddress: RateLimiterAbstract;

  /** The per-socket window sizes (limitedListener makes the windows per socket). */
  readonly limits: SocketLimits;

  constructor(limits: SocketLimits, redis: Redis | null, keyPrefix: string) {
    this.limits = limits;
    const make = (points: number, name: string): RateLimiterAbstract => {
      const memory = new RateLimiterMemory({ points, duration: 1, keyPrefix: `${keyPrefix}:${name}` });
      if (!redis) return memory;
      return new RateLimiterRedis({ storeClient: redis, points, duration: 1, keyPrefix: `${keyPrefix}:${name}`, insuranceLimiter: memory });
    };
    this.perUser = {
      action: make(limits.actionsPerUser, 'user-actions'),
      fullGame: make(limits.fullGamePerUser, 'user-full'),
      room: make(limits.roomsPerUser, 'user-rooms'),
    };
    this.perAddress = make(limits.fullGamePerAddress, 'address-full');
  }

  /** Counts one event of class `kind` from `userId`; false past that class's per-user limit. */
  userEvent(kind: LimitClass, userId: number): Promise<boolean> {
    return consume(this.perUser[kind], String(userId));
  }

  /** Counts one join_game/tasks_reordered from `address`; false past the per-address limit. */
  addressFullGame(address: string): Promise<boolean> {
    return consume(this.perAddress, address);
  }
}

/** One point from `limiter` for `key`: true when granted, false when refused (or on an unexpected failure, true). */
async function consume(limiter: RateLimiterAbstract, key: string): Promise<boolean> {
  try {
    await limiter.consume(key, 1);
    return true;
  } catch (err) {
    if (err instanceof Error) {
      // A store failure without insurance: let the event through rather than refuse play.
      log.error({ err: err.message }, '[realtime] rate limiter failed');
      return true;
    }
    return false;
  }
}

/**
 * Sends `TOO_MANY` to the socket at most once a second (docs/server.md §8: the sender
 * gets one `action_error` a second); `state.lastAt` is kept on the socket by the caller.
 */
function tellTooMany(socket: IoSocket, state: { lastAt: number }, now = Date.now()): void {
  if (now - state.lastAt < 1000) return;
  state.lastAt = now;
  socket.emit('action_error', { message: TOO_MANY });
}

/**
 * What the limits keep of one socket, each part made on its first use (most sockets only watch:
 * their join makes the full-game window, nothing else): the per-socket window of each limit
 * class, when it was last told 'Too many requests', and its FloodBrake.
 */
interface SocketLimitState extends Partial<Record<LimitClass, SocketWindow>> {
  told?: { lastAt: number };
  brake?: FloodBrake;
}

/** Each socket's SocketLimitState (gone with the socket). */
const limitStates = new WeakMap<IoSocket, SocketLimitState>();

/** The socket's SocketLimitState, made empty on first use. */
function limitStateOf(socket: IoSocket): SocketLimitState {
  let state = limitStates.get(socket);
  if (!state) {
    state = {};
    limitStates.set(socket, state);
  }
  return state;
}

/** An event past a limit: dropped, counted by the socket's FloodBrake, and the sender told at most once a second. */
function refuse(socket: IoSocket): void {
  const state = limitStateOf(socket);
  state.brake ??= new FloodBrake(() => socket.conn.transport);
  state.brake.drop();
  tellTooMany(socket, (state.told ??= { lastAt: 0 }));
}

/** Stops the socket's FloodBrake, if it has one (a 'disconnect' listener shared by every socket: Socket.IO calls it with the socket as `this`). */
export function stopBrake(this: IoSocket): void {
  limitStates.get(this)?.brake?.stop();
}

/** True when both shared limits granted the event (both are counted either way). */
async function bothGranted(a: Promise<boolean>, b: Promise<boolean>): Promise<boolean> {
  const [first, second] = await Promise.all([a, b]);
  return first && second;
}

/**
 * A client event's listener behind the limits of its class `limit` (docs/server.md §8), one
 * function for every socket (Socket.IO calls it with the socket as `this`), checked before any
 * work is done:
 * - `action` and `room`: the class's per-socket window, then, for a signed-in user, the shared
 *   per-user limit (a socket without a user goes straight on: its handler refuses, or joins
 *   nothing, without the database);
 * - `fullGame`: the per-socket window, then the shared per-address limit and, for a signed-in
 *   user, the per-user one.
 * An event past a limit is dropped (nothing queued), counted by the socket's FloodBrake, and the
 * socket told 'Too many requests. Slow down.' at most once a second; otherwise `run` takes it.
 * The event is work in flight (`work`) while a shared limit answers (Redis), so a shutdown waits
 * for it too. A socket's limit state is made when it first sends an event.
 */
export function limitedListener(
  shared: SharedLimits,
  work: InFlight,
  limit: LimitClass,
  run: (socket: IoSocket, raw: unknown, ack?: unknown) => void,
): (this: IoSocket, raw: unknown, ack?: unknown) => void {
  /** Runs the event once the shared limit's `answer` lets it through, else refuses it. */
  const afterSharedLimit = (socket: IoSocket, answer: Promise<boolean>, raw: unknown, ack?: unknown) => {
    const done = work.begin();
    void answer.then((ok) => (ok ? run(socket, raw, ack) : refuse(socket))).finally(done);
  };
  const perSocket = perSocketLimit(shared.limits, limit);
  if (limit === 'fullGame') {
    return function (this: IoSocket, raw, ack) {
      const state = limitStateOf(this);
      if (!(state.fullGame ??= new SocketWindow(perSocket)).take()) return refuse(this);
      // Per address for everyone (spectators have no user), and per user for a signed-in one.
      const byAddress = shared.addressFullGame(this.data.address);
      const userId = this.data.userId;
      afterSharedLimit(this, userId === null ? byAddress : bothGranted(shared.userEvent('fullGame', userId), byAddress), raw, ack);
    };
  }
  return function (this: IoSocket, raw, ack) {
    const state = limitStateOf(this);
    if (!(state[limit] ??= new SocketWindow(perSocket)).take()) return refuse(this);
    const userId = this.data.userId;
    // Without a user the handler refuses (or, for a room, joins nothing) without the database.
    if (userId === null) return run(this, raw, ack);
    afterSharedLimit(this, shared.userEvent(limit, userId), raw, ack);
  };
}
