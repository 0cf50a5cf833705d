import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { fromPromise } from 'xstate';
import * as v from 'valibot';
import { DEFAULT_TASK_SORT, taskPoolMachine, type TaskSortKey } from '../../../machines/taskPool.machine';
import * as sel from '../../../machines/taskPool.selectors';
import { csvImportMachine } from '../../../machines/csvImport.machine';
import * as csvSel from '../../../machines/csvImport.selectors';
import { selectDraft } from '../../../machines/confirmAction.selectors';
import { TIER_LABELS } from '../../../contract/game/tiers';
import {
  DIFFICULTIES,
  TASK_DESCRIPTION_MAX,
  TASK_REQUIRED,
  TaskDescriptionSchema,
  TASKS_CLEARED,
  type Difficulty,
  type Task,
} from '../../../contract/task';
import { firstIssueMessage } from '../../../contract/common';
import { AUTO_RULE_MESSAGES, AUTO_RULE_TYPES, AutoRuleSchema, DINK_TYPES, WOM_RULE_TYPES, isWomRuleType, womMetricError, type AutoRule, type AutoRuleType, type WomMetricLists } from '../../../contract/dink';
import { loadWomMetricLists, loadedWomMetricLists } from './womMetricLists';
import { autoRuleText, DINK_MIN_LABEL, DINK_NAMES_HINT, DINK_TYPE_LABELS } from '../dink/dinkTexts';
import { TASK_TEXTS } from './taskTexts';
import * as tasksApi from '../../api/tasks';
import { ConfirmDialog, useConfirmAction, type ConfirmActionRef, type Nothing } from '../../ui/ConfirmDialog';
import { CrudModals, NO_ROW, type CrudFlows, type CrudForm, type CrudTexts, type NamedRow } from '../../ui/CrudModals';
import { LoadFailed } from '../../ui/LoadFailed';
import { FadingNotice, Notice } from '../../ui/Notice';
import { isBannerFading, selectBannerMessage } from '../../../machines/banner.selectors';
import type { BannerRef } from '../game/GameBanner';
import { EditDeleteButtons } from '../../ui/RowActions';
import { Spinner } from '../../ui/Spinner';
import { PAGE_SIZES, paginate, type Page } from '../../ui/tableModel';
import { filterTasks, loadOtherClanPage, serverPage, sortTasks } from './taskTable';

/** The calls of the Tasks tab (docs/server.md §3), replaceable in tests. */
export interface TasksEffects {
  fetchClanTasks: typeof tasksApi.fetchClanTasks;
  fetchTaskPage: typeof tasksApi.fetchTaskPage;
  createTask: typeof tasksApi.createTask;
  updateTask: typeof tasksApi.updateTask;
  deleteTask: typeof tasksApi.deleteTask;
  deleteAllTasks: typeof tasksApi.deleteAllTasks;
  uploadTaskCsv: typeof tasksApi.uploadTaskCsv;
}

/** The real calls. */
const liveTasksEffects: TasksEffects = {
  fetchClanTasks: tasksApi.fetchClanTasks,
  fetchTaskPage: tasksApi.fetchTaskPage,
  createTask: tasksApi.createTask,
  updateTask: tasksApi.updateTask,
  deleteTask: tasksApi.deleteTask,
  deleteAllTasks: tasksApi.deleteAllTasks,
  uploadTaskCsv: tasksApi.uploadTaskCsv,
};

/** The note non-managers see (docs/client.md §8). */
export const READ_ONLY_TASKS_NOTE = 'Only Clan Admins and the Owner can manage and upload tasks.';

type PoolRef = ReturnType<typeof useActorRef<typeof taskPoolMachine>>;

/**
 * The task form rule (docs/game-rules.md §13): description and difficulty required; the
 * description as the server checks it (TaskDescriptionSchema: the text rule, at most 500); an
 * auto rule, when a type is chosen, as the server checks it (AutoRuleSchema, docs/server.md §13
 * and §17 Rules; Wise Old Man names against the metric lists once they are loaded, else the
 * server's 400 says it).
 */
