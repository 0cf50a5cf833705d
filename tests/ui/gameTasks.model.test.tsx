// @vitest-environment jsdom
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { AvailableTask, BoardSquare, SquaresAnswer } from '../../contract/gameApi';
import { gameTasksMachine, type GameTasksEvent } from '../../machines/gameTasks.machine';
import { GameTasksView } from '../../src/features/game/GameTasksView';
import type { GameTasksEffects } from '../../src/features/game/effects';
import { ApiRequestError } from '../../src/api/client';
import { GAME_TASKS_TEXTS } from '../../contract/game/taskSquares';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';

/**
 * Model-based test of the gameTasks chart (docs/client.md §7, §11; docs/game-rules.md §13; docs/server.md
 * §3) through the rendered Game Tasks screen: paths generated from the real chart,
 * the fake server settling every call, squares dragged by keyboard (Space, an arrow, Space: dnd-kit's
 * keyboard sensor over laid-out squares) and the pencil, select and buttons of the swap-task modal;
 * every state asserted on the screen with the documented texts, written here.
 */

type Snap = SnapshotFrom<typeof gameTasksMachine>;
type Done<A extends string, T> = { type: `xstate.done.actor.${A}`; output: T };
type Failed<A extends string> = { type: `xstate.error.actor.${A}`; error: Error };
type ModelEvent =
  | GameTasksEvent
  | Done<'loadSquares' | 'reloadSquares', SquaresAnswer>
  | Failed<'loadSquares' | 'reloadSquares' | 'swapSquares' | 'fetchOptions' | 'assignTask'>
  | Done<'swapSquares' | 'assignTask', { message: string }>
  | Done<'fetchOptions', AvailableTask[]>;

const CLAN_ID = 7;
const EVENT_ID = 3;
const GAME_ID = 5;
const square = (id: number, task_id: number | null, task_description: string, task_difficulty: BoardSquare['task_difficulty']): BoardSquare => ({
  auto_rule: null,
  id,
  square_index: id - 100,
  task_id,
  task_description,
  task_difficulty,
});
const START = square(101, null, 'Start', null);
const SHRIMP = square(102, 11, 'Catch a shrimp', 'EASY');
const LOG = square(103, 12, 'Chop a log', 'EASY');
const BARROWS = square(104, 13, 'Barrows chest', 'MEDIUM');
const SNAKE = square(105, null, 'Snake', null);
const FINISH = square(106, null, 'Finish', null);
const BOARD = [START, SHRIMP, LOG, BARROWS, SNAKE, FINISH];
const NEW_TASK: AvailableTask = { id: 21, description: 'Fletch a bow', difficulty: 'EASY' };
/** The board after NEW_TASK was put on square 2. */
const ASSIGNED = BOARD.map((s) => (s.id === SHRIMP.id ? { ...s, task_id: NEW_TASK.id, task_description: NEW_TASK.description } : s));
const SWAPPED = 'Tasks swapped.';
const PUT = 'Task assigned to square 2.';

/** The drops a person can make with square 2 (Catch a shrimp, Easy): key pressed and square dropped on. */
const DROPS = [
  { key: '', over: SHRIMP }, // picked up and put back: not a swap
  { key: '{ArrowDown}', over: LOG }, // the other Easy square: swapped
  { key: '{ArrowRight}', over: BARROWS }, // the Medium column: refused
  { key: '{ArrowLeft}', over: START }, // the Start square: refused
];

const same = (a: readonly BoardSquare[], b: readonly BoardSquare[]) => JSON.stringify(a) === JSON.stringify(b);
const fail = <A extends string>(actor: A): Failed<A> => ({ type: `xstate.error.actor.${actor}`, error: new Error(`${actor} broke`) });

