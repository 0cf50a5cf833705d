import { assign, sendTo, setup } from 'xstate';
import { missingPromise } from './shared';
import { bannerMachine, type BannerEvent } from './banner.machine';
import { errorText } from '../contract/errorText';

/** What an action reports on success: the message shown in the result step. */
export interface ActionResult {
  message: string;
  /** Part of the work failed (e.g. some IGNs of a list): the result is shown as a warning, not a success. */
  partial?: boolean;
}

/** The form values (`TDraft`) and the thing acted on (`TSubject`) of one use of the modal. */
export interface ConfirmPayload<TDraft extends object, TSubject extends object> {
  /** Form values of the modal (e.g. the IGN text). */
  draft: TDraft;
  /** What the modal acts on (e.g. an IGN id); set when it opens. */
  subject: TSubject;
}

export interface ConfirmActionContext<TDraft extends object, TSubject extends object> extends ConfirmPayload<TDraft, TSubject> {
  result: string | null;
  /** The result of a partly failed action (ActionResult.partial). */
  partial: boolean;
  error: string | null;
}

/** One field of the draft changed: the field's name with a value of the draft's field types. */
export interface ConfirmChange<TDraft extends object> {
  type: 'confirm.change';
  field: keyof TDraft & string;
  value: TDraft[keyof TDraft & string];
}

export type ConfirmActionEvent<TDraft extends object, TSubject extends object> =
  | { type: 'confirm.open'; subject?: TSubject; draft?: TDraft }
  | ConfirmChange<TDraft>
  | { type: 'confirm.submit' }
  | { type: 'confirm.cancel' }
  | { type: 'confirm.retry' }
  | { type: 'confirm.close' };

/** Input given to the `performAction` actor. */
export type PerformInput<TDraft extends object, TSubject extends object> = ConfirmPayload<TDraft, TSubject>;

/**
 * Where one outcome of a modal's call goes: the target state and the chart's actions, each named
 * (`'closeAssign'`) or named with `params` given the outcome (the call's output, or its error).
 */
export interface ModalCallOutcome<T> {
  target: string;
  actions: readonly (string | { type: string; params: (outcome: T) => unknown })[];
}

/**
 * The processing step of a modal flow (docs/game-rules.md §6 "Modal flows"): confirmAction's
 * `processing`, and the same step of a chart with a modal of its own (gameTasks' `assignLoading`
 * and `assigning`). The modal stays open (tag `modalOpen`) and busy (tag `busy`: its buttons are
 * disabled) while the chart's promise actor `actor` runs (invoke id: its name) on
 * `input(context)`; its output goes to `done`, its error to `failed`.
 */
export function modalCallStep<TContext, TOutput, TInput = unknown>(o: {
  actor: string;
  input: (context: TContext) => TInput;
  done: ModalCallOutcome<TOutput>;
  failed: ModalCallOutcome<unknown>;
}) {
  const actions = <T,>(outcome: ModalCallOutcome<T>, of: (event: never) => T) =>
    outcome.actions.map((a) => (typeof a === 'string' ? a : { type: a.type, params: ({ event }: { event: never }) => a.params(of(event)) }));
  // XState cannot check an invoke config whose actor name is a string of the caller, so the invoke
  // is cast (as listLoader's load step is); the charts' model tests check it.
  return {
    tags: ['modalOpen', 'busy'],
    invoke: {
      id: o.actor,
      src: o.actor,
      input: ({ context }: { context: TContext }) => o.input(context),
      onDone: { target: o.done.target, actions: actions(o.done, (event: { output: TOutput }) => event.output) },
      onError: { target: o.failed.target, actions: actions(o.failed, (event: { error: unknown }) => event.error) },
    } as never,
  };
}

