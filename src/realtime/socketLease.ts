/**
 * What the socket callback actor uses of a socket: the real GameSocket has all of it; tests give
 * a fake with the same surface (tests/support/fakeSocket.ts).
 */
export interface GameSocketLike {
  readonly active: boolean;
  readonly connected: boolean;
  on(event: string, listener: (...args: any[]) => void): unknown;
  off(event?: string, listener?: (...args: any[]) => void): unknown;
  /** `ack`, when given, is the Socket.IO acknowledgement: called with the server's answer. */
  emit(event: string, payload: unknown, ack?: (answer: unknown) => void): unknown;
  connect(): unknown;
  disconnect(): unknown;
  io: {
    on(event: string, listener: (...args: any[]) => void): unknown;
    off(event?: string, listener?: (...args: any[]) => void): unknown;
  };
}

type Listener = (...args: any[]) => void;

/**
 * The client events that join or leave a room, with the payload field naming the room: a room is
 * `kind:id` (game:7, draft:3, reviews:2). There is no leave_reviews on the wire (docs/server.md §9):
 * a managers room is left when the socket closes.
 */
const ROOM_EVENTS: Readonly<Record<string, { kind: string; field: string; join: boolean }>> = {
  join_game: { kind: 'game', field: 'game_id', join: true },
  leave_game: { kind: 'game', field: 'game_id', join: false },
  join_draft: { kind: 'draft', field: 'event_id', join: true },
  leave_draft: { kind: 'draft', field: 'event_id', join: false },
  join_reviews: { kind: 'reviews', field: 'clan_id', join: true },
};

/** How long the tab's socket stays open with no lease (ms): a screen change reuses it instead of a new handshake. */
const IDLE_CLOSE_MS = 10_000;

/** The tab's one socket and the leases on it: what createSocketHub returns. */
export interface SocketHub {
  /** A new lease: a GameSocketLike whose `disconnect()` releases it (the shared socket stays). */
  lease(): GameSocketLike;
}

/**
 * The tab's one Socket.IO connection, shared by every screen through leases (docs/architecture.md §3,
 * app-lifetime actors; docs/server.md §3). `load` makes the real socket, not connected yet; it is
 * called once, the first time a lease connects (so socket.io-client loads with the first live screen,
 * not with the entry). Each lease:
 * - keeps its own listeners (on/off, and io.on/io.off for the manager's events), attached to the real
 *   socket once it exists and all removed when the lease is released;
 * - counts its own rooms: every join_game/join_draft/join_reviews goes out (the server answers a
 *   join with the whole state, which the joining screen needs), but leave_game/leave_draft goes out
 *   only when the last lease holding that room leaves it or is released, and only while connected
 *   (a dropped connection has left every room already);
 * - is `connected`/`active` as the real socket is (`active` also while socket.io-client is loading).
 * Rooms are joined again after a reconnect by each lease's holder on `connect`, as every feed does
 * (liveGame on entering `connected`, the review and draft feeds on connect). A load that fails is
 * reported to the leases' `connect_error` listeners, with `active` false, so a retry loads again.
 * With no lease left for `closeAfterMs` (default 10 s), the socket is disconnected; the next lease that
 * connects opens the same socket again.
 */
