import { assign, setup } from 'xstate';
import { errorText } from '../contract/errorText';
import { missingPromise } from './shared';

export type ProgressCheckEvent = { type: 'progress.check' };

/**
 * What one 'Check now' ask came to: `waitS` seconds until the team may ask again (the 202's
 * `retry_after`, or a 429's Retry-After), and `refusal` the server's text of a 429, null when the
 * ask was accepted.
 */
export interface ProgressCheckOutcome {
  waitS: number;
  refusal: string | null;
}

/** The team asked for, the seconds left of the wait (0 outside it), a 429's text and the last failure's text. */
export interface ProgressCheckContext {
  teamId: number;
  waitLeft: number;
  refusal: string | null;
  error: string | null;
}

/** Shown when a failed ask carries no text of its own. */
const CHECK_FAILED = 'Failed to ask for a check.';

/**
 * 'Check now' on a team's Wise Old Man total (docs/client.md §9; docs/server.md §17): `idle` →
 * `progress.check` → `asking` (tag `busy`) runs `checkProgress` → `waiting` with the seconds the
 * server gave (accepted, or refused as too soon with its text), counting them down one `second`
 * at a time back to `idle`; a failed ask goes back to `idle` with the server's text. A new ask
 * clears the old text. The check itself runs on the server; the total arrives with the game's
 * next update.
 */
export const progressCheckMachine = setup({
  types: {
    context: {} as ProgressCheckContext,
    input: {} as { teamId: number },
    events: {} as ProgressCheckEvent,
  },
  actors: {
    checkProgress: missingPromise<ProgressCheckOutcome, { teamId: number }>('progressCheck', 'checkProgress'),
  },
  delays: { second: 1000 },
  guards: {
    isLastSecond: ({ context }) => context.waitLeft <= 1,
  },
  actions: {
    clearTexts: assign({ refusal: null, error: null }),
    assignWait: assign((_, outcome: ProgressCheckOutcome) => ({ waitLeft: Math.max(1, Math.ceil(outcome.waitS)), refusal: outcome.refusal })),
    assignError: assign((_, error: unknown) => ({ error: errorText(error, CHECK_FAILED) })),
    countDown: assign({ waitLeft: ({ context }) => context.waitLeft - 1 }),
    endWait: assign({ waitLeft: 0, refusal: null }),
  },
}).createMachine({
  id: 'progressCheck',
  context: ({ input }) => ({ teamId: input.teamId, waitLeft: 0, refusal: null, error: null }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'progress.check': { target: 'asking', actions: 'clearTexts' } },
    },
    asking: {
      tags: ['busy'],
      invoke: {
        src: 'checkProgress',
        input: ({ context }) => ({ teamId: context.teamId }),
        onDone: { target: 'waiting', actions: { type: 'assignWait', params: ({ event }) => event.output } },
        onError: { target: 'idle', actions: { type: 'assignError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    waiting: {
      after: {
        second: [
          { guard: 'isLastSecond', target: 'idle', actions: 'endWait' },
          { target: 'waiting', reenter: true, actions: 'countDown' },
        ],
      },
    },
  },
});
