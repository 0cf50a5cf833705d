import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { boardFileMachine, type ChosenBoardFile, type ReadBoard } from '../../../machines/boardFile.machine';
import * as sel from '../../../machines/boardFile.selectors';
import { BOARD_FILE_MAX_BYTES, BOARD_FILE_MESSAGES, readBoardFile } from '../../../contract/game/boardFile';
import type { GameSettingsBody } from '../../../contract/game/settings';
import type { SettingsField } from '../../../contract/game/settingsDraft';
import { reliefDraftOf } from '../../../contract/game/settingsDraft';
import type { EventGameRef } from './SettingsForm';

/** The boardFile actor as the setup form holds it. */
export type BoardFileRef = ActorRefFrom<typeof boardFileMachine>;

/** The texts of 'Start from a board file' (docs/client.md §7). */
export const BOARD_FILE_TEXTS = {
  legend: 'Start from a board file',
  input: 'Board file (board.json)',
  hint: "A board.json downloaded from another game's Manage Game. Its settings fill the form, and Create & Deploy Game builds the same snakes, ladders and tasks (tasks missing from the clan's pool are added to it).",
  reading: 'Reading board file...',
  clear: 'Use a random board instead',
  chosen: (name: string, squares: number, tasks: number) => `Using ${name}: ${squares} squares, ${tasks} ${tasks === 1 ? 'task' : 'tasks'}. Create & Deploy Game builds this board.`,
} as const;

/** Reads a chosen file as a board file: at most 1 MiB, then contract readBoardFile; a refusal rejects with its reason. */
async function readChosen(file: ChosenBoardFile): Promise<ReadBoard> {
  const real = file as File;
  if (real.size > BOARD_FILE_MAX_BYTES) throw new Error(BOARD_FILE_MESSAGES.tooLarge);
  const read = readBoardFile(await real.text());
  if (!read.ok) throw new Error(read.error);
  return { board: read.board, settings: read.settings };
}

/**
 * The settings form takes a board file's settings (board size first: choosing a size fills the
 * task counts with the auto split, which the file's counts then replace), its proof rule and its
 * relief settings, through the eventGame chart's own form events.
 */
function fillForm(flow: EventGameRef, settings: GameSettingsBody): void {
  const fields: SettingsField[] = ['board_size', 'num_snakes', 'num_ladders', 'max_reverts_allowed', 'num_easy_tasks', 'num_medium_tasks', 'num_hard_tasks', 'num_elite_tasks', 'num_master_tasks'];
  for (const field of fields) flow.send({ type: 'settings.change', field, value: String(settings[field]) });
  flow.send({ type: 'rules.change', proofRequired: settings.proof_required });
  const relief = reliefDraftOf(settings);
  flow.send({ type: 'relief.change', field: 'afterHours', value: relief.afterHours });
  flow.send({ type: 'relief.change', field: 'maxPerTeam', value: relief.maxPerTeam });
}

/** The boardFile chart with its implementations: the file read in the browser, its settings put into `flow`'s form. */
export function boardFileLogic(flow: () => EventGameRef) {
  return boardFileMachine.provide({
    actors: { readBoard: fromPromise(({ input }) => readChosen(input)) },
    actions: { applyBoard: (_, read) => fillForm(flow(), read.settings) },
  });
}

/**
 * 'Start from a board file' of the game setup form (docs/client.md §7; docs/server.md §18 "The
 * next event"): a file input for a board.json; while one is read 'Reading board file...'; a board
 * that fits shows its name, squares and tasks (its settings are in the form, and Create & Deploy
 * Game sends it with them) and 'Use a random board instead'; one that does not shows why, in the
 * server's words. The file's texts are shown as text, never as markup.
 */
export function BoardFileField({ boardFile, disabled }: { boardFile: BoardFileRef; disabled: boolean }) {
  const id = useId();
  const board = useSelector(boardFile, sel.selectChosenBoard);
  const name = useSelector(boardFile, sel.selectBoardFileName);
  const error = useSelector(boardFile, sel.selectBoardFileError);
  const reading = useSelector(boardFile, sel.isReadingBoardFile);
  return (
    <fieldset className="game-settings__board-file" disabled={disabled}>
      <legend className="field__label">{BOARD_FILE_TEXTS.legend}</legend>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-file`}>{BOARD_FILE_TEXTS.input}</label>
        <input
          id={`${id}-file`}
          className="input"
          type="file"
          accept="application/json,.json"
          disabled={reading}
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          onChange={(e) => boardFile.send({ type: 'boardFile.choose', file: e.target.files?.[0] ?? null })}
        />
        <span id={`${id}-hint`} className="field__hint">{BOARD_FILE_TEXTS.hint}</span>
      </div>
      {reading && <p className="muted" role="status">{BOARD_FILE_TEXTS.reading}</p>}
      {error && (
        <p id={`${id}-error`} className="notice notice--error" role="alert" data-testid="board-file-error">
          {error}
        </p>
      )}
      {board && name && (
        <div className="row">
          <p className="notice notice--info" data-testid="board-file-chosen">
            {BOARD_FILE_TEXTS.chosen(name, board.squares.length, board.squares.filter((s) => s.task !== null).length)}
          </p>
          <button type="button" className="btn btn--small" onClick={() => boardFile.send({ type: 'boardFile.clear' })}>
            {BOARD_FILE_TEXTS.clear}
          </button>
        </div>
      )}
    </fieldset>
  );
}
