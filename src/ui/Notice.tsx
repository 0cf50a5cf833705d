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

/**
 * A message timed by a chart's fading-message states: shown, then `fading` (CSS opacity over its
 * last second), then gone; its slot takes no room while empty.
 */
export function FadingNotice({ message, fading, testId }: { message: { tone: Tone; text: string } | null; fading: boolean; testId: string }) {
  return (
    <div className="action-message-slot">
      {message && (
        <div className={fading ? 'action-message action-message--fading' : 'action-message'} data-testid={testId} data-tone={message.tone}>
          <Notice tone={message.tone}>{message.text}</Notice>
        </div>
      )}
    </div>
  );
}
