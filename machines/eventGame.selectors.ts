import type { SnapshotFrom } from 'xstate';
import type { eventGameMachine } from './eventGame.machine';
import type { gameStatusMachine } from './gameStatus.machine';

type S = SnapshotFrom<typeof eventGameMachine>;
type StatusSnapshot = SnapshotFrom<typeof gameStatusMachine>;

/** Which part of the Event Game view shows (docs/client.md §7). */
export type EventGameMode = 'loading' | 'loadFailed' | 'setup' | 'manage';

/** Named selectors of the eventGame chart. */
export const selectMode = (s: S): EventGameMode => {
  if (s.matches('setup')) return 'setup';
  if (s.matches('manage')) return 'manage';
  if (s.matches('loadFailed')) return 'loadFailed';
  return 'loading';
};
export const isCreating = (s: S) => s.matches({ setup: 'creating' });
export const isBusy = (s: S) => s.hasTag('busy');
export const isReloading = (s: S) => s.matches({ manage: 'reloading' });
export const isRandomizing = (s: S) => s.matches({ manage: 'randomizing' });
export const isSavingBoard = (s: S) => s.matches({ manage: 'savingBoard' });
export const isRandomizeConfirmOpen = (s: S) => s.hasTag('modalOpen');
/** Create & Deploy Game / Randomize Board may be pressed: the form is valid and nothing runs (derived with `can`). */
export const canSubmitSettings = (s: S) => s.can({ type: 'settings.submit' });
/** Save Board may be pressed: nothing else runs. */
export const canSaveBoard = (s: S) => s.matches({ manage: 'idle' });
/** Refresh may be pressed. */
export const canReload = (s: S) => s.matches({ manage: 'idle' });
export const selectGame = (s: S) => s.context.game;
export const selectDraft = (s: S) => s.context.draft;
export const selectSnakesText = (s: S) => s.context.snakesText;
export const selectLaddersText = (s: S) => s.context.laddersText;
export const selectBoardError = (s: S) => s.context.boardError;
export const selectLoadError = (s: S) => s.context.loadError;
export const selectStatusRef = (s: S) => s.context.statusRef;
/** The 'Require approved proof before the next roll' box. */
export const selectProofRequired = (s: S) => s.context.proofRequired;
/** The relief fields as typed (docs/game-rules.md §15). */
export const selectReliefDraft = (s: S) => s.context.relief;
/** 'Save relief settings' may be pressed: an existing game, nothing runs, the fields are valid (derived with `can`). */
export const canSaveRelief = (s: S) => s.can({ type: 'relief.save' });
/** The box may be changed: in setup while editing, on an existing game while nothing runs. */
export const canChangeRules = (s: S) => s.matches({ setup: 'editing' }) || s.matches({ manage: 'idle' });

/**
 * What the Board Settings area may offer for the game's status (read from the gameStatus child, so
 * it follows every status change): 'open' (PENDING, READY: Randomize Board at once, Delete Game),
 * 'paused' (Randomize Board after its confirmation; no Delete), 'inProgress' (neither: teams are
 * playing on the board), 'finished' (Delete Game only: the board is a record).
 */
export type BoardLock = 'open' | 'paused' | 'inProgress' | 'finished';
export const selectBoardLock = (s: StatusSnapshot): BoardLock => {
  if (s.matches('inProgress')) return 'inProgress';
  if (s.matches('paused')) return 'paused';
  if (s.matches('finished')) return 'finished';
  return 'open';
};
