import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragStartEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, rectSwappingStrategy, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable';
import * as Dialog from '@radix-ui/react-dialog';
import { useActorRef, useSelector } from '@xstate/react';
import { useId, useMemo, useState, type CSSProperties, type FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import { bannerMachine } from '../../../machines/banner.machine';
import { GAME_TASKS_TEXTS, isFixedSquare, tierOfSquare } from '../../../contract/game/taskSquares';
import { gameTasksMachine } from '../../../machines/gameTasks.machine';
import * as sel from '../../../machines/gameTasks.selectors';
import type { BoardSquare } from '../../../contract/gameApi';
import { TIER_LABELS } from '../../../contract/game/tiers';
import { LoadFailed } from '../../ui/LoadFailed';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { ManageFrame } from './ManageFrame';
import { liveGameTasksEffects, type GameTasksEffects } from './effects';
import { latestCall, useLatest } from './latest';
import { TASK_COLUMNS, groupSquares, squareTaskLabel, type TaskColumnKey } from './taskColumns';
import { ChartDialogContent } from '../../ui/Modal';

type TasksRef = ActorRefFrom<typeof gameTasksMachine>;

/** Screen-reader instructions of the drag and drop (keyboard: Space, arrows, Space). */
const INSTRUCTIONS =
  'To pick up a square, press Space or Enter. Use the arrow keys to move it over another square of the same column, then press Space or Enter to drop it and swap the two tasks. Press Escape to cancel.';

/**
 * The Game Tasks screen of an event's game (docs/client.md §7, §11; docs/game-rules.md §6, §13; docs/server.md
 * §3): 'Back to Event List'; 'Game ID is missing.' without a game; the
 * board squares in columns Start Square, Easy, Medium, Hard, Elite, Master, Unassigned/Blank and
 * Finish Square with their counts; drag a square onto another of its column to swap their tasks
 * (mouse, touch, or keyboard: focus a square, Space, arrows, Space), with the documented refusals for
 * other columns and fixed squares; an edit icon opens the swap-task modal to put an unassigned
 * pool task of the square's tier on it. After a swap or assign the server broadcasts the new board
 * to open game screens. A finished game's squares are shown read-only with the reason (nothing
 * can be dragged or replaced: the server would refuse). `effects` replaces the calls in tests.
 */
export function GameTasksView({
  clanId,
  eventId,
  gameId,
  onBack,
  effects = liveGameTasksEffects,
}: {
  clanId: number;
  eventId: number;
  gameId: number | null;
  onBack: () => void;
  effects?: GameTasksEffects;
}) {
  return <GameTasksFlow key={gameId ?? 'none'} clanId={clanId} eventId={eventId} gameId={gameId} onBack={onBack} effects={effects} />;
}

function GameTasksFlow({
  clanId,
  eventId,
  gameId,
  onBack,
  effects,
}: {
  clanId: number;
  eventId: number;
  gameId: number | null;
  onBack: () => void;
  effects: GameTasksEffects;
}) {
  const banner = useActorRef(bannerMachine);
  // The actor lives as long as the screen; its implementations read the current props through this ref.
  const latest = useLatest({ clanId, eventId, effects });
  const tasks = useActorRef(
    gameTasksMachine.provide({
      actors: {
        loadSquares: latestCall(latest, (fx, clan, event, input: { gameId: number }) => fx.fetchGameSquares(clan, event, input.gameId)),
        swapSquares: latestCall(latest, (fx, clan, event, input: { gameId: number; square1Id: number; square2Id: number }): Promise<{ message: string }> =>
          fx.swapGameSquares(clan, event, input.gameId, input.square1Id, input.square2Id),
        ),
        fetchOptions: latestCall(latest, (fx, clan, event, input: { gameId: number; squareId: number }) =>
          fx.fetchAvailableTasks(clan, event, input.gameId, input.squareId),
        ),
        assignTask: latestCall(latest, (fx, clan, event, input: { gameId: number; squareId: number; taskId: number }): Promise<{ message: string }> =>
          fx.assignSquareTask(clan, event, input.gameId, input.squareId, input.taskId),
        ),
      },
      actions: { notify: (_, notice) => banner.send({ type: 'message.show', ...notice }) },
    }),
    { input: { gameId } },
  );
  const phase = useSelector(tasks, sel.selectPhase);
  const loadError = useSelector(tasks, sel.selectLoadError);
  return (
    <ManageFrame name="game-tasks" backLabel="Back to Event List" onBack={onBack} title="Managing: Game Tasks" banner={banner}>
      {phase === 'missingGame' && <Notice tone="error">{GAME_TASKS_TEXTS.missingGame}</Notice>}
      {phase === 'loading' && <Spinner text="Loading board squares..." />}
      {phase === 'failed' && <LoadFailed error={loadError} onRetry={() => tasks.send({ type: 'squares.reload' })} />}
      {phase === 'readOnly' && <Notice tone="info" testId="game-tasks-read-only">{GAME_TASKS_TEXTS.finished}</Notice>}
      {(phase === 'loaded' || phase === 'readOnly') && <TaskBoard tasks={tasks} />}
      <SwapTaskDialog tasks={tasks} />
    </ManageFrame>
  );
}

/** The tier columns with drag and drop. */
function TaskBoard({ tasks }: { tasks: TasksRef }) {
  const squares = useSelector(tasks, sel.selectSquares);
  const editable = useSelector(tasks, sel.canEdit);
  const busy = useSelector(tasks, sel.isBusy);
  const groups = useMemo(() => groupSquares(squares), [squares]);
  const byId = useMemo(() => new Map(squares.map((s) => [s.id, s])), [squares]);
  // The square under the pointer while dragging, for the overlay only (dnd-kit's drag state).
  const [activeId, setActiveId] = useState<UniqueIdentifier | null>(null);
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const name = (id: UniqueIdentifier | undefined) => {
    const s = id === undefined ? undefined : byId.get(Number(id));
    return s ? `square ${s.square_index}` : 'the square';
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${name(active.id)}.`,
    onDragOver: ({ active, over }) => (over ? `${capital(name(active.id))} is over ${name(over.id)}.` : `${capital(name(active.id))} is no longer over a square.`),
    onDragEnd: ({ active, over }) => (over ? `${capital(name(active.id))} was dropped on ${name(over.id)}.` : `${capital(name(active.id))} was dropped.`),
    onDragCancel: ({ active }) => `Moving ${name(active.id)} was cancelled.`,
  };
  const onDragStart = (e: DragStartEvent) => setActiveId(e.active.id);
  const onDragEnd = (e: DragEndEvent) => {
    setActiveId(null);
    if (e.over) tasks.send({ type: 'swap.request', activeId: Number(e.active.id), overId: Number(e.over.id) });
  };
  const active = activeId === null ? undefined : byId.get(Number(activeId));
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={() => setActiveId(null)}
      accessibility={{ announcements, screenReaderInstructions: { draggable: INSTRUCTIONS } }}
    >
      <p className="muted game-tasks__hint">
        Drag a square onto another square of the same column to swap their tasks (keyboard: focus a square, press Space, move with the arrow keys, press
        Space again). Use the pencil to put a different task from the clan pool on a square.
      </p>
      <div className="task-columns" aria-busy={busy}>
        {TASK_COLUMNS.map((column) => (
          <TaskColumn key={column.key} columnKey={column.key} title={column.title} squares={groups[column.key]} tasks={tasks} editable={editable} />
        ))}
      </div>
      <DragOverlay>{active ? <SquareCardBody square={active} overlay /> : null}</DragOverlay>
    </DndContext>
  );
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function TaskColumn({ columnKey, title, squares, tasks, editable }: { columnKey: TaskColumnKey; title: string; squares: BoardSquare[]; tasks: TasksRef; editable: boolean }) {
  const headingId = useId();
  return (
    <section className={`task-column task-column--${columnKey.toLowerCase()}`} aria-labelledby={headingId} data-column={columnKey}>
      <h3 id={headingId} className="task-column__title">
        {title.split('/').map((part, i) => (
          <span key={part}>
            {i > 0 && (
              <>
                /<wbr />
              </>
            )}
            {part}
          </span>
        ))}{' '}
        <span className="task-column__count">({squares.length})</span>
      </h3>
      <SortableContext items={squares.map((s) => s.id)} strategy={rectSwappingStrategy}>
        <ul className="task-column__list">
          {squares.map((s) => (
            <SquareCard key={s.id} square={s} tasks={tasks} editable={editable} />
          ))}
          {squares.length === 0 && <li className="task-column__empty">No squares</li>}
        </ul>
      </SortableContext>
    </section>
  );
}

/** One square of a column: its drag handle (number and task) and the edit icon. */
function SquareCard({ square, tasks, editable }: { square: BoardSquare; tasks: TasksRef; editable: boolean }) {
  const fixed = isFixedSquare(square);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging, isOver } = useSortable({
    id: square.id,
    disabled: { draggable: fixed || !editable, droppable: !editable },
  });
  const style: CSSProperties = {
    transform: transform ? `translate3d(${Math.round(transform.x)}px, ${Math.round(transform.y)}px, 0)` : undefined,
    transition,
  };
  const label = `Square ${square.square_index}: ${squareTaskLabel(square)}${fixed ? ' (cannot be moved)' : ''}`;
  const classes = ['task-square', fixed ? 'task-square--fixed' : '', isDragging ? 'task-square--dragging' : '', isOver && !isDragging ? 'task-square--over' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <li ref={setNodeRef} style={style} className={classes} data-square={square.square_index}>
      <div
        ref={setActivatorNodeRef}
        className="task-square__handle"
        {...attributes}
        {...listeners}
        tabIndex={fixed ? -1 : 0}
        aria-disabled={fixed || !editable}
        aria-label={label}
      >
        <SquareCardBody square={square} />
      </div>
      <button
        type="button"
        className="task-square__edit"
        aria-label={`Change task on square ${square.square_index}`}
        disabled={!editable}
        onClick={() => tasks.send({ type: 'assign.open', squareId: square.id })}
      >
        ✎
      </button>
    </li>
  );
}

function SquareCardBody({ square, overlay = false }: { square: BoardSquare; overlay?: boolean }) {
  const label = squareTaskLabel(square);
  return (
    <span className={overlay ? 'task-square__body task-square__body--overlay' : 'task-square__body'}>
      <span className="task-square__num">#{square.square_index}</span>
      <span className={square.task_description ? 'task-square__task' : 'task-square__task task-square__task--empty'} title={label}>
        {label}
      </span>
    </span>
  );
}

/**
 * What the swap-task modal shows of the gameTasks chart: whether it is open, blocked (a square
 * without a tier), loading the options or assigning; whether Assign may be pressed; the square
 * and its tier; the options, the selected one and the error.
 */
function useAssignView(tasks: TasksRef) {
  const squares = useSelector(tasks, sel.selectSquares);
  const squareId = useSelector(tasks, sel.selectAssignSquareId);
  return {
    open: useSelector(tasks, sel.isAssignOpen),
    blocked: useSelector(tasks, sel.isAssignBlocked),
    loadingOptions: useSelector(tasks, sel.isAssignLoading),
    assigning: useSelector(tasks, sel.isAssigning),
    canAssign: useSelector(tasks, sel.canAssign),
    options: useSelector(tasks, sel.selectOptions),
    selected: useSelector(tasks, sel.selectSelectedTaskId),
    error: useSelector(tasks, sel.selectAssignError),
    square: squares.find((s) => s.id === squareId),
    tier: tierOfSquare(squares, squareId),
  };
}

/** The swap-task modal: pick an unassigned pool task of the square's tier. */
function SwapTaskDialog({ tasks }: { tasks: TasksRef }) {
  const id = useId();
  const { open, blocked, loadingOptions, assigning, canAssign, options, selected, error, square, tier } = useAssignView(tasks);
  const cancel = () => tasks.send({ type: 'assign.cancel' });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    tasks.send({ type: 'assign.submit' });
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && !assigning && cancel()}>
      <ChartDialogContent open={open} className="dialog panel" aria-describedby={undefined}>
        {blocked ? (
          <>
            <Dialog.Title className="dialog__title">{GAME_TASKS_TEXTS.cannotAssign}</Dialog.Title>
            <p>
              Square {square?.square_index} ({square ? squareTaskLabel(square) : ''}) has no difficulty. Only squares of a difficulty tier (Easy, Medium, Hard,
              Elite, Master) can have tasks.
            </p>
            <div className="row dialog__actions">
              <button type="button" className="btn btn--primary" autoFocus onClick={cancel}>
                Close
              </button>
            </div>
          </>
        ) : (
          <form className="form" onSubmit={submit}>
            <Dialog.Title className="dialog__title">Swap Task on Square {square?.square_index}</Dialog.Title>
            <p className="swap-task__facts">
              Difficulty: <strong>{tier ? TIER_LABELS[tier] : ''}</strong>
              <br />
              Current task: {square ? squareTaskLabel(square) : ''}
            </p>
            {loadingOptions && <Spinner text="Loading available tasks..." />}
            {!loadingOptions && error === null && options.length === 0 && tier && (
              <Notice tone="warning">{GAME_TASKS_TEXTS.noCandidates(tier)}</Notice>
            )}
            {options.length > 0 && (
              <div className="field">
                <label className="field__label" htmlFor={`${id}-task`}>
                  New task
                </label>
                <select
                  id={`${id}-task`}
                  className="input"
                  value={selected === null ? '' : String(selected)}
                  disabled={assigning}
                  onChange={(e) => tasks.send({ type: 'assign.select', taskId: e.target.value === '' ? null : Number(e.target.value) })}
                >
                  <option value="">Choose a task...</option>
                  {options.map((t) => (
                    <option key={t.id} value={String(t.id)}>
                      {t.description}
                    </option>
                  ))}
                </select>
              </div>
            )}
            {error && <Notice tone="error">{error}</Notice>}
            {assigning && <p className="muted" role="status">Assigning task...</p>}
            <div className="row dialog__actions">
              <button type="button" className="btn" disabled={assigning} onClick={cancel}>
                Cancel
              </button>
              <button type="submit" className="btn btn--primary" disabled={!canAssign}>
                Assign Task
              </button>
            </div>
          </form>
        )}
      </ChartDialogContent>
    </Dialog.Root>
  );
}
