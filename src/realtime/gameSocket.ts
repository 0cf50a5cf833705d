import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';
import * as v from 'valibot';
import { fromCallback } from 'xstate';
import {
  ActionErrorSchema, GameStateUpdateSchema, NewLogEntrySchema, ServerRestartingSchema, TasksReorderedOutSchema, TeamUpdateSchema,
  type ClientToServerEvents, type ServerToClientEvents,
} from '../../contract/socket';
import type { LiveGameEvent, SocketCommand } from '../../machines/liveGame.machine';
import { whenIdle } from '../base/idle';
import { createSocketHub, type GameSocketLike } from './socketLease';

export type { GameSocketLike };

/** The typed Socket.IO client of the live game (contract/socket.ts event maps). */
export type GameSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Client settings of docs/server.md §3; docs/client.md §12: polling first, then the upgrade to websocket;
 * a connection timeout of 20 s; reconnection delays from 1 s up to 5 s with 0.5 jitter; unlimited
 * attempts. Cookies go with the polling requests (same origin), so the server knows members.
 */
export const SOCKET_OPTIONS = {
  path: '/socket.io',
  transports: ['polling', 'websocket'],
  upgrade: true,
  timeout: 20_000,
  reconnection: true,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  reconnectionAttempts: Infinity,
  withCredentials: true,
} satisfies Partial<ManagerOptions & SocketOptions>;

/**
 * The tab's one Socket.IO client for this site's /socket.io with SOCKET_OPTIONS (no forceNew: one
 * manager, one connection for every screen). socket.io-client is loaded with `import()` the first
 * time a lease connects, so the entry never carries it.
 */
const tabSocket = createSocketHub(async () => {
  const { io } = await import('socket.io-client');
  return io({ ...SOCKET_OPTIONS, autoConnect: false });
});

/**
 * A lease on the tab's one socket (createSocketHub in ./socketLease.ts), not connected yet: the actor
 * that uses it connects it with `connectWhenIdle` once its listeners are on. Its `disconnect()`
 * releases the lease (its listeners off, its rooms left where it held them last), not the socket.
 */
export function openGameSocket(): GameSocketLike {
  return tabSocket.lease();
}

/**
 * Connects a socket that is not connecting yet (`active` false: openGameSocket's) when the page is
 * idle (whenIdle, at most 1 s later). On the first load a game page draws the game from its
 * REST answer first, and the socket's handshake requests and answers come after that drawing
 * instead of between its slices; the join_game answer brings the full game, so nothing is missed.
 * A socket already connecting is left alone. Returns the cancel, for an actor stopped before that.
 */
export function connectWhenIdle(socket: Pick<GameSocketLike, 'active' | 'connect'>): () => void {
  return socket.active ? () => {} : whenIdle(() => socket.connect());
}

/**
 * Keeps `socket` coming back across a server restart (docs/server.md §14): once the server has
 * said `server_restarting`, the disconnect that follows is reported with `willReconnect` true and,
 * should the server have ended the socket itself ('io server disconnect', after which
 * socket.io-client does not retry on its own), the socket is opened again. A closed transport
 * already reconnects by itself. `report` gets every disconnect with whether the socket comes back.
 * Returns the detach.
 */
export function reconnectAcrossRestarts(socket: GameSocketLike, report: (reason: string, willReconnect: boolean) => void): () => void {
  let restarting = false;
  const onRestarting = (payload: unknown) => {
    if (v.safeParse(ServerRestartingSchema, payload).success) restarting = true;
  };
  const onConnect = () => {
    restarting = false;
  };
  const onDisconnect = (reason: string) => {
    const reopen = restarting && !socket.active;
    restarting = false;
    report(reason, socket.active || reopen);
    if (reopen) socket.connect();
  };
  socket.on('server_restarting', onRestarting);
  socket.on('connect', onConnect);
  socket.on('disconnect', onDisconnect);
  return () => {
    socket.off('server_restarting', onRestarting);
    socket.off('connect', onConnect);
    socket.off('disconnect', onDisconnect);
  };
}

/**
 * The skeleton every room feed shares (the review and draft feeds; docs/server.md §9, §16): opens
 * a socket with `open`, calls `onConnect` with the socket on every connect (and at once when already connected: a
 * feed joins its rooms there, so a reconnect joins them again), attaches `listeners`, keeps the
 * socket coming back across a server restart (reconnectAcrossRestarts) and connects it when the
 * page is idle (connectWhenIdle). Returns the socket and the stop, which runs `beforeClose` (while
 * still attached: a leave goes out there), takes every listener off and releases the socket.
 */
export function openFeed(
  open: () => GameSocketLike,
  onConnect: (socket: GameSocketLike) => void,
  listeners: readonly (readonly [event: string, listener: (payload: unknown) => void])[],
): { socket: GameSocketLike; stop: (beforeClose?: () => void) => void } {
  const socket = open();
  const connected = () => onConnect(socket);
  socket.on('connect', connected);
  for (const [event, listener] of listeners) socket.on(event, listener);
  const detachRestarts = reconnectAcrossRestarts(socket, () => {});
  if (socket.connected) connected();
  const cancelConnect = connectWhenIdle(socket);
  return {
    socket,
    stop: (beforeClose) => {
      cancelConnect();
      detachRestarts();
      beforeClose?.();
      socket.off('connect', connected);
      for (const [event, listener] of listeners) socket.off(event, listener);
      socket.disconnect();
    },
  };
}

