import { assign, setup } from 'xstate';
import type { AvailableTask, BoardSquare, SquaresAnswer } from '../contract/gameApi';
import { GAME_TASKS_TEXTS, isFixedSquare, swapRefusal, swapSquareTasks } from '../contract/game/taskSquares';
import { missingPromise } from './shared';
import { errorText } from '../contract/errorText';
import { loadStep } from './listLoader';
import { modalCallStep } from './confirmAction.machine';

export interface GameTasksInput {
  gameId: number | null;
}

export interface GameTasksContext {
  gameId: number | null;
  squares: BoardSquare[];
  /** What the last load's failure said (the screen shows it as GAME_TASKS_TEXTS.loadError), or null. */
  error: string | null;
  /** The square of the swap-task modal. */
  assignSquareId: number | null;
  options: AvailableTask[];
  selectedTaskId: number | null;
  assignError: string | null;
}

export type GameTasksEvent =
  | { type: 'squares.reload' }
  /** A square was dropped on another (drag and drop, mouse, touch or keyboard). */
  | { type: 'swap.request'; activeId: number; overId: number }
  /** The edit icon of a square. */
  | { type: 'assign.open'; squareId: number }
  | { type: 'assign.select'; taskId: number | null }
  | { type: 'assign.submit' }
  | { type: 'assign.cancel' };

/** A message for the page's banner. */
export interface TasksNotice {
  tone: 'success' | 'error';
  text: string;
}

/** A failure's own text, or this when it carries none. */
const REQUEST_FAILED = 'Request failed.';
const detail = (error: unknown) => errorText(error, REQUEST_FAILED);
const squareById = (context: GameTasksContext, id: number | null) => context.squares.find((s) => s.id === id);

/** The list-loader load step over the game's squares (a finished game's go to `readOnly`). */
const squaresLoad = loadStep<SquaresAnswer, GameTasksContext, 'loadSquares', { gameId: number }>({
  id: 'gameTasks',
  actor: 'loadSquares',
  fallback: REQUEST_FAILED,
  input: (context) => ({ gameId: context.gameId ?? 0 }),
  onLoaded: (_, answer) => ({ squares: answer.squares }),
});

/**
 * The Game Tasks screen (docs/client.md §7, §11; docs/game-rules.md §6, §13; docs/server.md
 * §3). Actors provided from src/: `loadSquares`, `swapSquares`, `fetchOptions` and
 * `assignTask`; action `notify` (the banner). Open game screens learn of a swap or assign from
 * the server's own broadcast after the REST call.
 * - Without a game id: missingGame ('Game ID is missing.').
 * - The list-loader load step (listLoader.ts): loading → loaded, or failed (the screen says
 *   'Error loading data: ...'); a finished game's squares go to readOnly instead (shown with
 *   GAME_TASKS_TEXTS.finished; no swap or assign), also on a reload.
 * - loaded.idle: `swap.request` is refused with the documented texts for a fixed square or two tiers,
 *   otherwise the tasks change places at once (swapping); a failed swap notifies 'Error saving
 *   task swap: ...' and reloads the squares.
 * - `assign.open`: a square without a tier → assignBlocked ('Cannot Assign Task'); otherwise the
 *   pool tasks of its tier are fetched (assignLoading → assignChoosing; 'Failed to fetch swap
 *   options: ...'); `assign.submit` needs a selected task (assigning), then reloads.
 */
