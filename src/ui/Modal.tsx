import * as Dialog from '@radix-ui/react-dialog';
import { useState, type ClipboardEvent, type ComponentProps, type ReactNode } from 'react';

/**
 * The control a dialog's opening came from: the focused element, or for an item of a Radix
 * dropdown menu (which closes as the dialog opens) the menu's trigger; null when nothing was focused.
 */
function openerOf(focused: Element | null): HTMLElement | null {
  const menu = focused?.closest('[role="menu"]');
  const trigger = menu?.id ? document.querySelector(`[aria-controls="${menu.id}"]`) : null;
  const opener = trigger ?? focused;
  return opener instanceof HTMLElement && opener !== document.body ? opener : null;
}

/**
 * Where focus goes when a chart-opened dialog closes (Esc, Cancel, Close, a click outside): back
 * to the control that opened it. Radix does this only for a Dialog.Trigger; a dialog opened by a
 * chart has none, so Radix would leave focus on <body>. The opener is read while rendering the
 * opening (focus has not moved into the dialog yet). Returns the Content's `onCloseAutoFocus`.
 */
function useReturnFocus(open: boolean): (event: Event) => void {
  const [opener, setOpener] = useState<HTMLElement | null>(null);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setOpener(openerOf(document.activeElement));
  }
  return (event) => {
    if (!opener?.isConnected) return;
    event.preventDefault();
    opener.focus();
  };
}

/**
 * The portal, overlay and content of a dialog opened by a chart (inside a Dialog.Root whose `open`
 * is `open`), returning focus to its opener on close (useReturnFocus).
 */
export function ChartDialogContent({ open, children, ...props }: { open: boolean } & Omit<ComponentProps<typeof Dialog.Content>, 'onCloseAutoFocus'>) {
  const returnFocus = useReturnFocus(open);
  return (
    <Dialog.Portal>
      <Dialog.Overlay className="dialog-overlay" />
      <Dialog.Content {...props} onCloseAutoFocus={returnFocus}>
        {children}
      </Dialog.Content>
    </Dialog.Portal>
  );
}

/**
 * A Radix dialog opened by a chart (docs/architecture.md §3): `open` from a selector, closing
 * (Esc, overlay) calls `onClose`. Focus trap and scroll lock come from Radix; focus returns to the opener.
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
      <ChartDialogContent open={open} className={className} aria-describedby={undefined} onPaste={onPaste} data-testid={testId} data-step={step}>
        <Dialog.Title className="dialog__title">{title}</Dialog.Title>
        {children}
      </ChartDialogContent>
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