export function createSocketHub(load: () => Promise<GameSocketLike>, closeAfterMs = IDLE_CLOSE_MS): SocketHub {
  let socket: GameSocketLike | null = null;
  let loading = false;
  let closeTimer: ReturnType<typeof setTimeout> | null = null;
  /** Emits made before the socket existed, sent once it does (socket.io-client buffers the same way). */
  const queued: { event: string; payload: unknown; ack?: (answer: unknown) => void }[] = [];
  /** How many leases hold each room. */
  const rooms = new Map<string, number>();
  const leases = new Set<Lease>();

  const send = (event: string, payload: unknown, ack?: (answer: unknown) => void) => {
    // An ack only when given: socket.io-client would send a trailing undefined as an argument.
    if (!socket) queued.push({ event, payload, ack });
    else if (ack) socket.emit(event, payload, ack);
    else socket.emit(event, payload);
  };

  const connect = () => {
    if (socket) {
      if (!socket.active) socket.connect();
      return;
    }
    if (loading) return;
    loading = true;
    load().then(
      (made) => {
        loading = false;
        socket = made;
        for (const lease of leases) lease.attach(made);
        for (const { event, payload, ack } of queued.splice(0)) send(event, payload, ack);
        if (leases.size > 0 && !made.active) made.connect();
      },
      (err: unknown) => {
        loading = false;
        const message = err instanceof Error ? err.message : 'could not load the socket client';
        for (const lease of [...leases]) lease.dispatch('connect_error', { message });
      },
    );
  };

  const released = (lease: Lease) => {
    leases.delete(lease);
    if (leases.size > 0 || !socket) return;
    closeTimer = setTimeout(() => {
      closeTimer = null;
      if (leases.size === 0) socket?.disconnect();
    }, closeAfterMs);
  };

  class Lease implements GameSocketLike {
    private listeners: { onManager: boolean; event: string; listener: Listener }[] = [];
    private held = new Set<string>();
    private done = false;

    get active() {
      return socket ? socket.active : loading;
    }
    get connected() {
      return socket?.connected ?? false;
    }

    readonly io = {
      on: (event: string, listener: Listener) => this.add(true, event, listener),
      off: (event?: string, listener?: Listener) => this.remove(true, event, listener),
    };

    on(event: string, listener: Listener) {
      return this.add(false, event, listener);
    }
    off(event?: string, listener?: Listener) {
      return this.remove(false, event, listener);
    }

    emit(event: string, payload: unknown, ack?: (answer: unknown) => void) {
      if (this.done) return this;
      const room = ROOM_EVENTS[event];
      const id = room && payload && typeof payload === 'object' ? (payload as Record<string, unknown>)[room.field] : undefined;
      if (!room || id === undefined) {
        send(event, payload, ack);
      } else if (room.join) {
        const key = `${room.kind}:${String(id)}`;
        if (!this.held.has(key)) {
          this.held.add(key);
          rooms.set(key, (rooms.get(key) ?? 0) + 1);
        }
        send(event, payload, ack);
      } else {
        const key = `${room.kind}:${String(id)}`;
        if (this.held.delete(key) && this.drop(key)) send(event, payload, ack);
      }
      return this;
    }

    connect() {
      if (!this.done) connect();
      return this;
    }

    /** Releases the lease: its listeners come off and its rooms are left where it was the last holder. */
    disconnect() {
      if (this.done) return this;
      this.done = true;
      for (const key of this.held) {
        const [kind, id] = key.split(':');
        const leave = kind === 'game' ? 'leave_game' : kind === 'draft' ? 'leave_draft' : null;
        const field = kind === 'game' ? 'game_id' : 'event_id';
        if (this.drop(key) && leave) send(leave, { [field]: Number(id) });
      }
      this.held.clear();
      this.remove(false);
      this.remove(true);
      released(this);
      return this;
    }

    /** One holder less for `key`; true when it was the last and the connection is up (the leave goes out). */
    private drop(key: string): boolean {
      const left = (rooms.get(key) ?? 1) - 1;
      if (left > 0) {
        rooms.set(key, left);
        return false;
      }
      rooms.delete(key);
      return socket?.connected ?? false;
    }

    attach(made: GameSocketLike) {
      for (const { onManager, event, listener } of this.listeners) (onManager ? made.io : made).on(event, listener);
    }

    /** Calls this lease's own listeners of `event` (a failed load has no socket to emit it). */
    dispatch(event: string, ...args: unknown[]) {
      for (const l of this.listeners.filter((l) => !l.onManager && l.event === event)) l.listener(...args);
    }

    private add(onManager: boolean, event: string, listener: Listener) {
      if (this.done) return this;
      this.listeners.push({ onManager, event, listener });
      if (socket) (onManager ? socket.io : socket).on(event, listener);
      return this;
    }

    private remove(onManager: boolean, event?: string, listener?: Listener) {
      const gone = this.listeners.filter((l) => l.onManager === onManager && (event === undefined || l.event === event) && (listener === undefined || l.listener === listener));
      this.listeners = this.listeners.filter((l) => !gone.includes(l));
      if (socket) for (const l of gone) (onManager ? socket.io : socket).off(l.event, l.listener);
      return this;
    }
  }

  return {
    lease() {
      if (closeTimer) clearTimeout(closeTimer);
      closeTimer = null;
      const lease = new Lease();
      leases.add(lease);
      return lease;
    },
  };
}
