import { assign, setup } from 'xstate';
import {
  actionToStatus,
  GAME_STATUS_MESSAGES,
  isGameStatus,
  statusToChartState,
  type GameChartState,
  type GameStatus,
  type RequestableStatus,
} from '../contract/game/status';
import { missingPromise } from './shared';
import { errorText } from '../contract/errorText';

/** What the chart is started with: the game's id and its server status. */
export interface GameStatusInput {
  gameId: number;
  status: GameStatus;
}

export interface GameStatusContext {
  gameId: number;
  /** The server status the chart started from (read once, by `resolving`). */
  initialStatus: GameStatus;
  /** The control that is being carried out ('resume', 'pause' ...) and the status it asked for. */
  action: string | null;
  requested: RequestableStatus | null;
  /** The change running was asked from a game not yet started (Start Game), so its message says started. */
  starting: boolean;
}

export type GameStatusEvent =
  /** A status control was pressed: 'start' / 'resume' (→ in-progress), 'pause' (→ paused), or anything else. */
  | { type: 'status.request'; action: string }
  /** The Reset control was pressed (its confirmation dialog opens). */
  | { type: 'reset.request' }
  /** The server status became known from outside (a reload of the game, or the live socket). */
  | { type: 'game.statusChanged'; status: GameStatus };

/** Input of the `changeStatus` actor: the game, the status to set and the control's action name. */
export interface ChangeStatusInput {
  gameId: number;
  status: RequestableStatus;
  action: string;
}

/** Output of `changeStatus`: the status the server now holds. */
export interface ChangeStatusOutput {
  status: GameStatus;
}

/** A message the chart hands to the page's banner. */
export interface StatusNotice {
  tone: 'success' | 'error';
  text: string;
}

const requestedStatus = (action: string): RequestableStatus | null => {
  try {
    return actionToStatus(action);
  } catch {
    return null;
  }
};

const chartStateOf = (status: unknown): GameChartState | null => (isGameStatus(status) ? statusToChartState(status) : null);

const CHART_STATES: readonly GameChartState[] = ['pending', 'ready', 'inProgress', 'paused', 'finished'];

type StatusGuard = 'initialStatusIs' | 'changedStatusIs' | 'answeredStatusIs';

/** Guarded targets for "the server status is now X": one entry per chart state (guard `guard` with the state as params). */
function targetsFor<E extends object>(guard: StatusGuard, prefix: string, extra: E) {
  return CHART_STATES.map((state) => ({ guard: { type: guard, params: state }, target: `${prefix}${state}`, ...extra }));
}

/** The success message of a status change (docs/game-rules.md §6); a first start says started, not resumed. */
function successText(status: GameStatus, starting: boolean): string {
  if (status === 'paused') return GAME_STATUS_MESSAGES.paused;
  return starting ? GAME_STATUS_MESSAGES.started : GAME_STATUS_MESSAGES.resumed;
}

/**
 * Game status of one game as the managers' controls see it (docs/game-rules.md
 * §6; docs/server.md §5). States are the chart states of the server
 * statuses, mapped once by contract/game statusToChartState: pending (PENDING), ready (READY),
 * inProgress (in-progress), paused (paused), finished (finished / completed).
 * - pending, ready: `status.request` with 'start' or 'resume' (Start Game sends resume) calls the
 *   `changeStatus` actor with 'in-progress'; paused: 'resume' likewise; inProgress: 'pause' → 'paused'.
 *   After success the chart moves to the status the server answered and notifies
 *   'Game paused successfully. No turns can be processed.' or 'Game resumed. Turns can now be
 *   processed.' ('Game started. ...' when it came from pending or ready); a failure notifies the server's error and stays.
 * - `reset.request` (opens the reset confirmation, action `confirmReset`) in every status except
 *   finished; finished accepts no control at all (the button reads 'Game Finished').
 * - Any other action notifies 'Unknown game action: {action}'.
 * - `game.statusChanged` (a reload or the socket) moves the chart to that status from anywhere;
 *   while a change runs, the requested status arriving this way settles it like the call's answer
 *   (the server broadcasts before it answers).
 * Flags are derived with `can(...)` in gameStatus.selectors.ts. Tags: `busy` while a change is
 * under way, `running` for inProgress and paused.
 */