export function validateTaskDraft(draft: Pick<TaskDraft, 'description' | 'difficulty'> & Partial<TaskDraft>): string | null {
  const description = v.safeParse(TaskDescriptionSchema, draft.description);
  if (!description.success) return firstIssueMessage(description.issues);
  if (!draft.difficulty) return TASK_REQUIRED;
  const rule = draftAutoRule(draft);
  return rule.ok ? null : rule.message;
}

/**
 * The create / edit task form: difficulty '' until one is chosen; the auto rule as typed (Dink
 * type '' for none, names one per line, min as text; docs/client.md §8).
 */
interface TaskDraft {
  description: string;
  difficulty: Difficulty | '';
  autoType: AutoRuleType | '';
  autoNames: string;
  autoMin: string;
  /** The team total as typed ('' for none). */
  autoTotal: string;
  /** Each name counts once (team totals of Dink types). */
  autoDistinct: boolean;
}

const NEW_TASK: TaskDraft = { description: '', difficulty: '', autoType: '', autoNames: '', autoMin: '', autoTotal: '', autoDistinct: false };

/** The draft of a task being edited: its fields and its auto rule (names one per line). */
const draftOf = (task: Task): TaskDraft => ({
  description: task.description,
  difficulty: task.difficulty,
  autoType: task.auto_rule?.type ?? '',
  autoNames: task.auto_rule?.names.join('\n') ?? '',
  autoMin: task.auto_rule?.min != null ? String(task.auto_rule.min) : '',
  autoTotal: task.auto_rule?.team_total != null ? String(task.auto_rule.team_total) : '',
  autoDistinct: task.auto_rule?.distinct ?? false,
});

/**
 * The auto rule of a draft: null without a Dink type, else the rule checked as the server checks
 * it (names one per line, blanks dropped; min only for a type that has one, blank for none), or
 * the refusal text.
 */
function draftAutoRule(draft: Partial<TaskDraft>, lists: WomMetricLists | null = loadedWomMetricLists()): { ok: true; rule: AutoRule | null } | { ok: false; message: string } {
  if (!draft.autoType) return { ok: true, rule: null };
  const minText = DINK_MIN_LABEL[draft.autoType] ? (draft.autoMin ?? '').trim() : '';
  if (minText !== '' && !/^[0-9]+$/.test(minText)) return { ok: false, message: AUTO_RULE_MESSAGES.min };
  const totalText = (draft.autoTotal ?? '').trim().replace(/,/g, '');
  if (totalText !== '' && !/^[0-9]+$/.test(totalText)) return { ok: false, message: AUTO_RULE_MESSAGES.teamTotal };
  const wom = isWomRuleType(draft.autoType);
  const names = (draft.autoNames ?? '').split('\n').map((n) => n.trim()).filter((n) => n !== '');
  const parsed = v.safeParse(AutoRuleSchema, {
    type: draft.autoType,
    names: draft.autoType === 'EHB' || draft.autoType === 'EHP' ? [] : names,
    min: minText === '' ? null : Number(minText),
    team_total: totalText === '' ? null : Number(totalText),
    distinct: !wom && totalText !== '' && (draft.autoDistinct ?? false),
  });
  if (!parsed.success) return { ok: false, message: firstIssueMessage(parsed.issues) };
  const metric = lists ? womMetricError(parsed.output, lists) : null;
  return metric ? { ok: false, message: metric } : { ok: true, rule: parsed.output };
}


/** The body of POST / PUT task from a valid draft. */
function taskBody(draft: TaskDraft) {
  if (!draft.difficulty) throw new Error(TASK_REQUIRED);
  const rule = draftAutoRule(draft);
  if (!rule.ok) throw new Error(rule.message);
  return { description: draft.description.trim(), difficulty: draft.difficulty, auto_rule: rule.rule };
}

/** The create, edit, delete (of a task: its id, and its description as the row's name) and delete-all flows of the tab. */
interface TaskFlows extends CrudFlows<TaskDraft> {
  removeAll: ConfirmActionRef<Nothing, Nothing>;
}

