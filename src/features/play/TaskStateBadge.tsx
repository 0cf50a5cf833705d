import type { TaskState } from '../../../contract/submission';
import { TASK_STATE_LABELS } from '../../../contract/proofView';

/** A task state as a small badge (docs/server.md §9). */
export function TaskStateBadge({ state }: { state: TaskState }) {
  return (
    <span className={`task-state task-state--${state}`} data-testid="task-state" data-state={state}>
      {TASK_STATE_LABELS[state]}
    </span>
  );
}
