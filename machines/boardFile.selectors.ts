import type { SnapshotFrom } from 'xstate';
import type { boardFileMachine } from './boardFile.machine';

type S = SnapshotFrom<typeof boardFileMachine>;

/** The board the game will be built from: set only while a checked file is chosen. */
export const selectChosenBoard = (s: S) => (s.matches('chosen') ? s.context.board : null);
/** The chosen file's name, or null. */
export const selectBoardFileName = (s: S) => s.context.fileName;
/** Why the chosen file was refused, while it is. */
export const selectBoardFileError = (s: S) => (s.matches('refused') ? s.context.error : null);
/** The file is being read. */
export const isReadingBoardFile = (s: S) => s.matches('reading');
