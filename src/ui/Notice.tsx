import type { ReactNode } from 'react';

/** A message line: tone picks the colour (info, success, warning = orange, error). */
export function Notice({ tone = 'info', children, testId }: { tone?: 'info' | 'success' | 'warning' | 'error'; children: ReactNode; testId?: string }) {
  return (
    <p className={`notice notice--${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </p>
  );
}
