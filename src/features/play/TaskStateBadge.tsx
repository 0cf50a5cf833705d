import { useEffect, useState } from 'react';
import type { TaskState } from '../../../contract/submission';
import { TASK_STATE_LABELS } from '../../../contract/proofView';

/** The current time (ms), again every `everyMs` (the ticking 'on square 41 for 2 h 14 min'). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** A task state as a small badge (docs/server.md §9). */
export function TaskStateBadge({ state }: { state: TaskState }) {
  return (
    <span className={`task-state task-state--${state}`} data-testid="task-state" data-state={state}>
      {TASK_STATE_LABELS[state]}
    </span>
  );
}