/**
 * The Tasks tab of clan management (docs/client.md §8, §11, §12; docs/game-rules.md §11, §13). Managers
 * get the collapsible Task CSV Importer, Create New Task, search, 'Show Other Clan Tasks', a
 * sortable table (Description, Difficulty, Clan Name, Action; difficulty ascending in tier order by
 * default) with edit and delete on this clan's rows, pagination 10 / 25 / 50 and Delete All
 * Tasks. Others see the read-only list with the note. With 'Show Other Clan Tasks' on, the table
 * pages through every clan's tasks on the server (docs/server.md §8 Task pool: the search
 * box is sent as `q` once typing pauses, the pager drives `offset`, the server's order is kept).
 * `effects` replaces the calls in tests.
 */
export function TasksTab({ clanId, isManager, effects = liveTasksEffects }: { clanId: number; isManager: boolean; effects?: TasksEffects }) {
  const logic = useMemo(
    () =>
      taskPoolMachine.provide({
        actors: {
          loadClanTasks: fromPromise(() => effects.fetchClanTasks(clanId)),
          loadTaskPage: fromPromise(({ input, signal }) => loadOtherClanPage(effects.fetchTaskPage, input, signal)),
        },
      }),
    [clanId, effects],
  );
  const pool = useActorRef(logic);
  const reload = () => pool.send({ type: 'tasks.reload' });
  const create = useConfirmAction<TaskDraft, Nothing>({
    closed: { draft: NEW_TASK, subject: {} },
    perform: async ({ draft }) => {
      await effects.createTask(clanId, taskBody(draft));
      return { message: 'Task created successfully.' };
    },
    validate: validateTaskDraft,
    onSucceeded: reload,
  });
  const edit = useConfirmAction<TaskDraft, NamedRow>({
    closed: { draft: NEW_TASK, subject: NO_ROW },
    perform: async ({ draft, subject }) => {
      await effects.updateTask(clanId, subject.id, taskBody(draft));
      return { message: 'Task updated successfully.' };
    },
    validate: validateTaskDraft,
    onSucceeded: reload,
  });
  const remove = useConfirmAction<Nothing, NamedRow>({
    closed: { draft: {}, subject: NO_ROW },
    perform: async ({ subject }) => {
      await effects.deleteTask(clanId, subject.id);
      return { message: 'Task deleted successfully.' };
    },
    onSucceeded: reload,
  });
  const removeAll = useConfirmAction<Nothing, Nothing>({
    closed: { draft: {}, subject: {} },
    perform: async () => ({ message: (await effects.deleteAllTasks(clanId)).message ?? TASKS_CLEARED }),
    onSucceeded: reload,
  });
  return (
    <section className="tasks-tab">
      {isManager ? (
        <CsvImporter clanId={clanId} effects={effects} onImported={reload} />
      ) : (
        <Notice tone="info">{READ_ONLY_TASKS_NOTE}</Notice>
      )}
      <TaskToolbar pool={pool} isManager={isManager} create={create} removeAll={removeAll} />
      <TaskTable pool={pool} clanId={clanId} isManager={isManager} edit={edit} remove={remove} />
      {isManager && <TaskModals create={create} edit={edit} remove={remove} removeAll={removeAll} />}
    </section>
  );
}