/** What the person and the fake server can cause in a state. */
function eventsOf(s: Snap): ModelEvent[] {
  const c = s.context;
  // A finished game's board comes back read-only.
  if (s.matches('loading')) return [{ type: 'xstate.done.actor.loadSquares', output: { squares: BOARD, finished: false } }, { type: 'xstate.done.actor.loadSquares', output: { squares: BOARD, finished: true } }, fail('loadSquares')];
  if (s.matches('failed')) return [{ type: 'squares.reload' }];
  if (s.matches({ loaded: 'swapping' })) return [{ type: 'xstate.done.actor.swapSquares', output: { message: SWAPPED } }, fail('swapSquares')];
  // A reload after a failed swap gets the server's unchanged board; after an assign, the board with the new task.
  // After the failed swap the game may also have finished meanwhile (a team reached the last square): the board comes back read-only.
  if (s.matches({ loaded: 'reloading' })) {
    const afterSwap = !same(c.squares, BOARD);
    return [
      { type: 'xstate.done.actor.reloadSquares', output: { squares: afterSwap ? BOARD : ASSIGNED, finished: false } },
      ...(afterSwap ? [{ type: 'xstate.done.actor.reloadSquares' as const, output: { squares: BOARD, finished: true } }] : []),
      fail('reloadSquares'),
    ];
  }
  if (s.matches({ loaded: 'idle' })) {
    // A changed board offers the same steps again: they are taken from the fixture board only.
    if (!same(c.squares, BOARD)) return [];
    return [
      ...DROPS.map((d): ModelEvent => ({ type: 'swap.request', activeId: SHRIMP.id, overId: d.over.id })),
      { type: 'assign.open', squareId: SNAKE.id },
      { type: 'assign.open', squareId: SHRIMP.id },
    ];
  }
  const cancel: ModelEvent = { type: 'assign.cancel' };
  if (s.matches({ loaded: 'assignBlocked' })) return [cancel];
  if (s.matches({ loaded: 'assignLoading' })) return [{ type: 'xstate.done.actor.fetchOptions', output: [NEW_TASK] }, { type: 'xstate.done.actor.fetchOptions', output: [] }, fail('fetchOptions'), cancel];
  if (s.matches({ loaded: 'assignChoosing' })) {
    if (c.options.length === 0) return [cancel];
    return c.selectedTaskId === null ? [{ type: 'assign.select', taskId: NEW_TASK.id }, cancel] : [{ type: 'assign.select', taskId: null }, { type: 'assign.submit' }, cancel];
  }
  if (s.matches({ loaded: 'assigning' })) return [{ type: 'xstate.done.actor.assignTask', output: { message: PUT } }, fail('assignTask')];
  return [];
}

/**
 * States by value and what the screen reads; a state reached by another event kind keeps its own
 * path, and so does the board after a cancel from each modal state (the blocked notice, the form
 * while its tasks load, the form).
 */
const serialize = (s: Snap, e?: ModelEvent, prev?: Snap) => {
  const c = s.context;
  const via = e?.type === 'swap.request' ? `swap→${e.overId}` : e?.type === 'assign.cancel' ? `cancel from ${JSON.stringify(prev?.value)}` : (e?.type ?? '');
  return JSON.stringify([s.value, c.squares.map((q) => q.task_id), c.error, c.assignSquareId, c.options.length, c.selectedTaskId, c.assignError, via]);
};

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  /** The banner text the last step must have shown (checked once, then cleared). */
  banner: string | null;
}

// dnd-kit measures squares with getBoundingClientRect, which is all zeros in jsdom: lay the squares
// out as the stylesheet does (one column a tier, squares stacked), so the keyboard sensor can move.
const COLUMN_KEYS = ['start', 'easy', 'medium', 'hard', 'elite', 'master', 'blank', 'finish'];
const realRect = HTMLElement.prototype.getBoundingClientRect;
beforeAll(() => {
  HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
    // The drag overlay stands where the square it shows stands.
    const overlay = this.matches('.task-square__body--overlay') ? this : this.querySelector('.task-square__body--overlay');
    const shown = overlay && document.querySelector(`li[data-square="${overlay.querySelector('.task-square__num')!.textContent!.slice(1)}"]`);
    if (shown) return (shown as HTMLElement).getBoundingClientRect();
    const li = this.closest('li[data-square]');
    const column = this.closest('[data-column]')?.getAttribute('data-column')?.toLowerCase();
    if (!li || !column) return realRect.call(this);
    const left = COLUMN_KEYS.indexOf(column) * 200;
    const top = 100 + [...li.parentElement!.children].indexOf(li) * 80;
    return { x: left, y: top, left, top, width: 160, height: 60, right: left + 160, bottom: top + 60, toJSON: () => ({}) } as DOMRect;
  };
});
afterAll(() => {
  HTMLElement.prototype.getBoundingClientRect = realRect;
});

