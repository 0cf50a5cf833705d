import { assign, setup } from 'xstate';
import { missingPromise } from './shared';

/** What an action reports on success: the message shown in the result step. */
export interface ActionResult {
  message: string;
}

export interface ConfirmActionContext {
  /** Form values of the modal (e.g. the IGN text); shape chosen by each use. */
  draft: Record<string, unknown>;
  /** What the modal acts on (e.g. an IGN id); set when it opens. */
  subject: Record<string, unknown>;
  result: string | null;
  error: string | null;
}

export type ConfirmActionEvent =
  | { type: 'confirm.open'; subject?: Record<string, unknown>; draft?: Record<string, unknown> }
  | { type: 'confirm.change'; field: string; value: unknown }
  | { type: 'confirm.submit' }
  | { type: 'confirm.cancel' }
  | { type: 'confirm.retry' }
  | { type: 'confirm.close' };

/** Input given to the `performAction` actor. */
export interface PerformInput {
  draft: Record<string, unknown>;
  subject: Record<string, unknown>;
}

/**
 * The modal flow of product-spec section 4 ("Modal flows": confirm, processing, result message,
 * close): one chart for every use (IGN delete/link/edit, leave clan, create clan, kick, add
 * member, disband, events, teams ...). Each use provides `performAction` (the call), and may
 * provide the `isDraftValid` guard with `assignValidationError` (form rules) and `notifySucceeded`
 * (refresh the page's data).
 */
export const confirmActionMachine = setup({
  types: {
    context: {} as ConfirmActionContext,
    events: {} as ConfirmActionEvent,
  },
  actors: {
    performAction: missingPromise<ActionResult, PerformInput>('confirmAction', 'performAction'),
  },
  guards: {
    isDraftValid: () => true,
  },
  actions: {
    assignOpen: assign((_, e: { subject?: Record<string, unknown>; draft?: Record<string, unknown> }) => ({
      subject: e.subject ?? {},
      draft: e.draft ?? {},
      result: null,
      error: null,
    })),
    assignField: assign(({ context }, e: { field: string; value: unknown }) => ({
      draft: { ...context.draft, [e.field]: e.value },
      error: null,
    })),
    assignValidationError: () => {},
    assignResult: assign((_, output: ActionResult) => ({ result: output.message, error: null })),
    assignError: assign((_, error: unknown) => ({
      error: error instanceof Error && error.message ? error.message : 'Something went wrong. Please retry.',
    })),
    notifySucceeded: () => {},
    reset: assign({ draft: {}, subject: {}, result: null, error: null }),
  },
}).createMachine({
  id: 'confirmAction',
  context: { draft: {}, subject: {}, result: null, error: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'confirm.open': { target: 'confirming', actions: { type: 'assignOpen', params: ({ event }) => event } },
      },
    },
    confirming: {
      tags: ['modalOpen'],
      on: {
        'confirm.change': { actions: { type: 'assignField', params: ({ event }) => event } },
        'confirm.submit': [
          { guard: 'isDraftValid', target: 'processing' },
          { actions: 'assignValidationError' },
        ],
        'confirm.cancel': { target: 'closed', actions: 'reset' },
      },
    },
    processing: {
      tags: ['modalOpen', 'busy'],
      invoke: {
        id: 'performAction',
        src: 'performAction',
        input: ({ context }) => ({ draft: context.draft, subject: context.subject }),
        onDone: { target: 'succeeded', actions: { type: 'assignResult', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    succeeded: {
      tags: ['modalOpen', 'result'],
      entry: 'notifySucceeded',
      on: {
        'confirm.close': { target: 'closed', actions: 'reset' },
        'confirm.cancel': { target: 'closed', actions: 'reset' },
      },
    },
    failed: {
      tags: ['modalOpen', 'result'],
      on: {
        'confirm.retry': 'confirming',
        'confirm.close': { target: 'closed', actions: 'reset' },
        'confirm.cancel': { target: 'closed', actions: 'reset' },
      },
    },
  },
});
