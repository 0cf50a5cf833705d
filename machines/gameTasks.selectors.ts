import type { SnapshotFrom } from 'xstate';
import type { gameTasksMachine } from './gameTasks.machine';

type S = SnapshotFrom<typeof gameTasksMachine>;

/** Named selectors of the gameTasks chart. */
/**
 * The screen's phase, from the chart's top-level state: 'missingGame', 'loading', 'loadFailed',
 * 'readOnly' (a finished game's board: shown, not editable) or 'ready'.
 */
export const selectPhase = (s: S): 'missingGame' | 'loading' | 'loadFailed' | 'readOnly' | 'ready' =>
  s.matches('missingGame') ? 'missingGame' : s.matches('loading') ? 'loading' : s.matches('loadFailed') ? 'loadFailed' : s.matches('readOnly') ? 'readOnly' : 'ready';
export const isBusy = (s: S) => s.hasTag('busy');
const isReloading = (s: S) => s.matches({ ready: 'reloading' });
export const isAssignOpen = (s: S) => s.hasTag('modalOpen');
export const isAssignBlocked = (s: S) => s.matches({ ready: 'assignBlocked' });
export const isAssignLoading = (s: S) => s.matches({ ready: 'assignLoading' });
export const isAssigning = (s: S) => s.matches({ ready: 'assigning' });
/** Dragging and the edit icons work only while nothing else runs. */
export const canEdit = (s: S) => s.matches({ ready: 'idle' });
/** Assign may be pressed: a task of the list is selected (derived with `can`). */
export const canAssign = (s: S) => s.can({ type: 'assign.submit' });
export const selectSquares = (s: S) => s.context.squares;
export const selectLoadError = (s: S) => s.context.loadError;
export const selectAssignSquareId = (s: S) => s.context.assignSquareId;
export const selectOptions = (s: S) => s.context.options;
export const selectSelectedTaskId = (s: S) => s.context.selectedTaskId;
export const selectAssignError = (s: S) => s.context.assignError;
