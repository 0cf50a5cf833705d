import { assign, sendParent, sendTo, setup, type AnyEventObject } from 'xstate';
import type { GameUpdate, TeamAction } from '../contract/socket';
import type { LogEntry } from '../contract/gameApi';
import type { RequestRelief } from '../contract/game/relief';
import { missingCallback } from './shared';

/**
 * Facts the socket reports about its connection (docs/server.md §3; docs/client.md §12
 * socket settings): `willReconnect` is false when the socket will not retry by itself (the server
 * closed it, or it was closed on purpose); otherwise socket.io-client keeps retrying.
 */
type SocketFact =
  | { type: 'socket.connected' }
  | { type: 'socket.disconnected'; reason: string; willReconnect: boolean }
  | { type: 'socket.reconnecting'; attempt: number }
  | { type: 'socket.connectFailed'; message: string; willReconnect: boolean };

/**
 * Facts about the game the socket receives (docs/server.md §6), forwarded to the parent
 * chart that holds the game (gamePlay, eventGame): a full game or a progress update (a compact one
 * with its log entries as new_log_entries), a new log entry (the plain form), a team
 * change (name, colour or members), a refused roll or revert (`action_error` message).
 */
export type GameFact =
  | { type: 'game.stateReceived'; state: GameUpdate }
  | { type: 'game.logReceived'; entry: LogEntry }
  | { type: 'game.teamUpdated'; team: { id: number; name: string; color: string } }
  | { type: 'action.failed'; message: string };

/** Requests to the connection: a person's retry, the holder asking for the full state again, a roll, a revert or a relief request (docs/server.md §15). */
export type ConnectionRequest =
  | { type: 'connection.retry' }
  | { type: 'room.rejoin' }
  | { type: 'team.roll'; action: TeamAction }
  | { type: 'team.revert'; action: TeamAction }
  | { type: 'team.relief'; action: RequestRelief };

export type SocketConnectionEvent = SocketFact | GameFact | ConnectionRequest;

/**
 * Commands the chart gives the socket callback actor (src/realtime): join or leave the game's
 * room, send a roll, revert or relief request, open the socket again after it stopped retrying.
 */
export type SocketCommand =
  | { type: 'socket.join'; gameId: number }
  | { type: 'socket.leave'; gameId: number }
  | { type: 'socket.send'; event: 'roll_dice' | 'revert_roll'; action: TeamAction }
  | { type: 'socket.send'; event: 'request_relief'; action: RequestRelief }
  | { type: 'socket.open' };

export interface SocketConnectionContext {
  gameId: number;
  /** Reconnection attempt in progress (1, 2, ...), 0 when none. */
  attempt: number;
  /** Why the socket last dropped or failed, or null. */
  reason: string | null;
}

/** Refusal sent to the holder when a roll or revert is asked for while the socket is not connected. */
export const NOT_CONNECTED_MESSAGE = 'Not connected to the live game. Wait for the connection and try again.';

/**
 * The live socket of one game screen (docs/server.md §3; docs/client.md §12; docs/server.md
 * §6). States: connecting, connected, reconnecting (socket.io-client retries with a delay of
 * 1 s to 5 s, jitter 0.5, without limit) and disconnected (the socket stopped retrying: the server
 * closed it; `connection.retry` opens it again). On entering `connected` (first connect and every
 * reconnect) it joins the game's room with join_game, so the server answers with the full state
 * and nothing missed offline stays missing; `room.rejoin` (a version gap seen by the holder) joins
 * again. Game facts from the socket are forwarded to the parent. Rolls, reverts and relief requests (request_relief) are sent only
 * while connected; otherwise the parent gets `action.failed` with NOT_CONNECTED_MESSAGE.
 * The socket itself is the invoked callback actor `socket` (src/realtime), given with `provide`.
 */
