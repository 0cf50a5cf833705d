import { assign, setup } from 'xstate';
import type { DiceReport } from '../contract/diceVerify';
import { loadStep } from './listLoader';

export type DiceVerifyEvent = { type: 'verify.reload' };

/** What the chart holds: the game it checks, the last report and the failure text of the last try. */
export interface DiceVerifyContext {
  gameId: number;
  report: DiceReport | null;
  error: string | null;
}

/** The list-loader load step over one report: a check that fails drops the old report. */
const verify = loadStep<DiceReport, DiceVerifyContext, 'verifyDice', { gameId: number }>({
  id: 'diceVerify',
  actor: 'verifyDice',
  fallback: 'Failed to load the game history.',
  input: (context) => ({ gameId: context.gameId }),
  onLoaded: (_, report) => ({ report }),
});

/**
 * The 'Verify dice' view (docs/game-rules.md §9): the list-loader load step (listLoader.ts)
 * over one report. `loading` (tag `busy`) runs the `verifyDice` actor — load the game's history
 * and recompute every roll in the browser — and goes to `loaded` with the report, or `failed`
 * with the error's text (the old report is dropped). `verify.reload` checks again from `loaded`
 * (e.g. once the game has finished and its seed is revealed) or retries from `failed`, through
 * `loading` as the first check did.
 */
export const diceVerifyMachine = setup({
  types: {
    context: {} as DiceVerifyContext,
    input: {} as { gameId: number },
    events: {} as DiceVerifyEvent,
  },
  actors: verify.actors,
  actions: {
    assignLoaded: assign(({ context }, report: DiceReport) => verify.loaded(context, report)),
    assignError: assign((_, error: unknown) => ({ ...verify.failed(error), report: null })),
  },
}).createMachine({
  id: 'diceVerify',
  context: ({ input }) => ({ gameId: input.gameId, report: null, error: null }),
  initial: 'loading',
  states: {
    loading: { tags: ['busy'], invoke: verify.load() },
    loaded: { on: { 'verify.reload': 'loading' } },
    failed: { on: { 'verify.reload': 'loading' } },
  },
});
