import * as Dialog from '@radix-ui/react-dialog';
import type { ClipboardEvent, ReactNode } from 'react';

/**
 * A Radix dialog opened by a chart (house-style "Components"): `open` from a selector, closing
 * (Esc, overlay) calls `onClose`. Focus trap and scroll lock come from Radix.
 */
export function Modal({
  open,
  onClose,
  title,
  children,
  className = 'dialog panel',
  testId,
  step,
  onPaste,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  className?: string;
  testId?: string;
  /** Shown as data-step (which step of a flow the dialog is in). */
  step?: string;
  onPaste?: (e: ClipboardEvent) => void;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className={className} aria-describedby={undefined} onPaste={onPaste} data-testid={testId} data-step={step}>
          <Dialog.Title className="dialog__title">{title}</Dialog.Title>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** A dialog's button row: Cancel (or `cancelLabel`) and the submit button, plus `extra` between them. */
export function DialogButtons({
  onCancel,
  cancelDisabled = false,
  cancelLabel = 'Cancel',
  submitLabel,
  submitDisabled = false,
  danger = false,
  extra,
}: {
  onCancel: () => void;
  cancelDisabled?: boolean;
  cancelLabel?: string;
  /** Without a label the row has no submit button (a Close row: the cancel button is the primary one). */
  submitLabel?: string;
  submitDisabled?: boolean;
  danger?: boolean;
  extra?: ReactNode;
}) {
  return (
    <div className="row dialog__actions">
      <button type="button" className={submitLabel ? 'btn' : 'btn btn--primary'} autoFocus={!submitLabel} disabled={cancelDisabled} onClick={onCancel}>
        {cancelLabel}
      </button>
      {extra}
      {submitLabel && (
        <button type="submit" className={danger ? 'btn btn--danger' : 'btn btn--primary'} disabled={submitDisabled}>
          {submitLabel}
        </button>
      )}
    </div>
  );
}