export const gameTasksMachine = setup({
  types: {
    context: {} as GameTasksContext,
    events: {} as GameTasksEvent,
    input: {} as GameTasksInput,
  },
  actors: {
    ...squaresLoad.actors,
    swapSquares: missingPromise<{ message: string }, { gameId: number; square1Id: number; square2Id: number }>('gameTasks', 'swapSquares'),
    fetchOptions: missingPromise<AvailableTask[], { gameId: number; squareId: number }>('gameTasks', 'fetchOptions'),
    assignTask: missingPromise<{ message: string }, { gameId: number; squareId: number; taskId: number }>('gameTasks', 'assignTask'),
  },
  guards: {
    hasGameId: ({ context }) => context.gameId !== null,
    isFinishedGame: (_, answer: SquaresAnswer) => answer.finished,
    isSameSquare: ({ event }) => event.type === 'swap.request' && event.activeId === event.overId,
    isRefusedSwap: ({ context, event }) => {
      if (event.type !== 'swap.request') return false;
      const a = squareById(context, event.activeId);
      const b = squareById(context, event.overId);
      return !a || !b || swapRefusal(a, b) !== null;
    },
    isBlankSquare: ({ context, event }) => {
      const square = event.type === 'assign.open' ? squareById(context, event.squareId) : undefined;
      return !square || isFixedSquare(square);
    },
    hasSelection: ({ context }) => context.selectedTaskId !== null && context.options.some((t) => t.id === context.selectedTaskId),
  },
  actions: {
    assignLoaded: assign(({ context }, answer: SquaresAnswer) => squaresLoad.loaded(context, answer)),
    assignError: assign((_, error: unknown) => squaresLoad.failed(error)),
    swapLocally: assign(({ context }, e: { activeId: number; overId: number }) => ({ squares: swapSquareTasks(context.squares, e.activeId, e.overId) })),
    openAssign: assign((_, squareId: number) => ({ assignSquareId: squareId, options: [] as AvailableTask[], selectedTaskId: null, assignError: null })),
    assignOptions: assign((_, options: AvailableTask[]) => ({ options, selectedTaskId: null, assignError: null })),
    assignOptionsError: assign((_, error: unknown) => ({ options: [] as AvailableTask[], assignError: GAME_TASKS_TEXTS.optionsError(detail(error)) })),
    assignSelection: assign((_, taskId: number | null) => ({ selectedTaskId: taskId, assignError: null })),
    assignSubmitError: assign((_, error: unknown) => ({ assignError: detail(error) })),
    closeAssign: assign({ assignSquareId: null, options: [] as AvailableTask[], selectedTaskId: null, assignError: null }),
    /** Hands a message to the page's banner; provided from src/. */
    notify: (_, _notice: TasksNotice) => {},
  },
}).createMachine({
  id: 'gameTasks',
  context: ({ input }) => ({
    gameId: input.gameId,
    squares: [],
    error: null,
    assignSquareId: null,
    options: [],
    selectedTaskId: null,
    assignError: null,
  }),
  initial: 'resolving',
  states: {
    /** Passing through: without a game id there is nothing to load. */
    resolving: {
      always: [{ guard: 'hasGameId', target: 'loading' }, { target: 'missingGame' }],
    },
    missingGame: {},
    loading: { tags: ['busy'], invoke: squaresLoad.load({ doneIf: [{ guard: 'isFinishedGame', target: 'readOnly' }] }) },
    failed: {
      on: { 'squares.reload': 'loading' },
    },
    /** A finished game: its squares are shown, nothing can be swapped or assigned (the server would refuse). */
    readOnly: {},
    loaded: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'squares.reload': 'reloading',
            'swap.request': [
              { guard: 'isSameSquare' },
              {
                guard: 'isRefusedSwap',
                actions: {
                  type: 'notify',
                  params: ({ context, event }) => {
                    const a = squareById(context, event.activeId);
                    const b = squareById(context, event.overId);
                    return { tone: 'error' as const, text: (a && b && swapRefusal(a, b)) || GAME_TASKS_TEXTS.special };
                  },
                },
              },
              { target: 'swapping', actions: { type: 'swapLocally', params: ({ event }) => event } },
            ],
            'assign.open': [
              { guard: 'isBlankSquare', target: 'assignBlocked', actions: { type: 'openAssign', params: ({ event }) => event.squareId } },
              { target: 'assignLoading', actions: { type: 'openAssign', params: ({ event }) => event.squareId } },
            ],
          },
        },
        swapping: {
          tags: ['busy'],
          invoke: {
            id: 'swapSquares',
            src: 'swapSquares',
            input: ({ context, event }) => {
              const e = event as { activeId?: number; overId?: number };
              return { gameId: context.gameId ?? 0, square1Id: e.activeId ?? 0, square2Id: e.overId ?? 0 };
            },
            onDone: {
              target: 'idle',
              actions: { type: 'notify', params: ({ event }) => ({ tone: 'success' as const, text: event.output.message }) },
            },
            onError: {
              target: 'reloading',
              actions: { type: 'notify', params: ({ event }) => ({ tone: 'error' as const, text: GAME_TASKS_TEXTS.swapError(detail(event.error)) }) },
            },
          },
        },
        reloading: {
          tags: ['busy'],
          invoke: {
            id: 'reloadSquares',
            src: 'loadSquares',
            input: ({ context }) => ({ gameId: context.gameId ?? 0 }),
            onDone: [
              { guard: { type: 'isFinishedGame', params: ({ event }) => event.output }, target: '#gameTasks.readOnly', actions: { type: 'assignLoaded', params: ({ event }) => event.output } },
              { target: 'idle', actions: { type: 'assignLoaded', params: ({ event }) => event.output } },
            ],
            onError: {
              target: 'idle',
              actions: { type: 'notify', params: ({ event }) => ({ tone: 'error' as const, text: GAME_TASKS_TEXTS.loadError(detail(event.error)) }) },
            },
          },
        },
        assignBlocked: {
          tags: ['modalOpen'],
          on: { 'assign.cancel': { target: 'idle', actions: 'closeAssign' } },
        },
        assignLoading: {
          ...modalCallStep<GameTasksContext, AvailableTask[]>({
            actor: 'fetchOptions',
            input: (context) => ({ gameId: context.gameId ?? 0, squareId: context.assignSquareId ?? 0 }),
            done: { target: 'assignChoosing', actions: [{ type: 'assignOptions', params: (options) => options }] },
            failed: { target: 'assignChoosing', actions: [{ type: 'assignOptionsError', params: (error) => error }] },
          }),
          on: { 'assign.cancel': { target: 'idle', actions: 'closeAssign' } },
        },
        assignChoosing: {
          tags: ['modalOpen'],
          on: {
            'assign.select': { actions: { type: 'assignSelection', params: ({ event }) => event.taskId } },
            'assign.submit': { guard: 'hasSelection', target: 'assigning' },
            'assign.cancel': { target: 'idle', actions: 'closeAssign' },
          },
        },
        assigning: modalCallStep<GameTasksContext, { message: string }>({
          actor: 'assignTask',
          input: (context) => ({ gameId: context.gameId ?? 0, squareId: context.assignSquareId ?? 0, taskId: context.selectedTaskId ?? 0 }),
          done: { target: 'reloading', actions: [{ type: 'notify', params: (output): TasksNotice => ({ tone: 'success', text: output.message }) }, 'closeAssign'] },
          failed: { target: 'assignChoosing', actions: [{ type: 'assignSubmitError', params: (error) => error }] },
        }),
      },
    },
  },
});