/**
 * The modal flow of docs/game-rules.md §6 ("Modal flows": confirm, processing, result message,
 * close): one chart for every use (IGN delete/link/edit, leave clan, create clan, kick, add
 * member, disband, events, teams ...). A full success closes the modal and shows its message in
 * the fading banner (the invoked banner chart `message`, docs/architecture.md §4: fades at 4 s,
 * gone at 5 s); a partial success (ActionResult.partial, e.g. some IGNs refused) keeps the modal
 * open on its warning with Close, and a failure on its error with Retry and Close: those are
 * read, not glanced at. `succeeded` takes `confirm.open` for the next use, and `confirm.close`
 * (Close, or the banner's dismiss) ends it. Each use provides `performAction` (the call), and may
 * provide the `isDraftValid` guard with `assignValidationError` (form rules) and `notifySucceeded`
 * (refresh the page's data). Typed per use by its draft and subject; `closed` holds their values
 * while the modal is closed (what `confirm.open` does not give and what a cancel or close restores).
 */
export function confirmActionChart<TDraft extends object, TSubject extends object>(closed: ConfirmPayload<TDraft, TSubject>) {
  return setup({
    types: {
      context: {} as ConfirmActionContext<TDraft, TSubject>,
      events: {} as ConfirmActionEvent<TDraft, TSubject>,
    },
    actors: {
      performAction: missingPromise<ActionResult, PerformInput<TDraft, TSubject>>('confirmAction', 'performAction'),
      banner: bannerMachine,
    },
    guards: {
      isDraftValid: () => true,
    },
    actions: {
      assignOpen: assign((_, e: Partial<ConfirmPayload<TDraft, TSubject>>) => ({
        subject: e.subject ?? closed.subject,
        draft: e.draft ?? closed.draft,
        result: null,
        partial: false,
        error: null,
      })),
      assignField: assign(({ context }, e: ConfirmChange<TDraft>) => ({
        draft: { ...context.draft, [e.field]: e.value },
        error: null,
      })),
      assignValidationError: () => {},
      assignResult: assign((_, output: ActionResult) => ({ result: output.message, partial: output.partial ?? false, error: null })),
      assignError: assign((_, error: unknown) => ({
        error: errorText(error, 'Something went wrong. Please retry.'),
      })),
      notifySucceeded: () => {},
      /** A full success's message goes to the fading banner (a partial one stays in the modal). */
      showResult: sendTo('message', ({ context }): BannerEvent =>
        context.partial ? { type: 'message.dismiss' } : { type: 'message.show', tone: 'success', text: context.result ?? '' }),
      dismissResult: sendTo('message', { type: 'message.dismiss' } satisfies BannerEvent),
      reset: assign({ ...closed, result: null, partial: false, error: null }),
    },
  }).createMachine({
    id: 'confirmAction',
    context: { ...closed, result: null, partial: false, error: null },
    invoke: { id: 'message', src: 'banner' },
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
      processing: modalCallStep<ConfirmActionContext<TDraft, TSubject>, ActionResult>({
        actor: 'performAction',
        input: (context): PerformInput<TDraft, TSubject> => ({ draft: context.draft, subject: context.subject }),
        done: { target: 'succeeded', actions: [{ type: 'assignResult', params: (output) => output }] },
        failed: { target: 'failed', actions: [{ type: 'assignError', params: (error) => error }] },
      }),
      // The modal shows only a partial success (the selectors' isModalOpen); a full one is the banner's.
      succeeded: {
        tags: ['modalOpen', 'result'],
        entry: ['notifySucceeded', 'showResult'],
        on: {
          'confirm.open': { target: 'confirming', actions: { type: 'assignOpen', params: ({ event }) => event } },
          'confirm.close': { target: 'closed', actions: ['reset', 'dismissResult'] },
          'confirm.cancel': { target: 'closed', actions: ['reset', 'dismissResult'] },
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
}

/** The chart with untyped draft and subject (the model tests drive it with every use's fields). */
export const confirmActionMachine = confirmActionChart<Record<string, unknown>, Record<string, unknown>>({ draft: {}, subject: {} });
