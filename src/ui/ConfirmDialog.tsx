import * as Dialog from '@radix-ui/react-dialog';
import { useSelector } from '@xstate/react';
import type { FormEvent, ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import * as sel from '../../machines/confirmAction.selectors';
import type { bannerMachine } from '../../machines/banner.machine';
import { isBannerFading, selectBannerMessage } from '../../machines/banner.selectors';
import { FadingNotice, Notice } from './Notice';
import { ChartDialogContent } from './Modal';
import type { ConfirmActionRef } from './confirmAction';

// The confirm flow's chart and hook live apart from the dialog (src/ui/confirmAction.ts), so a screen
// can hold the flow without loading the dialog library until it may show it.
export { useConfirmAction, type ConfirmActionRef, type Nothing } from './confirmAction';

/**
 * The modal of every confirm flow (docs/game-rules.md §6 modal flows), opened by the chart:
 * confirming shows `children` (text or form fields) with Cancel and the confirm button;
 * processing disables them and shows `processingText`; a full success closes it and shows the
 * message in a fading banner at the top of the screen (bottom on a phone) with a dismiss button;
 * a partial success (as a warning) or the error stays in the modal with Close (and Retry on
 * failure). Radix Dialog: focus trap, Esc cancels.
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
  const banner = useSelector(actor, sel.selectResultBanner);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'confirm.submit' });
  };
  return (
    <>
      {banner && <ResultBanner banner={banner} onDismiss={() => actor.send({ type: 'confirm.close' })} />}
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
    </>
  );
}

/** A full success's message, timed by the banner chart the confirmAction chart invokes. */
function ResultBanner({ banner, onDismiss }: { banner: ActorRefFrom<typeof bannerMachine>; onDismiss: () => void }) {
  const message = useSelector(banner, selectBannerMessage);
  const fading = useSelector(banner, isBannerFading);
  return <FadingNotice message={message} fading={fading} testId="action-result" look="banner" onDismiss={onDismiss} />;
}
