import { assign, setup } from 'xstate';
import type { DiceReport } from '../contract/diceVerify';
import { missingPromise } from './shared';
import { errorText } from '../contract/errorText';

export type DiceVerifyEvent = { type: 'verify.reload' };

/** What the chart holds: the game it checks, the last report and the failure text of the last try. */
export interface DiceVerifyContext {
  gameId: number;
  report: DiceReport | null;
  error: string | null;
}

/** Failure text when the error carries none. */
const VERIFY_FALLBACK = 'Failed to load the game history.';

/**
 * The 'Verify dice' view (server-contract section 10): `loading` (tag `busy`) runs the
 * `verifyDice` actor — load the game's history and recompute every roll in the browser — and
 * goes to `loaded` with the report, or `failed` with the error's text (the old report is dropped). `verify.reload` checks
 * again from `loaded` (e.g. once the game has finished and its seed is revealed) or retries from
 * `failed`. Not the list-loader chart: the page holds one report, not a list of rows.
 */
export const diceVerifyMachine = setup({
  types: {
    context: {} as DiceVerifyContext,
    input: {} as { gameId: number },
    events: {} as DiceVerifyEvent,
  },
  actors: {
    verifyDice: missingPromise<DiceReport, { gameId: number }>('diceVerify', 'verifyDice'),
  },
  actions: {
    assignReport: assign((_, report: DiceReport) => ({ report, error: null })),
    assignError: assign((_, error: unknown) => ({ report: null, error: errorText(error, VERIFY_FALLBACK) })),
  },
}).createMachine({
  id: 'diceVerify',
  context: ({ input }) => ({ gameId: input.gameId, report: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'verifyDice',
        src: 'verifyDice',
        input: ({ context }) => ({ gameId: context.gameId }),
        onDone: { target: 'loaded', actions: { type: 'assignReport', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    loaded: { on: { 'verify.reload': 'loading' } },
    failed: { on: { 'verify.reload': 'loading' } },
  },
});
