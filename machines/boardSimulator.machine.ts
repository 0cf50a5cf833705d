import { assign, not, setup } from 'xstate';
import { missingPromise } from './shared';
import type { BoardSimulation } from '../contract/game/forecast';
import type { Tier } from '../contract/game/tiers';
import { checkHoursDraft, DEFAULT_HOURS_DRAFT, type HoursDraft, type SimulationRequest, type SimulatorBoard } from '../contract/game/simulatorView';

/** Simulated games per run of the simulator (docs/game-rules.md §14). */
export const SIMULATOR_RUNS = 10_000;

export interface BoardSimulatorContext {
  /** The board simulated, or null before the screen gave one. */
  board: SimulatorBoard | null;
  /** The hours per tier as typed. */
  hours: HoursDraft;
  /** The last result, kept while a new run goes (and after a refused edit). */
  result: BoardSimulation | null;
}

export type BoardSimulatorEvent =
  /** The board to simulate changed (first given, snakes or ladders saved, a new board). */
  | { type: 'board.changed'; board: SimulatorBoard }
  /** A tier's hours typed. */
  | { type: 'hours.change'; tier: Tier; value: string };

/**
 * The board simulator of Manage Game (docs/game-rules.md §14; docs/server.md §15): `running` invokes
 * `simulate` (the contract's simulateBoard in a web worker, given from src/) for the board and hours
 * held, SIMULATOR_RUNS runs; a change while running starts again with the new input. Hours outside
 * 0..1,000 (contract checkHoursDraft) go to `invalid`, which keeps the last result and shows the
 * message until the hours are good again. `failed` (the worker broke) tries again on any change.
 */
export const boardSimulatorMachine = setup({
  types: {
    context: {} as BoardSimulatorContext,
    events: {} as BoardSimulatorEvent,
  },
  actors: {
    simulate: missingPromise<BoardSimulation, SimulationRequest>('boardSimulator', 'simulate'),
  },
  guards: {
    hasBoard: ({ context }) => context.board !== null,
    areHoursValid: ({ context }) => checkHoursDraft(context.hours).ok,
  },
  actions: {
    assignBoard: assign((_, board: SimulatorBoard) => ({ board })),
    assignHours: assign(({ context }, e: { tier: Tier; value: string }) => ({ hours: { ...context.hours, [e.tier]: e.value } })),
    assignResult: assign((_, result: BoardSimulation) => ({ result })),
  },
}).createMachine({
  id: 'boardSimulator',
  context: { board: null, hours: DEFAULT_HOURS_DRAFT, result: null },
  initial: 'waiting',
  on: {
    'board.changed': { target: '.deciding', reenter: true, actions: { type: 'assignBoard', params: ({ event }) => event.board } },
    'hours.change': { target: '.deciding', reenter: true, actions: { type: 'assignHours', params: ({ event }) => event } },
  },
  states: {
    waiting: {},
    /** Passing through: run when there is a board and the hours are good. */
    deciding: {
      always: [{ guard: not('areHoursValid'), target: 'invalid' }, { guard: not('hasBoard'), target: 'waiting' }, { target: 'running' }],
    },
    running: {
      tags: ['busy'],
      invoke: {
        id: 'simulate',
        src: 'simulate',
        input: ({ context }) => {
          const hours = checkHoursDraft(context.hours);
          return { ...context.board!, hours_per_tier: hours.ok ? hours.hours : {}, runs: SIMULATOR_RUNS };
        },
        onDone: { target: 'shown', actions: { type: 'assignResult', params: ({ event }) => event.output } },
        onError: 'failed',
      },
    },
    shown: {},
    invalid: {},
    failed: {},
  },
});
