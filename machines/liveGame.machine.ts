import { assign, enqueueActions, sendParent, sendTo, setup, type AnyEventObject } from 'xstate';
import type { LogEntry } from '../contract/gameApi';
import { applyInOrder, isFullGame, ORDER_WAIT_MS, type GameProgress, type GameUpdate, type HeldGame, type OrderedStep, type TeamAction } from '../contract/socket';
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
 * Facts about the game the socket receives (docs/server.md §6): a full game or a progress update
 * (`game_state_update`, named and shaped as on the wire; a compact one carries its log entries as
 * new_log_entries), a new log entry (the plain form), a team change (name, colour or members), a
 * refused roll, revert or relief request (`action_error` message).
 */
export type GameFact =
  | { type: 'game_state_update'; game_state: GameUpdate }
  | { type: 'game.logReceived'; entry: LogEntry }
  | { type: 'game.teamUpdated'; team: { id: number; name: string; color: string } }
  | { type: 'action.failed'; message: string };

/**
 * What the chart tells the chart that holds the game (gamePlay, eventGame): the updates let
 * through in version order (contract applyInOrder) as `game.ordered` — each step with the game it
 * made, `game` the newest, `late` the log entries of updates older than the game held — and the
 * other game facts as they came.
 */
export type LiveGameReport =
  | { type: 'game.ordered'; game: HeldGame; steps: OrderedStep<HeldGame>[]; late: LogEntry[] }
  | Exclude<GameFact, { type: 'game_state_update' }>;

/**
 * Requests to the chart: a person's retry, the holder's game after a load of its own (`game.held`,
 * the base the next updates are ordered on), the holder asking for the full state again
 * (`room.rejoin`), and the three intents of a team's Leader, named as in docs/architecture.md
 * "A roll's chain of names": `game.roll`, `game.revert`, `game.relief`.
 */
export type LiveGameRequest =
  | { type: 'connection.retry' }
  | { type: 'game.held'; game: HeldGame }
  | { type: 'room.rejoin' }
  | { type: 'game.roll'; action: TeamAction }
  | { type: 'game.revert'; action: TeamAction }
  | { type: 'game.relief'; action: RequestRelief };

export type LiveGameEvent =
  | SocketFact
  | GameFact
  | LiveGameRequest
  /** Raised ORDER_WAIT_MS after a version gap opened: when it is still open, the full state is asked for. */
  | { type: 'order.waited' };

/**
 * Commands the chart gives the socket callback actor (src/realtime): join or leave the game's
 * room, emit a Leader's intent as the socket event of the same name (roll_dice, revert_roll,
 * request_relief: docs/server.md §15), open the socket again after it stopped retrying.
 */
export type SocketCommand =
  | { type: 'socket.join'; gameId: number }
  | { type: 'socket.leave'; gameId: number }
  | { type: 'roll_dice' | 'revert_roll'; action: TeamAction }
  | { type: 'request_relief'; action: RequestRelief }
  | { type: 'socket.open' };

export interface LiveGameInput {
  gameId: number;
  /** The game the holder already has (loaded over HTTP), or none yet. */
  game?: HeldGame | null;
}

export interface LiveGameContext {
  gameId: number;
  /** Reconnection attempt in progress (1, 2, ...), 0 when none. */
  attempt: number;
  /** Why the socket last dropped or failed, or null. */
  reason: string | null;
  /** The newest game in version order (the base of the next update), or null before the first. */
  game: HeldGame | null;
  /** Progress updates past a missing version, waiting for it (contract applyInOrder), lowest first. */
  pending: GameProgress[];
}

/** Refusal sent to the holder when a roll or revert is asked for while the socket is not connected. */
export const NOT_CONNECTED_MESSAGE = 'Not connected to the live game. Wait for the connection and try again.';

/** The id of the delayed `order.waited` (cancelled when the gap closes first). */
const ORDER_TIMER = 'orderWait';

/**
 * The live connection of one game screen (docs/server.md §3, §6; docs/client.md §12): the socket's
 * state, the room, the order of updates, and the Leader's intents going out.
 * - States: connecting, connected, reconnecting (socket.io-client retries with a delay of 1 s to
 *   5 s, jitter 0.5, without limit) and disconnected (the socket stopped retrying: the server
 *   closed it; `connection.retry` opens it again). On entering `connected` (first connect and every
 *   reconnect) it joins the game's room with join_game, so the server answers with the full state
 *   and nothing missed offline stays missing; `room.rejoin` joins again.
 * - Order (docs/server.md §6 "Order"): every `game_state_update` of this game goes through contract
 *   applyInOrder once, onto the newest game held (`game.held` from the holder after its own load,
 *   or the updates before). One past a missing version waits in `pending`; when the gap is still
 *   open ORDER_WAIT_MS later (`order.waited`), or too many wait, the room is joined again for the
 *   full state. What got through goes to the holder as `game.ordered`; a progress update before
 *   any game is held is dropped (the join answer brings the whole game).
 * - `game.roll`, `game.revert` and `game.relief` go out while connected as the socket events
 *   roll_dice, revert_roll and request_relief (actions of the same names); otherwise the holder
 *   gets `action.failed` with NOT_CONNECTED_MESSAGE. The other game facts go to the holder as they came.
 * The socket itself is the invoked callback actor `socket` (src/realtime), given with `provide`.
 */