const settle = (w: World, name: string, e: { type: string; output?: unknown; error?: Error }) =>
  act(() => (e.type.startsWith('xstate.done') ? w.fx.resolve(name, e.output) : w.fx.reject(name, new ApiRequestError(e.error!.message, 500))));
/** A square's drag handle (also while the modal hides the board from the accessibility tree). */
const handle = (s: BoardSquare) => screen.getByRole('button', { name: new RegExp(`^Square ${s.square_index}:`), hidden: true });
const dialog = () => screen.getByRole('dialog');
const taskSelect = () => within(dialog()).getByLabelText('New task') as HTMLSelectElement;

type Executor = ModelExecutor<World, Snap, ModelEvent>;
const EXECUTORS = {
  'xstate.done.actor.loadSquares': (w, { event }) => settle(w, 'fetchGameSquares', event),
  'xstate.error.actor.loadSquares': (w, { event }) => settle(w, 'fetchGameSquares', event),
  'xstate.done.actor.reloadSquares': (w, { event }) => settle(w, 'fetchGameSquares', event),
  'xstate.error.actor.reloadSquares': async (w, { event }) => {
    w.banner = 'Error loading data: reloadSquares broke';
    await settle(w, 'fetchGameSquares', event);
  },
  'squares.reload': (w) => w.user.click(screen.getByRole('button', { name: 'Retry' })),
  'swap.request': async (w, { event }) => {
    if (event.type !== 'swap.request') return;
    const drop = DROPS.find((d) => d.over.id === event.overId)!;
    if (drop.over.id === BARROWS.id) w.banner = 'You can only re-order squares within their own Difficulty Tier column. Drag-and-swap is not supported across columns.';
    if (drop.over.id === START.id) w.banner = 'Cannot swap tasks with Start, Finish, Ladder, or Snake squares.';
    handle(SHRIMP).focus();
    await w.user.keyboard('[Space]');
    // The keyboard sensor listens for the next keys from a zero-delay timer.
    await act(() => new Promise((r) => setTimeout(r, 0)));
    if (drop.key) await w.user.keyboard(drop.key);
    await w.user.keyboard('[Space]');
    await waitFor(() => expect(document.body.textContent).toContain(`was dropped on square ${drop.over.square_index}.`));
  },
  'xstate.done.actor.swapSquares': async (w, { event }) => {
    expect(w.fx.calls('swapGameSquares').at(-1)).toEqual([CLAN_ID, EVENT_ID, GAME_ID, SHRIMP.id, LOG.id]);
    w.banner = SWAPPED;
    await settle(w, 'swapGameSquares', event);
  },
  'xstate.error.actor.swapSquares': async (w, { event }) => {
    w.banner = 'Error saving task swap: swapSquares broke';
    await settle(w, 'swapGameSquares', event);
  },
  'assign.open': async (w, { event }) => {
    if (event.type !== 'assign.open') return;
    await w.user.click(screen.getByRole('button', { name: `Change task on square ${event.squareId - 100}` }));
  },
  'xstate.done.actor.fetchOptions': async (w, { event }) => {
    expect(w.fx.calls('fetchAvailableTasks').at(-1)).toEqual([CLAN_ID, EVENT_ID, GAME_ID, SHRIMP.id]);
    await settle(w, 'fetchAvailableTasks', event);
  },
  'xstate.error.actor.fetchOptions': (w, { event }) => settle(w, 'fetchAvailableTasks', event),
  'assign.select': async (w, { event }) => {
    if (event.type === 'assign.select') await w.user.selectOptions(taskSelect(), event.taskId === null ? '' : String(event.taskId));
  },
  'assign.submit': (w) => w.user.click(within(dialog()).getByRole('button', { name: 'Assign Task' })),
  'xstate.done.actor.assignTask': async (w, { event }) => {
    expect(w.fx.calls('assignSquareTask').at(-1)).toEqual([CLAN_ID, EVENT_ID, GAME_ID, SHRIMP.id, NEW_TASK.id]);
    w.banner = PUT;
    await settle(w, 'assignSquareTask', event);
  },
  'xstate.error.actor.assignTask': (w, { event }) => settle(w, 'assignSquareTask', event),
  // Close on the blocked notice, Cancel on the form.
  'assign.cancel': async (w) => {
    const button = within(dialog()).queryByRole('button', { name: 'Close' }) ?? within(dialog()).getByRole('button', { name: 'Cancel' });
    await w.user.click(button);
  },
} satisfies Record<ModelEvent['type'], Executor>;