export const gameStatusMachine = setup({
  types: {
    context: {} as GameStatusContext,
    events: {} as GameStatusEvent,
    input: {} as GameStatusInput,
  },
  actors: {
    changeStatus: missingPromise<ChangeStatusOutput, ChangeStatusInput>('gameStatus', 'changeStatus'),
  },
  guards: {
    requests: ({ event }, status: RequestableStatus) => event.type === 'status.request' && requestedStatus(event.action) === status,
    isUnknownAction: ({ event }) => event.type === 'status.request' && requestedStatus(event.action) === null,
    /** The status the chart was started with maps to `state`. */
    initialStatusIs: ({ context }, state: GameChartState) => chartStateOf(context.initialStatus) === state,
    /** A `game.statusChanged` status maps to `state`. */
    changedStatusIs: ({ event }, state: GameChartState) => event.type === 'game.statusChanged' && chartStateOf(event.status) === state,
    /** While a change runs: the status that arrived from outside is the one requested, and maps to `state`. */
    changedToRequested: ({ context, event }, state: GameChartState) =>
      event.type === 'game.statusChanged' && chartStateOf(event.status) === state && chartStateOf(context.requested) === state,
    /** The status the server answered to `changeStatus` maps to `state`. */
    answeredStatusIs: ({ event }, state: GameChartState) =>
      chartStateOf((event as unknown as { output?: ChangeStatusOutput }).output?.status) === state,
  },
  actions: {
    assignRequest: assign((_, request: { action: string; starting: boolean }) => ({ action: request.action, requested: requestedStatus(request.action), starting: request.starting })),
    clearRequest: assign({ action: null, requested: null, starting: false }),
    /** Hands a message to the page's banner; provided from src/. */
    notify: (_, _notice: StatusNotice) => {},
    /** Opens the reset confirmation dialog; provided from src/. */
    confirmReset: () => {},
  },
}).createMachine({
  id: 'gameStatus',
  context: ({ input }) => ({ gameId: input.gameId, initialStatus: input.status, action: null, requested: null, starting: false }),
  initial: 'resolving',
  on: {
    'game.statusChanged': targetsFor('changedStatusIs', '.', { actions: 'clearRequest' as const }),
    'status.request': {
      guard: 'isUnknownAction',
      actions: { type: 'notify', params: ({ event }) => ({ tone: 'error' as const, text: GAME_STATUS_MESSAGES.unknownAction(event.action) }) },
    },
  },
  states: {
    /** Transient: goes to the state of the status the chart was started with. */
    resolving: {
      always: targetsFor('initialStatusIs', '', {}),
    },
    pending: activeStatus('in-progress', false, true),
    ready: activeStatus('in-progress', false, true),
    inProgress: activeStatus('paused', true),
    paused: activeStatus('in-progress', true),
    finished: {},
  },
});

/**
 * A status that takes requests (pending, ready, inProgress, paused): `idle` offers the one status
 * change allowed from it (`requestable`) and Reset; `changing` runs the call. `running` tags the
 * in-progress and paused states.
 */
function activeStatus(requestable: RequestableStatus, running = false, starting = false) {
  return {
    ...(running ? { tags: ['running'] } : {}),
    initial: 'idle' as const,
    states: {
      idle: {
        on: {
          'status.request': {
            guard: { type: 'requests' as const, params: requestable },
            target: 'changing' as const,
            actions: { type: 'assignRequest' as const, params: ({ event }: { event: { action: string } }) => ({ action: event.action, starting }) },
          },
          'reset.request': { actions: 'confirmReset' as const },
        },
      },
      changing: { tags: ['busy'], invoke: { id: 'changeStatus', src: 'changeStatus' as const, input: changeInput, onDone: doneTargets(), onError: failed() }, on: { 'game.statusChanged': settledFromOutside() } },
    },
  };
}

function changeInput({ context }: { context: GameStatusContext }): ChangeStatusInput {
  return { gameId: context.gameId, status: context.requested ?? 'in-progress', action: context.action ?? 'resume' };
}

/** onDone of `changeStatus`: notify the success message and move to the answered status. */
function doneTargets() {
  return targetsFor('answeredStatusIs', '#gameStatus.', {
    actions: [
      {
        type: 'notify' as const,
        params: ({ event, context }: { event: { output: ChangeStatusOutput }; context: GameStatusContext }) => ({
          tone: 'success' as const,
          text: successText(event.output.status, context.starting),
        }),
      },
      'clearRequest' as const,
    ],
  });
}

/**
 * `game.statusChanged` while a change runs: the server broadcasts the new status before it answers
 * the call, so the requested status arriving first settles the change (with its message); any other
 * status is handled by the chart root (the change is dropped).
 */
function settledFromOutside() {
  return (['inProgress', 'paused'] as const).map((state) => ({
    guard: { type: 'changedToRequested' as const, params: state },
    target: `#gameStatus.${state}`,
    actions: [
      {
        type: 'notify' as const,
        params: ({ event, context }: { event: GameStatusEvent; context: GameStatusContext }) => ({
          tone: 'success' as const,
          text: successText(event.type === 'game.statusChanged' ? event.status : 'in-progress', context.starting),
        }),
      },
      'clearRequest' as const,
    ],
  }));
}

/** onError of `changeStatus`: notify the error and go back to idle in the same status. */
function failed() {
  return {
    target: 'idle',
    actions: [
      {
        type: 'notify' as const,
        params: ({ event, context }: { event: { error: unknown }; context: GameStatusContext }) => ({
          tone: 'error' as const,
          text: errorText(event.error, `Failed to ${context.action ?? 'update'} game.`),
        }),
      },
      'clearRequest' as const,
    ],
  };
}