export const socketConnectionMachine = setup({
  types: {
    context: {} as SocketConnectionContext,
    events: {} as SocketConnectionEvent,
    input: {} as { gameId: number },
  },
  actors: {
    socket: missingCallback<SocketCommand, { gameId: number }>('socketConnection', 'socket'),
  },
  guards: {
    willReconnect: (_, willReconnect: boolean) => willReconnect,
  },
  actions: {
    joinGame: sendTo('socket', ({ context }): SocketCommand => ({ type: 'socket.join', gameId: context.gameId })),
    openSocket: sendTo('socket', (): SocketCommand => ({ type: 'socket.open' })),
    sendRoll: sendTo('socket', (_, action: TeamAction): SocketCommand => ({ type: 'socket.send', event: 'roll_dice', action })),
    sendRevert: sendTo('socket', (_, action: TeamAction): SocketCommand => ({ type: 'socket.send', event: 'revert_roll', action })),
    sendRelief: sendTo('socket', (_, action: RequestRelief): SocketCommand => ({ type: 'socket.send', event: 'request_relief', action })),
    forwardToParent: sendParent((_, fact: GameFact) => fact as AnyEventObject),
    refuseNotConnected: sendParent({ type: 'action.failed', message: NOT_CONNECTED_MESSAGE }),
    assignAttempt: assign((_, attempt: number) => ({ attempt })),
    assignReason: assign((_, reason: string) => ({ reason })),
    clearAttempt: assign({ attempt: 0, reason: null }),
  },
}).createMachine({
  id: 'socketConnection',
  context: ({ input }) => ({ gameId: input.gameId, attempt: 0, reason: null }),
  invoke: { id: 'socket', src: 'socket', input: ({ context }) => ({ gameId: context.gameId }) },
  initial: 'connecting',
  on: {
    'game.stateReceived': { actions: { type: 'forwardToParent', params: ({ event }) => event } },
    'game.logReceived': { actions: { type: 'forwardToParent', params: ({ event }) => event } },
    'game.teamUpdated': { actions: { type: 'forwardToParent', params: ({ event }) => event } },
    'action.failed': { actions: { type: 'forwardToParent', params: ({ event }) => event } },
    'team.roll': { actions: 'refuseNotConnected' },
    'team.revert': { actions: 'refuseNotConnected' },
    'team.relief': { actions: 'refuseNotConnected' },
    'socket.connected': { target: '.connected' },
    'socket.reconnecting': { target: '.reconnecting', actions: { type: 'assignAttempt', params: ({ event }) => event.attempt } },
  },
  states: {
    connecting: {
      on: {
        'socket.connectFailed': [
          { guard: { type: 'willReconnect', params: ({ event }) => event.willReconnect }, target: 'reconnecting', actions: { type: 'assignReason', params: ({ event }) => event.message } },
          { target: 'disconnected', actions: { type: 'assignReason', params: ({ event }) => event.message } },
        ],
        'socket.disconnected': [
          { guard: { type: 'willReconnect', params: ({ event }) => event.willReconnect }, target: 'reconnecting', actions: { type: 'assignReason', params: ({ event }) => event.reason } },
          { target: 'disconnected', actions: { type: 'assignReason', params: ({ event }) => event.reason } },
        ],
      },
    },
    connected: {
      entry: ['clearAttempt', 'joinGame'],
      on: {
        'socket.disconnected': [
          { guard: { type: 'willReconnect', params: ({ event }) => event.willReconnect }, target: 'reconnecting', actions: { type: 'assignReason', params: ({ event }) => event.reason } },
          { target: 'disconnected', actions: { type: 'assignReason', params: ({ event }) => event.reason } },
        ],
        'room.rejoin': { actions: 'joinGame' },
        'team.roll': { actions: { type: 'sendRoll', params: ({ event }) => event.action } },
        'team.revert': { actions: { type: 'sendRevert', params: ({ event }) => event.action } },
        'team.relief': { actions: { type: 'sendRelief', params: ({ event }) => event.action } },
      },
    },
    reconnecting: {
      on: {
        'socket.connectFailed': [
          { guard: { type: 'willReconnect', params: ({ event }) => event.willReconnect }, actions: { type: 'assignReason', params: ({ event }) => event.message } },
          { target: 'disconnected', actions: { type: 'assignReason', params: ({ event }) => event.message } },
        ],
        'socket.disconnected': [
          { guard: { type: 'willReconnect', params: ({ event }) => event.willReconnect }, actions: { type: 'assignReason', params: ({ event }) => event.reason } },
          { target: 'disconnected', actions: { type: 'assignReason', params: ({ event }) => event.reason } },
        ],
      },
    },
    disconnected: {
      on: {
        'connection.retry': { target: 'connecting', actions: ['clearAttempt', 'openSocket'] },
      },
    },
  },
});