export const liveGameMachine = setup({
  types: {
    context: {} as LiveGameContext,
    events: {} as LiveGameEvent,
    input: {} as LiveGameInput,
  },
  actors: {
    socket: missingCallback<SocketCommand, { gameId: number }>('liveGame', 'socket'),
  },
  delays: {
    /** How long a version gap may stay open before the full state is asked for (contract ORDER_WAIT_MS). */
    orderWait: ORDER_WAIT_MS,
  },
  guards: {
    willReconnect: (_, willReconnect: boolean) => willReconnect,
    hasPending: ({ context }) => context.pending.length > 0,
  },
  actions: {
    joinGame: sendTo('socket', ({ context }): SocketCommand => ({ type: 'socket.join', gameId: context.gameId })),
    openSocket: sendTo('socket', (): SocketCommand => ({ type: 'socket.open' })),
    roll_dice: sendTo('socket', (_, action: TeamAction): SocketCommand => ({ type: 'roll_dice', action })),
    revert_roll: sendTo('socket', (_, action: TeamAction): SocketCommand => ({ type: 'revert_roll', action })),
    request_relief: sendTo('socket', (_, action: RequestRelief): SocketCommand => ({ type: 'request_relief', action })),
    forwardToParent: sendParent((_, fact: LiveGameReport) => fact as AnyEventObject),
    refuseNotConnected: sendParent({ type: 'action.failed', message: NOT_CONNECTED_MESSAGE } satisfies LiveGameReport),
    assignAttempt: assign((_, attempt: number) => ({ attempt })),
    assignReason: assign((_, reason: string) => ({ reason })),
    clearAttempt: assign({ attempt: 0, reason: null }),
    assignHeld: assign((_, game: HeldGame) => ({ game })),
    /**
     * A game_state_update in version order (contract applyInOrder): what got through goes to the
     * holder as `game.ordered`. A gap that opens starts the ORDER_WAIT_MS wait, one that closes
     * cancels it; too many waiting updates ask for the full state at once.
     */
    orderUpdate: enqueueActions(({ context, enqueue }, update: GameUpdate) => {
      if (update.id !== context.gameId || (!context.game && !isFullGame(update))) return;
      const result = applyInOrder(context.game, context.pending, update);
      if (context.pending.length > 0 && result.pending.length === 0) enqueue.cancel(ORDER_TIMER);
      if (context.pending.length === 0 && result.pending.length > 0) enqueue.raise({ type: 'order.waited' }, { id: ORDER_TIMER, delay: 'orderWait' });
      if (result.resync) enqueue.raise({ type: 'room.rejoin' });
      enqueue.assign({ game: result.game, pending: result.pending });
      if (result.game && (result.steps.length > 0 || result.late.length > 0)) {
        // Through the named action (not sendParent here), so a run without a holder can give it a stand-in.
        const report: LiveGameReport = { type: 'game.ordered', game: result.game, steps: result.steps, late: result.late };
        enqueue({ type: 'forwardToParent', params: report } as never);
      }
    }),
    /** The gap stayed open ORDER_WAIT_MS: the full state is asked for, and asked again should it stay open as long again. */
    askAfterGap: enqueueActions(({ enqueue }) => {
      enqueue.raise({ type: 'room.rejoin' });
      enqueue.raise({ type: 'order.waited' }, { id: ORDER_TIMER, delay: 'orderWait' });
    }),
  },
}).createMachine({
  id: 'liveGame',
  context: ({ input }) => ({ gameId: input.gameId, attempt: 0, reason: null, game: input.game ?? null, pending: [] }),
  invoke: { id: 'socket', src: 'socket', input: ({ context }) => ({ gameId: context.gameId }) },
  initial: 'connecting',
  on: {
    game_state_update: { actions: { type: 'orderUpdate', params: ({ event }) => event.game_state } },
    'game.held': { actions: { type: 'assignHeld', params: ({ event }) => event.game } },
    'order.waited': { guard: 'hasPending', actions: 'askAfterGap' },
    'game.logReceived': { actions: { type: 'forwardToParent', params: ({ event }) => event } },
    'game.teamUpdated': { actions: { type: 'forwardToParent', params: ({ event }) => event } },
    'action.failed': { actions: { type: 'forwardToParent', params: ({ event }) => event } },
    'game.roll': { actions: 'refuseNotConnected' },
    'game.revert': { actions: 'refuseNotConnected' },
    'game.relief': { actions: 'refuseNotConnected' },
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
        'game.roll': { actions: { type: 'roll_dice', params: ({ event }) => event.action } },
        'game.revert': { actions: { type: 'revert_roll', params: ({ event }) => event.action } },
        'game.relief': { actions: { type: 'request_relief', params: ({ event }) => event.action } },
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
