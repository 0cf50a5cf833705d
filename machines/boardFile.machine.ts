import { assign, setup } from 'xstate';
import { missingPromise } from './shared';
import type { BoardFile } from '../contract/game/boardFile';
import type { GameSettingsBody } from '../contract/game/settings';
import { errorText } from '../contract/errorText';

/** A file chosen in the file input, as far as the chart cares (a browser File is one). */
export interface ChosenBoardFile {
  name: string;
}

/** What `readBoard` answers: the checked board file and the settings it carries. */
export interface ReadBoard {
  board: BoardFile;
  settings: GameSettingsBody;
}

export interface BoardFileContext {
  /** The chosen file, read by `readBoard`. */
  file: ChosenBoardFile | null;
  /** The chosen file's name, once one is chosen. */
  fileName: string | null;
  /** The board read from it, while it is the one the game will be built from. */
  board: BoardFile | null;
  /** Why the chosen file was refused (its reason in the server's words), else null. */
  error: string | null;
}

export type BoardFileEvent =
  /** A file chosen in the file input (null: the choice was emptied). */
  | { type: 'boardFile.choose'; file: ChosenBoardFile | null }
  /** 'Use a random board instead': forget the file. */
  | { type: 'boardFile.clear' };

/** The text when `readBoard` fails without a reason of its own. */
const READ_FAILED = 'The board file could not be read.';

/**
 * 'Start from a board file' in the game setup form (docs/client.md §7; docs/server.md §18 "The
 * next event"): choosing a file reads it (`readBoard`, given from src/: the text as JSON, checked
 * with contract/game/boardFile.ts readBoardFile, so a refusal says why in the server's words);
 * a board that passes is `chosen` and `applyBoard` puts its settings into the settings form (given
 * from src/; the game is then created from the board with 'Create & Deploy Game'); one that does
 * not is `refused` with its reason. Choosing again reads the new file; `boardFile.clear` goes back
 * to a random board.
 */
export const boardFileMachine = setup({
  types: {
    context: {} as BoardFileContext,
    events: {} as BoardFileEvent,
  },
  actors: {
    readBoard: missingPromise<ReadBoard, ChosenBoardFile>('boardFile', 'readBoard'),
  },
  guards: {
    isFile: (_, file: ChosenBoardFile | null) => file !== null,
  },
  actions: {
    assignFile: assign((_, file: ChosenBoardFile | null) => ({ file, fileName: file?.name ?? null, board: null, error: null })),
    assignBoard: assign((_, read: ReadBoard) => ({ board: read.board, error: null })),
    assignError: assign((_, error: unknown) => ({ board: null, error: errorText(error, READ_FAILED) })),
    clearBoard: assign({ file: null, fileName: null, board: null, error: null }),
    applyBoard: (_, _read: ReadBoard) => {},
  },
}).createMachine({
  id: 'boardFile',
  context: { file: null, fileName: null, board: null, error: null },
  initial: 'empty',
  on: {
    'boardFile.choose': [
      { guard: { type: 'isFile', params: ({ event }) => event.file }, target: '.reading', reenter: true, actions: { type: 'assignFile', params: ({ event }) => event.file } },
      { target: '.empty', actions: 'clearBoard' },
    ],
  },
  states: {
    empty: {},
    reading: {
      tags: ['busy'],
      invoke: {
        id: 'readBoard',
        src: 'readBoard',
        input: ({ context }) => context.file ?? { name: '' },
        onDone: {
          target: 'chosen',
          actions: [
            { type: 'assignBoard', params: ({ event }) => event.output },
            { type: 'applyBoard', params: ({ event }) => event.output },
          ],
        },
        onError: { target: 'refused', actions: { type: 'assignError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    chosen: { on: { 'boardFile.clear': { target: 'empty', actions: 'clearBoard' } } },
    refused: { on: { 'boardFile.clear': { target: 'empty', actions: 'clearBoard' } } },
  },
});
