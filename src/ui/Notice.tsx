import type { ReactNode } from 'react';

type Tone = 'info' | 'success' | 'warning' | 'error';

/** A message line: tone picks the colour (info, success, warning = orange, error). */
export function Notice({ tone = 'info', children, testId }: { tone?: Tone; children: ReactNode; testId?: string }) {
  return (
    <p className={`notice notice--${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </p>
  );
}

/** Where a fading notice stands: `inline` in the page's flow, or `banner`, fixed at the top of the screen. */
type FadingLook = 'inline' | 'banner';

/** The class of each look (the slot beside it is `<class>-slot`, the fading state `<class>--fading`). */
const LOOK_CLASS: Record<FadingLook, string> = { inline: 'action-message', banner: 'game-banner' };

/**
 * The one drawing of a message timed by a chart's fading-message states (banner.machine.ts):
 * shown, then `fading` (CSS opacity over its last second), then gone; its slot takes no room
 * while empty. `testId` and `data-tone` sit on the message box, so a test finds the message and
 * its tone in one place; `onDismiss` adds a close button that removes it at once.
 */
export function FadingNotice({
  message,
  fading,
  testId,
  look = 'inline',
  onDismiss,
}: {
  message: { tone: Tone; text: string } | null;
  fading: boolean;
  testId: string;
  look?: FadingLook;
  onDismiss?: () => void;
}) {
  const base = LOOK_CLASS[look];
  return (
    <div className={`${base}-slot`}>
      {message && (
        <div className={fading ? `${base} ${base}--fading` : base} data-testid={testId} data-tone={message.tone}>
          <Notice tone={message.tone}>{message.text}</Notice>
          {onDismiss && (
            <button type="button" className={`${base}__close`} aria-label="Dismiss message" onClick={onDismiss}>
              ×
            </button>
          )}
        </div>
      )}
    </div>
  );
}
