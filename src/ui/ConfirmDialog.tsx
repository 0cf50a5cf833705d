import * as Dialog from '@radix-ui/react-dialog';
import { useActorRef, useSelector } from '@xstate/react';
import { useLayoutEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { assign, fromPromise, type ActorRefFrom } from 'xstate';
import { confirmActionChart, type ActionResult, type ConfirmPayload, type PerformInput } from '../../machines/confirmAction.machine';
import * as sel from '../../machines/confirmAction.selectors';
import { Notice } from './Notice';
import { ChartDialogContent } from './Modal';

/** A confirmAction actor as components hold it, typed by its use's draft and subject. */
export type ConfirmActionRef<TDraft extends object, TSubject extends object> = ActorRefFrom<ReturnType<typeof confirmActionChart<TDraft, TSubject>>>;

/** No form values, or nothing to act on. */
export type Nothing = Record<never, never>;

/** The effects one modal use gives the confirmAction chart. */
export interface ConfirmEffects<TDraft extends object, TSubject extends object> {
  /** The draft and subject while the modal is closed (the form's empty values). */
  closed: ConfirmPayload<TDraft, TSubject>;
  /** The call; resolves with the success message, rejects with an Error whose message is shown. */
  perform: (input: PerformInput<TDraft, TSubject>) => Promise<ActionResult>;
  /** Form rule: an error text, or null when the draft may be submitted. */
  validate?: (draft: TDraft) => string | null;
  /** Called once on success (refresh data, navigate ...). */
  onSucceeded?: (input: PerformInput<TDraft, TSubject> & { result: string | null }) => void;
}

/**
 * A confirmAction actor with one use's effects provided (docs/architecture.md: flow actors come from
 * `useActorRef(machine.provide(...))`). The provided implementations read the effects of the
 * latest render, so they never act on a stale closure.
 */
export function useConfirmAction<TDraft extends object, TSubject extends object>(effects: ConfirmEffects<TDraft, TSubject>): ConfirmActionRef<TDraft, TSubject> {
  const latest = useRef(effects);
  useLayoutEffect(() => {
    latest.current = effects;
  });
  const [chart] = useState(() => confirmActionChart(effects.closed));
  return useActorRef(
    chart.provide({
      actors: { performAction: fromPromise(({ input }) => latest.current.perform(input)) },
      guards: { isDraftValid: ({ context }) => !latest.current.validate || latest.current.validate(context.draft) === null },
      actions: {
        assignValidationError: assign(({ context }) => ({ error: latest.current.validate?.(context.draft) ?? null })),
        notifySucceeded: ({ context }) => latest.current.onSucceeded?.({ draft: context.draft, subject: context.subject, result: context.result }),
      },
    }),
  );
}

/**
 * The modal of every confirm flow (docs/game-rules.md §6 modal flows), opened by the chart:
 * confirming shows `children` (text or form fields) with Cancel and the confirm button;
 * processing disables them and shows `processingText`; the result step shows the success
 * message (as a warning when part of the action failed) or the error with Close (and Retry on failure). Radix Dialog: focus trap, Esc cancels.
 */
export function ConfirmDialog<TDraft extends object, TSubject extends object>({
  actor,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  processingText = 'Processing...',
  danger = false,
  submitDisabled = false,
}: {
  actor: ConfirmActionRef<TDraft, TSubject>;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  processingText?: string;
  danger?: boolean;
  submitDisabled?: boolean;
}) {
  const open = useSelector(actor, sel.isModalOpen);
  const processing = useSelector(actor, sel.isProcessing);
  const succeeded = useSelector(actor, sel.isSucceeded);
  const failed = useSelector(actor, sel.isFailed);
  const result = useSelector(actor, sel.selectResult);
  const partial = useSelector(actor, sel.isPartialResult);
  const error = useSelector(actor, sel.selectActionError);
  const confirming = !succeeded && !failed;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'confirm.submit' });
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && !processing && actor.send({ type: 'confirm.cancel' })}>
      <ChartDialogContent open={open} className="dialog panel" aria-describedby={undefined}>
        <Dialog.Title className="dialog__title">{title}</Dialog.Title>
        {confirming ? (
          <form onSubmit={submit} className="form">
            <div className="dialog__body">{children}</div>
            {error && <Notice tone="error">{error}</Notice>}
            {processing && <p className="muted" role="status">{processingText}</p>}
            <div className="row dialog__actions">
              <button type="button" className="btn" disabled={processing} onClick={() => actor.send({ type: 'confirm.cancel' })}>
                {cancelLabel}
              </button>
              <button type="submit" className={danger ? 'btn btn--danger' : 'btn btn--primary'} disabled={processing || submitDisabled}>
                {confirmLabel}
              </button>
            </div>
          </form>
        ) : (
          <div className="form">
            {succeeded && <Notice tone={partial ? 'warning' : 'success'}>{result}</Notice>}
            {failed && <Notice tone="error">{error}</Notice>}
            <div className="row dialog__actions">
              {failed && (
                <button type="button" className="btn" onClick={() => actor.send({ type: 'confirm.retry' })}>
                  Retry
                </button>
              )}
              <button type="button" className="btn btn--primary" autoFocus onClick={() => actor.send({ type: 'confirm.close' })}>
                Close
              </button>
            </div>
          </div>
        )}
      </ChartDialogContent>
    </Dialog.Root>
  );
}