const COLUMN_TITLES = ['Start Square', 'Easy', 'Medium', 'Hard', 'Elite', 'Master', 'Unassigned/Blank', 'Finish Square'];
const editButtons = () => screen.getAllByRole('button', { name: /^Change task on square/, hidden: true });
const expectModalClosed = () => expect(screen.queryByRole('dialog')).toBeNull();

/** The swap-task form for square 2: title, tier and current task. */
async function expectSwapForm(s: Snap) {
  const d = await screen.findByRole('dialog');
  within(d).getByRole('heading', { name: 'Swap Task on Square 2' });
  expect(d.querySelector('.swap-task__facts')!.textContent).toBe(`Difficulty: EasyCurrent task: ${s.context.squares[1].task_description}`);
  return d;
}

const ASSERTIONS: Record<string, (s: Snap, w: World) => Promise<void>> = {
  missingGame: async () => {
    expect((await screen.findByRole('alert')).textContent).toBe('Game ID is missing.');
    expect(screen.queryByText('Loading board squares...')).toBeNull();
    expect(screen.queryByRole('region', { name: /Easy/ })).toBeNull();
  },
  loading: async () => {
    screen.getByText('Loading board squares...');
    expect(screen.queryByRole('region', { name: /Easy/ })).toBeNull();
  },
  // A finished game: the squares with the reason, nothing to drag or replace.
  readOnly: async () => {
    expect((await screen.findByTestId('game-tasks-read-only')).textContent).toBe(GAME_TASKS_TEXTS.finished);
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 3, hidden: true }).map((h) => h.textContent)).toEqual(COLUMN_TITLES.map((t, i) => `${t} (${[1, 2, 1, 0, 0, 0, 1, 1][i]})`)));
    for (const b of editButtons()) expect(b.hasAttribute('disabled')).toBe(true);
    expect(handle(SHRIMP).getAttribute('aria-disabled')).toBe('true');
  },
  failed: async () => {
    expect((await screen.findByRole('alert')).textContent).toBe('Error loading data: loadSquares broke');
    screen.getByRole('button', { name: 'Retry' });
    expect(screen.queryByText('Loading board squares...')).toBeNull();
  },
  // The columns with their counts and every square with its task; a step's banner message.
  loaded: async (s, w) => {
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 3, hidden: true }).map((h) => h.textContent)).toEqual(COLUMN_TITLES.map((t, i) => `${t} (${[1, 2, 1, 0, 0, 0, 1, 1][i]})`)));
    for (const q of s.context.squares) {
      const fixed = q.task_difficulty === null;
      expect(handle(q).getAttribute('aria-label')).toBe(`Square ${q.square_index}: ${q.task_description}${fixed ? ' (cannot be moved)' : ''}`);
    }
    if (w.banner) {
      expect((await screen.findByTestId('game-banner')).textContent).toContain(w.banner);
      w.banner = null;
    }
    expect(screen.queryByText('Loading board squares...')).toBeNull();
  },
  'loaded.idle': async () => {
    await waitFor(() => expect(document.querySelector('.task-columns')!.getAttribute('aria-busy')).toBe('false'));
    await waitFor(expectModalClosed);
    for (const b of editButtons()) expect(b.hasAttribute('disabled')).toBe(false);
  },
  'loaded.swapping': async () => {
    expect(document.querySelector('.task-columns')!.getAttribute('aria-busy')).toBe('true');
    for (const b of editButtons()) expect(b.hasAttribute('disabled')).toBe(true);
  },
  'loaded.reloading': async () => {
    await waitFor(() => expect(document.querySelector('.task-columns')!.getAttribute('aria-busy')).toBe('true'));
    for (const b of editButtons()) expect(b.hasAttribute('disabled')).toBe(true);
    await waitFor(expectModalClosed);
  },
  'loaded.assignBlocked': async () => {
    const d = await screen.findByRole('dialog');
    within(d).getByRole('heading', { name: 'Cannot Assign Task' });
    within(d).getByText('Square 5 (Snake) has no difficulty. Only squares of a difficulty tier (Easy, Medium, Hard, Elite, Master) can have tasks.');
  },
  'loaded.assignLoading': async (s) => {
    const d = await expectSwapForm(s);
    within(d).getByText('Loading available tasks...');
    expect(within(d).getByRole('button', { name: 'Assign Task' }).hasAttribute('disabled')).toBe(true);
  },
  'loaded.assignChoosing': async (s) => {
    const d = await expectSwapForm(s);
    await waitFor(() => expect(within(d).queryByText('Loading available tasks...')).toBeNull());
    const alerts = within(d).queryAllByRole('alert').map((a) => a.textContent);
    if (s.context.options.length) {
      expect([...taskSelect().options].map((o) => o.textContent)).toEqual(['Choose a task...', NEW_TASK.description]);
      expect(taskSelect().value).toBe(s.context.selectedTaskId === null ? '' : String(s.context.selectedTaskId));
      expect(alerts).toEqual(s.context.assignError ? ['assignTask broke'] : []);
    } else if (s.context.assignError) {
      expect(alerts).toEqual(['Failed to fetch swap options: fetchOptions broke']);
    } else {
      within(d).getByText("No unassigned tasks of difficulty 'EASY' are available.");
    }
    expect(within(d).getByRole('button', { name: 'Assign Task' }).hasAttribute('disabled')).toBe(s.context.selectedTaskId === null);
  },
  'loaded.assigning': async (s) => {
    const d = await expectSwapForm(s);
    within(d).getByText('Assigning task...');
    expect(within(d).getByRole('button', { name: 'Cancel' }).hasAttribute('disabled')).toBe(true);
  },
};