/** Parses a payload with a contract schema; a malformed one is dropped with a console warning. */
function parse<S extends v.GenericSchema>(schema: S, payload: unknown, event: string): v.InferOutput<S> | null {
  const result = v.safeParse(schema, payload);
  if (result.success) return result.output;
  console.warn(`[socket] ignored a malformed ${event} payload`, v.flatten(result.issues));
  return null;
}

/**
 * The `socket` actor of the liveGame chart (docs/architecture.md: effects are actors given from
 * src/): opens a socket with `open` (default openGameSocket; one not connecting yet connects when the
 * page is idle: connectWhenIdle), reports connection facts
 * (socket.connected / socket.disconnected / socket.reconnecting / socket.connectFailed) and game
 * facts parsed with the contract schemas (game_state_update, a compact one with its log entries, and
 * tasks_reordered → game_state_update,
 * new_log_entry → game.logReceived, team_update → game.teamUpdated, action_error → action.failed),
 * and carries out the chart's commands (join_game, leave_game, roll_dice, revert_roll, reopen).
 * A server restart (`server_restarting`, then the drop) shows as reconnecting and the socket comes
 * back by itself (reconnectAcrossRestarts), joining the game again on connect.
 * Stopping the actor leaves the room and releases the socket (with openGameSocket, a lease: the tab's
 * socket stays for the other screens and the room is left only by its last holder).
 */
export function gameSocketActor(open: () => GameSocketLike = openGameSocket) {
  return fromCallback<SocketCommand, { gameId: number }>(({ sendBack, receive, input }) => {
    const socket = open();
    const send = (event: LiveGameEvent) => sendBack(event);
    let joined = false;

    const onConnect = () => send({ type: 'socket.connected' });
    const onConnectError = (err: { message?: string } | undefined) =>
      send({ type: 'socket.connectFailed', message: err?.message ?? 'connect_error', willReconnect: socket.active });
    const onReconnectAttempt = (attempt: number) => send({ type: 'socket.reconnecting', attempt });
    // A compact update (docs/server.md §6) carries its change's log entries as `new_log_entries`:
    // they stay with the update, so the holder merges them when it applies that version (in
    // version order, contract applyInOrder). An update without them (an older process during a
    // rolling restart) is followed by `new_log_entry` messages.
    const onState = (payload: unknown) => {
      const parsed = parse(GameStateUpdateSchema, payload, 'game_state_update');
      if (parsed) send({ type: 'game_state_update', game_state: parsed.game_state });
    };
    const onTasksReordered = (payload: unknown) => {
      const parsed = parse(TasksReorderedOutSchema, payload, 'tasks_reordered');
      if (parsed) send({ type: 'game_state_update', game_state: parsed.game_state });
    };
    const onLog = (payload: unknown) => {
      const parsed = parse(NewLogEntrySchema, payload, 'new_log_entry');
      if (parsed) send({ type: 'game.logReceived', entry: parsed.log_entry });
    };
    const onTeamUpdate = (payload: unknown) => {
      const parsed = parse(TeamUpdateSchema, payload, 'team_update');
      if (parsed) {
        const { id, name, color } = parsed.updated_team_data;
        send({ type: 'game.teamUpdated', team: { id, name, color } });
      }
    };
    const onActionError = (payload: unknown) => {
      const parsed = parse(ActionErrorSchema, payload, 'action_error');
      if (parsed) send({ type: 'action.failed', message: parsed.message });
    };

    // Every listener, written once for attaching and detaching.
    const listeners = [
      ['connect', onConnect],
      ['connect_error', onConnectError],
      ['game_state_update', onState],
      ['tasks_reordered', onTasksReordered],
      ['new_log_entry', onLog],
      ['team_update', onTeamUpdate],
      ['action_error', onActionError],
    ] as const;
    for (const [event, listener] of listeners) socket.on(event, listener);
    const detachRestarts = reconnectAcrossRestarts(socket, (reason, willReconnect) => send({ type: 'socket.disconnected', reason, willReconnect }));
    socket.io.on('reconnect_attempt', onReconnectAttempt);
    // A socket that connected before the listeners were attached still reports it.
    if (socket.connected) onConnect();
    const cancelConnect = connectWhenIdle(socket);

    receive((command) => {
      switch (command.type) {
        case 'socket.join':
          joined = true;
          socket.emit('join_game', { game_id: command.gameId, compact: true });
          break;
        case 'socket.leave':
          joined = false;
          socket.emit('leave_game', { game_id: command.gameId });
          break;
        // A Leader's intent goes out under the command's own name (docs/architecture.md "A roll's chain of names").
        case 'roll_dice':
        case 'revert_roll':
        case 'request_relief':
          socket.emit(command.type, command.action);
          break;
        case 'socket.open':
          socket.connect();
          break;
      }
    });

    return () => {
      cancelConnect();
      if (joined && socket.connected) socket.emit('leave_game', { game_id: input.gameId });
      for (const [event, listener] of listeners) socket.off(event, listener);
      detachRestarts();
      socket.io.off('reconnect_attempt', onReconnectAttempt);
      socket.disconnect();
    };
  });
}