/** The collapsible 'Task CSV Importer' (docs/client.md §1, §11; docs/game-rules.md §13). */
function CsvImporter({ clanId, effects, onImported }: { clanId: number; effects: TasksEffects; onImported: () => void }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const id = useId();
  const logic = useMemo(
    () =>
      csvImportMachine.provide({
        actors: { uploadCsv: fromPromise(({ input }) => effects.uploadTaskCsv(clanId, input as File)) },
        actions: {
          notifyImported: () => {
            if (fileInput.current) fileInput.current.value = '';
            onImported();
          },
        },
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [clanId, effects],
  );
  const csv = useActorRef(logic);
  const uploading = useSelector(csv, csvSel.selectCsvUploading);
  const result = useSelector(csv, csvSel.selectCsvResult);
  const message = useSelector(csv, csvSel.selectCsvMessageRef);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    csv.send({ type: 'csv.upload' });
  };
  const unlisted = result ? (result.error_count ?? result.errors.length) - result.errors.length : 0;
  return (
    <details className="importer">
      <summary className="importer__summary">Task CSV Importer</summary>
      <form className="form importer__body" onSubmit={submit}>
        <p className="field__hint" data-testid="csv-hint">{TASK_TEXTS.csvHint}</p>
        <div className="row">
          <label className="sr-only" htmlFor={`${id}-file`}>CSV file</label>
          <input
            id={`${id}-file`}
            ref={fileInput}
            className="input importer__file"
            type="file"
            accept=".csv,text/csv"
            disabled={uploading}
            onChange={(e) => csv.send({ type: 'csv.select', file: e.target.files?.[0] ?? null })}
          />
          <button type="submit" className="btn btn--primary" disabled={uploading}>
            {uploading ? 'Uploading...' : 'Upload and Extract Tasks'}
          </button>
        </div>
        {message && <CsvMessage message={message} />}
        {result && (
          <div data-testid="csv-result">
            <p className="importer__counts">
              Skipped (already in the pool or repeated): {result.skipped_count}. Rows with errors: {result.error_count ?? result.errors.length}.
            </p>
            {result.errors.length > 0 && (
              <ul className="importer__errors">
                {result.errors.map((r) => (
                  <li key={`${r.row}-${r.message}`}>
                    Row {r.row}: {r.message}
                  </li>
                ))}
                {unlisted > 0 && <li>... and {unlisted} more rows with errors.</li>}
              </ul>
            )}
          </div>
        )}
      </form>
    </details>
  );
}

/** The importer's message (an error, or the upload's notice), fading after 5 s + 1 s (the chart's banner). */
function CsvMessage({ message }: { message: BannerRef }) {
  const shown = useSelector(message, selectBannerMessage);
  const fading = useSelector(message, isBannerFading);
  return <FadingNotice message={shown} fading={fading} testId={shown?.tone === 'error' ? 'csv-error' : 'csv-message'} />;
}

function TaskToolbar({ pool, isManager, create, removeAll }: { pool: PoolRef; isManager: boolean } & Pick<TaskFlows, 'create' | 'removeAll'>) {
  const search = useSelector(pool, sel.selectSearch);
  const showOthers = useSelector(pool, sel.selectShowOthers);
  return (
    <div className="toolbar">
      <input
        className="input toolbar__search"
        type="search"
        aria-label="Search tasks"
        placeholder="Search tasks..."
        value={search}
        onChange={(e) => pool.send({ type: 'table.search', value: e.target.value })}
      />
      {isManager && (
        <>
          <label className="switch">
            <input type="checkbox" checked={showOthers} onChange={() => pool.send({ type: 'tasks.toggleOthers' })} />
            <span>Show Other Clan Tasks</span>
          </label>
          <button type="button" className="btn btn--primary" onClick={() => create.send({ type: 'confirm.open', draft: NEW_TASK })}>
            Create New Task
          </button>
          <button type="button" className="btn btn--danger" onClick={() => removeAll.send({ type: 'confirm.open' })}>
            Delete All Tasks
          </button>
        </>
      )}
    </div>
  );
}

const COLUMNS: { key: TaskSortKey; label: string }[] = [
  { key: 'description', label: 'Description' },
  { key: 'difficulty', label: 'Difficulty' },
  { key: 'clan_name', label: 'Clan Name' },
];

function TaskTable({ pool, clanId, isManager, edit, remove }: { pool: PoolRef; clanId: number; isManager: boolean } & Pick<TaskFlows, 'edit' | 'remove'>) {
  const tasks = useSelector(pool, sel.selectTasks);
  const otherPage = useSelector(pool, sel.selectOtherPage);
  const showOthers = useSelector(pool, sel.selectShowOthers);
  const search = useSelector(pool, sel.selectSearch);
  const sort = useSelector(pool, sel.selectSort);
  const canSort = useSelector(pool, sel.selectCanSort);
  const pageNo = useSelector(pool, sel.selectPage);
  const pageSize = useSelector(pool, sel.selectPageSize);
  const loading = useSelector(pool, sel.selectTasksLoading);
  const busy = useSelector(pool, sel.selectTasksBusy);
  const failed = useSelector(pool, sel.selectTasksFailed);
  const error = useSelector(pool, sel.selectTasksError);
  const filtered = useMemo(() => filterTasks(tasks, search), [tasks, search]);
  const sorted = useMemo(() => sortTasks(filtered, sort), [filtered, sort]);
  if (loading) return <Spinner text="Loading tasks..." />;
  if (failed) return <LoadFailed error={error} onRetry={() => pool.send({ type: 'tasks.reload' })} />;
  // Other clans' tasks: the page the server answered, in its order; the own pool: filtered, sorted and paged here.
  const page = showOthers && otherPage
    ? serverPage(otherPage.tasks, otherPage.offset, otherPage.total, pageNo, pageSize)
    : paginate(sorted, pageNo, pageSize);
  const filteredFrom = showOthers ? (otherPage?.unfilteredTotal ?? null) : search.trim() ? tasks.length : null;
  const shownSort = canSort ? sort : DEFAULT_TASK_SORT;
  const columns = isManager ? 4 : 3;
  return (
    <>
      <div className="table-scroll">
        <table className="table tasks-table cards-sm" aria-busy={busy}>
          <thead>
            <tr>
              {COLUMNS.map((c) => {
                const active = shownSort.key === c.key;
                return (
                  <th key={c.key} scope="col" aria-sort={active ? (shownSort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
                    <button
                      type="button"
                      className="sort-button"
                      disabled={!canSort}
                      title={canSort ? undefined : 'Other clans\' tasks are listed by difficulty, then description.'}
                      onClick={() => pool.send({ type: 'table.sort', key: c.key })}
                    >
                      {c.label}
                      <span aria-hidden="true" className="sort-button__arrow">{active ? (shownSort.direction === 'asc' ? ' ▲' : ' ▼') : canSort ? ' ↕' : ''}</span>
                    </button>
                  </th>
                );
              })}
              {isManager && <th scope="col">Action</th>}
            </tr>
          </thead>
          <tbody>
            {page.rows.length === 0 ? (
              <tr>
                <td colSpan={columns} className="table__empty">{search.trim() ? `No tasks found matching "${search}".` : 'No tasks in the pool yet.'}</td>
              </tr>
            ) : (
              page.rows.map((t) => <TaskRow key={t.id} task={t} own={t.clan_id === clanId} isManager={isManager} edit={edit} remove={remove} />)
            )}
          </tbody>
        </table>
      </div>
      <Pagination pool={pool} page={page} pageSize={pageSize} filteredFrom={filteredFrom} />
    </>
  );
}

function TaskRow({ task, own, isManager, edit, remove }: { task: Task; own: boolean; isManager: boolean } & Pick<TaskFlows, 'edit' | 'remove'>) {
  return (
    <tr>
      <td className="tasks-table__description">
        {task.description}
        {task.auto_rule && (
          <span className="muted auto-rule" data-testid="task-auto-rule">
            <br />
            {isWomRuleType(task.auto_rule.type) ? 'Wise Old Man' : 'Dink'}: {autoRuleText(task.auto_rule)}
          </span>
        )}
      </td>
      <td data-label="Difficulty">
        <span className={`tier tier--${task.difficulty.toLowerCase()}`}>{TIER_LABELS[task.difficulty]}</span>
      </td>
      <td data-label="Clan Name">{task.clan_name}</td>
      {isManager && (
        <td data-label="Action">
          {own ? (
            <div className="row row--nowrap">
              <EditDeleteButtons
                label={`task ${task.description}`}
                onEdit={() => edit.send({ type: 'confirm.open', subject: { id: task.id, name: task.description }, draft: draftOf(task) })}
                onDelete={() => remove.send({ type: 'confirm.open', subject: { id: task.id, name: task.description } })}
              />
            </div>
          ) : (
            <span className="muted">Other clan</span>
          )}
        </td>
      )}
    </tr>
  );
}

function Pagination({ pool, page, pageSize, filteredFrom }: { pool: PoolRef; page: Page<Task>; pageSize: number; filteredFrom: number | null }) {
  const id = useId();
  return (
    <div className="pager">
      <label className="pager__size" htmlFor={`${id}-size`}>
        Rows per page
      </label>
      <select id={`${id}-size`} className="input input--small" value={pageSize} onChange={(e) => pool.send({ type: 'table.pageSize', size: Number(e.target.value) })}>
        {PAGE_SIZES.map((n) => (
          <option key={n} value={n}>{n}</option>
        ))}
      </select>
      <span className="pager__range" data-testid="task-range">
        {page.from}-{page.to} of {page.total} tasks{filteredFrom !== null ? ` (Filtered from ${filteredFrom})` : ''}
      </span>
      <div className="row row--nowrap">
        <button type="button" className="btn btn--small" disabled={page.page <= 1} onClick={() => pool.send({ type: 'table.page', page: page.page - 1 })}>
          Previous
        </button>
        <span aria-live="polite">
          Page {page.page} of {page.pageCount}
        </span>
        <button type="button" className="btn btn--small" disabled={page.page >= page.pageCount} onClick={() => pool.send({ type: 'table.page', page: page.page + 1 })}>
          Next
        </button>
      </div>
    </div>
  );
}

/** Description and difficulty fields of the create / edit task modals. */
function TaskFormFields<TSubject extends object>({ actor }: { actor: ConfirmActionRef<TaskDraft, TSubject> }) {
  const draft = useSelector(actor, selectDraft);
  const id = useId();
  return (
    <div className="stack">
      <label className="field">
        <span className="field__label">Description</span>
        <textarea
          className="input"
          rows={3}
          maxLength={TASK_DESCRIPTION_MAX}
          autoFocus
          value={draft.description}
          onChange={(e) => actor.send({ type: 'confirm.change', field: 'description', value: e.target.value })}
        />
      </label>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-difficulty`}>Difficulty</label>
        <select id={`${id}-difficulty`} className="input" value={draft.difficulty} onChange={(e) => actor.send({ type: 'confirm.change', field: 'difficulty', value: DIFFICULTIES.find((d) => d === e.target.value) ?? '' })}>
          <option value="">Select a difficulty</option>
          {DIFFICULTIES.map((d) => (
            <option key={d} value={d}>{TIER_LABELS[d]}</option>
          ))}
        </select>
      </div>
      <AutoRuleFields actor={actor} />
    </div>
  );
}

/**
 * The task's auto rule in the create / edit modals (docs/client.md §8; docs/server.md §13 and §17
 * Rules): a type (None, the ten Dink types, then the four Wise Old Man types), the names one per
 * line (none for EHB and EHP; for XP and KC a 'Add a Wise Old Man name' picker filled from the
 * metric lists, loaded on demand so the package stays out of the app's first chunks), the minimum
 * for the types that have one, the team total and, for Dink types with a total, 'Each name counts
 * once'.
 */
function AutoRuleFields<TSubject extends object>({ actor }: { actor: ConfirmActionRef<TaskDraft, TSubject> }) {
  const draft = useSelector(actor, selectDraft);
  const id = useId();
  const type = draft.autoType;
  const wom = type !== '' && isWomRuleType(type);
  const minLabel = type && !wom ? DINK_MIN_LABEL[type] : null;
  const [lists, setLists] = useState<WomMetricLists | null>(loadedWomMetricLists());
  useEffect(() => {
    if ((type === 'XP' || type === 'KC') && lists === null) {
      let live = true;
      void loadWomMetricLists().then((l) => live && setLists(l), () => undefined);
      return () => {
        live = false;
      };
    }
  }, [type, lists]);
  const change = (field: 'autoNames' | 'autoMin' | 'autoTotal', value: string) => actor.send({ type: 'confirm.change', field, value });
  const choices = type === 'XP' ? lists?.skills : type === 'KC' ? lists?.killables : undefined;
  return (
    <fieldset className="auto-rule-fields">
      <legend className="field__label">Proof from Dink or Wise Old Man (optional)</legend>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-type`}>Dink type</label>
        <select id={`${id}-type`} className="input" value={type} onChange={(e) => actor.send({ type: 'confirm.change', field: 'autoType', value: AUTO_RULE_TYPES.find((t) => t === e.target.value) ?? '' })}>
          <option value="">None (a referee reviews uploads)</option>
          <optgroup label="Dink">
            {DINK_TYPES.map((t) => (
              <option key={t} value={t}>{DINK_TYPE_LABELS[t]}</option>
            ))}
          </optgroup>
          <optgroup label="Wise Old Man (team totals)">
            {WOM_RULE_TYPES.map((t) => (
              <option key={t} value={t}>{DINK_TYPE_LABELS[t]}</option>
            ))}
          </optgroup>
        </select>
      </div>
      {type && (
        <>
          {type !== 'EHB' && type !== 'EHP' ? (
            <div className="field">
              <label className="field__label" htmlFor={`${id}-names`}>Names that count</label>
              <textarea id={`${id}-names`} className="input" rows={3} aria-describedby={`${id}-names-hint`} value={draft.autoNames} onChange={(e) => change('autoNames', e.target.value)} />
              <span id={`${id}-names-hint`} className="field__hint">{DINK_NAMES_HINT[type]} Compared ignoring case.</span>
              {choices && (
                <select
                  className="input"
                  aria-label="Add a Wise Old Man name"
                  value=""
                  onChange={(e) => e.target.value && change('autoNames', draft.autoNames.trim() === '' ? e.target.value : `${draft.autoNames.replace(/\n+$/, '')}\n${e.target.value}`)}
                >
                  <option value="">Add a Wise Old Man name…</option>
                  {choices.map((m) => (
                    <option key={m} value={m}>{m}</option>
                  ))}
                </select>
              )}
            </div>
          ) : (
            <p className="field__hint">{DINK_NAMES_HINT[type]}</p>
          )}
          {minLabel && (
            <div className="field">
              <label className="field__label" htmlFor={`${id}-min`}>{minLabel} (optional)</label>
              <input id={`${id}-min`} className="input input--small" type="text" inputMode="numeric" value={draft.autoMin} onChange={(e) => change('autoMin', e.target.value)} />
            </div>
          )}
          <div className="field">
            <label className="field__label" htmlFor={`${id}-total`}>{wom ? 'Team total' : 'Team total (optional)'}</label>
            <input id={`${id}-total`} className="input input--small" type="text" inputMode="numeric" aria-describedby={`${id}-total-hint`} value={draft.autoTotal} onChange={(e) => change('autoTotal', e.target.value)} />
            <span id={`${id}-total-hint`} className="field__hint">What the whole team sums to on the square ({TOTAL_UNIT_HINT[type]}); leave blank for one post that meets the rule.</span>
          </div>
          {!wom && (
            <label className="field field--inline">
              <input type="checkbox" checked={draft.autoDistinct} onChange={(e) => actor.send({ type: 'confirm.change', field: 'autoDistinct', value: e.target.checked })} />
              <span>Each name counts once (a total of 3 means any three of the names)</span>
            </label>
          )}
        </>
      )}
    </fieldset>
  );
}

/** What a team total counts for each type (docs/server.md §17 Rules), in the total's hint. */
const TOTAL_UNIT_HINT: Record<AutoRuleType, string> = {
  LOOT: 'items',
  COLLECTION: 'posts, or items with each name once',
  KILL_COUNT: 'kills',
  LEVEL: 'posts',
  QUEST: 'posts',
  CLUE: 'posts',
  PET: 'posts',
  COMBAT_ACHIEVEMENT: 'posts',
  ACHIEVEMENT_DIARY: 'posts',
  SLAYER: 'posts',
  XP: 'experience gained',
  KC: 'kills or score gained',
  EHB: 'whole hours gained',
  EHP: 'whole hours gained',
};

/** The create, edit and delete modals of the task pool (docs/client.md §8). */
const TASK_MODALS: CrudTexts = {
  create: { title: 'Create New Task', confirmLabel: 'Create Task', processingText: 'Creating task...' },
  edit: { title: 'Edit Task', confirmLabel: 'Save Task', processingText: 'Saving task...' },
  remove: { title: 'Delete Task', confirmLabel: 'Delete Task', processingText: 'Deleting task...' },
  deleteQuestion: (name) => <>Delete the task {name} from the clan pool?</>,
};

/** The task form of the create and edit modals (its validation answers a submit). */
const TASK_FORM: CrudForm<TaskDraft> = { Fields: TaskFormFields };

function TaskModals({ create, edit, remove, removeAll }: TaskFlows) {
  return (
    <>
      <CrudModals texts={TASK_MODALS} form={TASK_FORM} create={create} edit={edit} remove={remove} />
      <ConfirmDialog actor={removeAll} title="Delete All Tasks" confirmLabel="Delete All Tasks" processingText="Deleting tasks..." danger>
        <p>Delete every task of this clan's pool? This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