modelTests<Snap, ModelEvent, World>({
  name: 'gameTasks',
  machine: gameTasksMachine,
  dropPrefixPaths: true,
  inputs: [{ gameId: GAME_ID }, { gameId: null }],
  passingThrough: ['resolving'],
  uncovered: {
    'loaded.idle -> squares.reload': 'The board offers Retry only on a load failure (failed); in loaded.idle no control of the Game Tasks screen sends squares.reload (docs/client.md §7 names no refresh).',
  },
  events: eventsOf,
  // A square dropped back on itself is no swap: the chart takes the event and does nothing.
  ignores: (_s, e) => e.type === 'swap.request' && e.activeId === e.overId,
  serialize,
  executors: EXECUTORS,
  assertions: ASSERTIONS,
  label: (e) =>
    e.type === 'swap.request'
      ? `drop on ${e.overId - 100}`
      : e.type === 'assign.open' || e.type === 'assign.select'
        ? `${e.type}(${'squareId' in e ? e.squareId - 100 : e.taskId})`
        : e.type.replace(/^xstate\.(done|error)\.actor\.(\w+)$/, '$1($2)'),
  render: (input) => {
    const fx = new FakeEffects();
    const effects: GameTasksEffects = {
      fetchGameSquares: fx.fn('fetchGameSquares'),
      swapGameSquares: fx.fn('swapGameSquares'),
      assignSquareTask: fx.fn('assignSquareTask'),
      fetchAvailableTasks: fx.fn('fetchAvailableTasks'),
    };
    render(<GameTasksView clanId={CLAN_ID} eventId={EVENT_ID} gameId={(input as { gameId: number | null }).gameId} onBack={() => {}} effects={effects} />);
    return { fx, user: userEvent.setup(), banner: null };
  },
  guards: (paths) => {
    // Every drop, both modal kinds and every failure text are shown by some path.
    const events = paths.flatMap((p) => p.steps.map((st) => st.event));
    for (const d of DROPS) expect(events.some((e) => e.type === 'swap.request' && e.overId === d.over.id)).toBe(true);
    for (const actor of ['loadSquares', 'reloadSquares', 'swapSquares', 'fetchOptions', 'assignTask']) expect(events.some((e) => e.type === `xstate.error.actor.${actor}`), actor).toBe(true);
  },
});
