import { useSelector } from '@xstate/react';
import { useId, useMemo, type FormEvent, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { boardSizeLabel, MAX_LADDERS, MAX_REVERTS, MAX_SNAKES } from '../../../contract/game/board';
import { TASK_COUNT_FIELDS } from '../../../contract/game/settings';
import { TIER_LABELS, TIERS } from '../../../contract/game/tiers';
import { checkReliefDraft, checkSettingsDraft, FORM_BOARD_SIZES, type ReliefDraft, type SettingsField } from '../../../contract/game/settingsDraft';
import { RELIEF_LIMITS } from '../../../contract/game/settings';
import type { eventGameMachine } from '../../../machines/eventGame.machine';
import * as sel from '../../../machines/eventGame.selectors';
import { tasksOnBoard } from '../../../contract/game/counts';

/** The eventGame actor as the Event Game view holds it. */
export type EventGameRef = ActorRefFrom<typeof eventGameMachine>;

const NUMBER_FIELDS: { field: SettingsField; label: string; max: number }[] = [
  { field: 'num_snakes', label: 'Number of snakes', max: MAX_SNAKES },
  { field: 'num_ladders', label: 'Number of ladders', max: MAX_LADDERS },
  { field: 'max_reverts_allowed', label: 'Max reverts allowed', max: MAX_REVERTS },
];

/**
 * The game settings form (docs/game-rules.md §4; docs/client.md §12), used by the setup mode
 * (Create & Deploy Game) and the Board Settings area (Randomize Board): board size shown like
 * '25 (5x5)' (choosing one fills the task counts with the auto split), snakes, ladders, max
 * reverts and the five task counts, all required; the rule messages of the docs; the task-tile note
 * in error styling once the total exceeds board size minus 2, saying how many tasks the board
 * holds once the squares where a snake or ladder starts (no task there) are taken out. Submit is
 * disabled while the chart is busy or the form has an error (derived with `can`). `extra` sits
 * beside the submit button. `locked`: the board fields are shown read-only and there is no submit
 * (a game whose board may not change now); the proof box still works.
 */
export function SettingsForm({ flow, submitLabel, extra, locked = false }: { flow: EventGameRef; submitLabel: string; extra?: ReactNode; locked?: boolean }) {
  const id = useId();
  const draft = useSelector(flow, sel.selectDraft);
  const canSubmit = useSelector(flow, sel.canSubmitSettings);
  const busy = useSelector(flow, sel.isBusy);
  const check = useMemo(() => checkSettingsDraft(draft), [draft]);
  const change = (field: SettingsField, value: string) => flow.send({ type: 'settings.change', field, value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    flow.send({ type: 'settings.submit' });
  };
  const errorId = `${id}-error`;
  const noteId = `${id}-note`;
  const invalid = (field: SettingsField) => check.field === field || (check.field === 'counts' && (TASK_COUNT_FIELDS as readonly string[]).includes(field));
  const describedBy = (field: SettingsField) => (invalid(field) ? errorId : undefined);
  return (
    <form className="form game-settings" onSubmit={submit} noValidate aria-busy={busy}>
      <fieldset className="game-settings__fields" disabled={busy}>
        <fieldset className="game-settings__board" disabled={locked}>
          <div className="game-settings__grid">
            <div className="field">
              <label className="field__label" htmlFor={`${id}-board_size`}>Board size</label>
              <select
                id={`${id}-board_size`}
                className="input"
                required
                value={draft.board_size}
                aria-invalid={invalid('board_size')}
                aria-describedby={describedBy('board_size')}
                onChange={(e) => change('board_size', e.target.value)}
              >
                {!FORM_BOARD_SIZES.map(String).includes(draft.board_size) && <option value={draft.board_size}>Choose a size</option>}
                {FORM_BOARD_SIZES.map((n) => (
                  <option key={n} value={String(n)}>
                    {boardSizeLabel(n)}
                  </option>
                ))}
              </select>
            </div>
            {NUMBER_FIELDS.map(({ field, label, max }) => (
              <div className="field" key={field}>
                <label className="field__label" htmlFor={`${id}-${field}`}>{label}</label>
                <CountInput id={`${id}-${field}`} max={max} value={draft[field]} invalid={invalid(field)} describedBy={describedBy(field)} onChange={(value) => change(field, value)} />
                <span className="field__hint">0 to {max}{field === 'max_reverts_allowed' ? ' per team' : ''}</span>
              </div>
            ))}
          </div>
          <fieldset className="game-settings__tasks">
            <legend className="field__label">Tasks per difficulty</legend>
            <div className="game-settings__counts">
              {TIERS.map((tier, i) => {
                const field = TASK_COUNT_FIELDS[i];
                return (
                  <div className="field" key={field}>
                    <label className="field__label" htmlFor={`${id}-${field}`}>{TIER_LABELS[tier]}</label>
                    <CountInput
                      id={`${id}-${field}`}
                      value={draft[field]}
                      invalid={invalid(field)}
                      describedBy={[noteId, describedBy(field)].filter(Boolean).join(' ')}
                      onChange={(value) => change(field, value)}
                    />
                  </div>
                );
              })}
            </div>
            <p id={noteId} className={check.exceeded ? 'game-settings__note game-settings__note--error' : 'game-settings__note'}>
              {check.taskTiles === null
                ? 'Choose a board size to see how many task tiles it has.'
                : `Task tiles to fill: ${check.taskTiles} (board size minus the Start and Finish squares). Tasks set: ${check.totalTasks}${onBoardNote(check.taskTiles, check.totalTasks, draft.num_snakes, draft.num_ladders)}.`}
            </p>
          </fieldset>
        </fieldset>
        <ProofRequiredField flow={flow} id={`${id}-proof_required`} />
        <ReliefFields flow={flow} id={`${id}-relief`} />
      </fieldset>
      {check.error && (
        <p id={errorId} className="notice notice--error" role="alert">
          {check.error}
        </p>
      )}
      {(!locked || extra) && (
        <div className="row game-settings__actions">
          {!locked && (
            <button type="submit" className="btn btn--primary" disabled={!canSubmit}>
              {submitLabel}
            </button>
          )}
          {extra}
        </div>
      )}
    </form>
  );
}

/**
 * ' (88 on the board: squares where a snake or ladder starts hold no task)' when the counts fill the
 * task tiles and the draft has snakes or ladders; '' otherwise (the rule messages speak then).
 */
function onBoardNote(taskTiles: number, totalTasks: number, snakesText: string, laddersText: string): string {
  const snakes = Number(snakesText);
  const ladders = Number(laddersText);
  if (totalTasks !== taskTiles || !Number.isInteger(snakes) || !Number.isInteger(ladders) || snakes + ladders <= 0) return '';
  return ` (${tasksOnBoard(taskTiles, snakes, ladders)} on the board: squares where a snake or ladder starts hold no task)`;
}

/**
 * The 'Require approved proof before the next roll' box (docs/server.md §9): part of the
 * create payload in setup (checked by default); on an existing game it is saved at once through
 * PUT .../rules, without touching the board.
 */
function ProofRequiredField({ flow, id }: { flow: EventGameRef; id: string }) {
  const checked = useSelector(flow, sel.selectProofRequired);
  const canChange = useSelector(flow, sel.canChangeRules);
  const existing = useSelector(flow, (s) => sel.selectMode(s) === 'manage');
  return (
    <div className="field field--checkbox game-settings__proof">
      <label className="checkbox" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={checked}
          disabled={!canChange}
          aria-describedby={`${id}-hint`}
          onChange={(e) => flow.send({ type: 'rules.change', proofRequired: e.target.checked })}
        />{' '}
        Require approved proof before the next roll
      </label>
      <span id={`${id}-hint`} className="field__hint">
        {existing
          ? 'Saved at once; the board is not changed. '
          : ''}
        A team member sends a screenshot of the task and a referee approves it before the Leader may roll again.
      </span>
    </div>
  );
}

/**
 * The relief fields (docs/game-rules.md §15): 'Hours on a square before a new task may be asked
 * for' (empty = relief off, else 1 to 168) and 'New tasks per team' (0 to 10), checked as typed
 * (contract checkReliefDraft, its message under the fields). In setup they go with Create & Deploy
 * Game (which waits for them to be valid); on a game 'Save relief settings' saves them at once
 * (PUT .../rules) without touching the board.
 */
function ReliefFields({ flow, id }: { flow: EventGameRef; id: string }) {
  const draft = useSelector(flow, sel.selectReliefDraft);
  const canChange = useSelector(flow, sel.canChangeRules);
  const canSave = useSelector(flow, sel.canSaveRelief);
  const existing = useSelector(flow, (s) => sel.selectMode(s) === 'manage');
  const check = useMemo(() => checkReliefDraft(draft), [draft]);
  const errorId = `${id}-error`;
  const change = (field: keyof ReliefDraft, value: string) => flow.send({ type: 'relief.change', field, value });
  const bad = (field: keyof ReliefDraft) => !check.ok && check.field === field;
  return (
    <fieldset className="game-settings__relief" disabled={!canChange}>
      <legend className="field__label">Stuck-tile relief</legend>
      <div className="game-settings__grid">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-hours`}>Hours on a square before a new task may be asked for</label>
          <input
            id={`${id}-hours`}
            className="input"
            type="number"
            inputMode="numeric"
            min={RELIEF_LIMITS.minHours}
            max={RELIEF_LIMITS.maxHours}
            step={1}
            placeholder="Off"
            value={draft.afterHours}
            aria-invalid={bad('afterHours')}
            aria-describedby={bad('afterHours') ? errorId : `${id}-hint`}
            onChange={(e) => change('afterHours', e.target.value)}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-max`}>New tasks per team</label>
          <input
            id={`${id}-max`}
            className="input"
            type="number"
            inputMode="numeric"
            min={0}
            max={RELIEF_LIMITS.maxPerTeam}
            step={1}
            value={draft.maxPerTeam}
            aria-invalid={bad('maxPerTeam')}
            aria-describedby={bad('maxPerTeam') ? errorId : undefined}
            onChange={(e) => change('maxPerTeam', e.target.value)}
          />
        </div>
      </div>
      <span id={`${id}-hint`} className="field__hint">
        Empty: relief is off. Otherwise a team's Leader may ask for another task of the same tier after that many hours on a square.
      </span>
      {!check.ok && (
        <p id={errorId} className="notice notice--error" role="alert" data-testid="relief-error">
          {check.error}
        </p>
      )}
      {existing && (
        <div className="row">
          <button type="button" className="btn btn--small" disabled={!canSave} onClick={() => flow.send({ type: 'relief.save' })}>
            Save relief settings
          </button>
        </div>
      )}
    </fieldset>
  );
}

/** A required whole-number field of the form, from 0 (up to `max` when given). */
function CountInput({
  id,
  max,
  value,
  invalid,
  describedBy,
  onChange,
}: {
  id: string;
  max?: number;
  value: string;
  invalid: boolean;
  describedBy: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <input
      id={id}
      className="input"
      type="number"
      inputMode="numeric"
      required
      min={0}
      max={max}
      step={1}
      value={value}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
