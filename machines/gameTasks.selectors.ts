import type { SnapshotFrom } from 'xstate';
import type { gameTasksMachine } from './gameTasks.machine';
import { GAME_TASKS_TEXTS } from '../contract/game/taskSquares';

type S = SnapshotFrom<typeof gameTasksMachine>;

/** Named selectors of the gameTasks chart. */
/**
 * The screen's phase, from the chart's top-level state: 'missingGame', 'loading', 'failed',
 * 'readOnly' (a finished game's board: shown, not editable) or 'loaded'.
 */
export const selectPhase = (s: S): 'missingGame' | 'loading' | 'failed' | 'readOnly' | 'loaded' =>
  s.matches('missingGame') ? 'missingGame' : s.matches('loading') ? 'loading' : s.matches('failed') ? 'failed' : s.matches('readOnly') ? 'readOnly' : 'loaded';
export const isBusy = (s: S) => s.hasTag('busy');
const isReloading = (s: S) => s.matches({ loaded: 'reloading' });
export const isAssignOpen = (s: S) => s.hasTag('modalOpen');
export const isAssignBlocked = (s: S) => s.matches({ loaded: 'assignBlocked' });
export const isAssignLoading = (s: S) => s.matches({ loaded: 'assignLoading' });
export const isAssigning = (s: S) => s.matches({ loaded: 'assigning' });
/** Dragging and the edit icons work only while nothing else runs. */
export const canEdit = (s: S) => s.matches({ loaded: 'idle' });
/** Assign may be pressed: a task of the list is selected (derived with `can`). */
export const canAssign = (s: S) => s.can({ type: 'assign.submit' });
export const selectSquares = (s: S) => s.context.squares;
/** The load failure as the screen says it ('Error loading data: ...'), or null. */
export const selectLoadError = (s: S) => (s.context.error === null ? null : GAME_TASKS_TEXTS.loadError(s.context.error));
export const selectAssignSquareId = (s: S) => s.context.assignSquareId;
export const selectOptions = (s: S) => s.context.options;
export const selectSelectedTaskId = (s: S) => s.context.selectedTaskId;
export const selectAssignError = (s: S) => s.context.assignError;
