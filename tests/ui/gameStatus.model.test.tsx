// @vitest-environment jsdom
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects, fakeGameEffects } from '../support/effects';
import { FakeSocket } from '../support/fakeSocket';
import { fixtureGame } from '../support/gameFixtures';
import { gameStatusMachine, type GameStatusEvent } from '../../machines/gameStatus.machine';
import { STATUS_CONTROLS, STATUS_LABELS } from '../../machines/gameStatus.selectors';
import { GAME_STATUS_MESSAGES, statusLabel, statusToChartState, type GameChartState, type GameStatus } from '../../contract/game/status';
import type { Game } from '../../contract/gameApi';
import { ApiRequestError } from '../../src/api/client';
import { EventGameView, GAME_DIALOG_TEXTS } from '../../src/features/game/EventGameView';

/**
 * Model-based test of the gameStatus chart (docs/game-rules.md §6) through the
 * rendered Event Game view: shortest paths generated from the chart by the chart-model harness, each step
 * caused through the screen — the status control (Start Game / Pause Game / Resume Game), the
 * Reset Game button and its confirmation dialog, Refresh (a reload that brings a new server
 * status: game.statusChanged), and the fake server settling the status call (done / error) — and
 * every state asserted on the screen: the status badge, the control's label and whether it and
 * Reset can be pressed, the progress text, and the banner messages. An unknown action is sent
 * through the same control with its action value altered: 'Unknown game action: {action}'.
 */

type Snap = SnapshotFrom<typeof gameStatusMachine>;
type Done = { type: 'xstate.done.actor.changeStatus'; output: { status: GameStatus } };
type Failed = { type: 'xstate.error.actor.changeStatus'; error: Error };
type ModelEvent = GameStatusEvent | Done | Failed;

const CLAN = 1;
const EVENT = 2;
const GAME = 3;
const STATUSES: GameStatus[] = ['PENDING', 'READY', 'in-progress', 'paused', 'finished'];
/** Server status of each chart state (the inverse of statusToChartState on the statuses above). */
const SERVER_STATUS: Record<GameChartState, GameStatus> = { pending: 'PENDING', ready: 'READY', inProgress: 'in-progress', paused: 'paused', finished: 'finished' };
const FAILURE = 'Game is already paused.';
const UNKNOWN = 'explode';

/** The state nodes of the chart (resolving is transient and never rests). */
type StateNode =
  | 'pending'
  | 'pending.idle'
  | 'pending.changing'
  | 'ready'
  | 'ready.idle'
  | 'ready.changing'
  | 'inProgress'
  | 'inProgress.idle'
  | 'inProgress.changing'
  | 'paused'
  | 'paused.idle'
  | 'paused.changing'
  | 'finished';

/** A 25-square game of two teams in `status`. */
function fakeGame(status: GameStatus): Game {
  const squares = Array.from({ length: 25 }, (_, i) => {
    const n = i + 1;
    if (n === 1) return { id: 100 + n, square_index: n, task_id: null, task_description: 'Start', task_difficulty: null };
    if (n === 25) return { id: 100 + n, square_index: n, task_id: null, task_description: 'Finish', task_difficulty: null };
    if (n === 18) return { id: 100 + n, square_index: n, task_id: null, task_description: 'Snake', task_difficulty: null };
    if (n === 4) return { id: 100 + n, square_index: n, task_id: null, task_description: 'Ladder', task_difficulty: null };
    return { id: 100 + n, square_index: n, task_id: n, task_description: `Task ${n}`, task_difficulty: 'EASY' as const };
  });
  return fixtureGame(
    {
      id: GAME,
      clan_id: CLAN,
      clan_name: 'Iron Snakes',
      event_id: EVENT,
      event_name: 'Spring Race',
      status,
      max_reverts_allowed: 3,
      num_easy_tasks: 23,
      board_connections: [
        { type: 'snake', start: 18, end: 7 },
        { type: 'ladder', start: 4, end: 14 },
      ],
      board_squares: squares.map((sq) => ({ ...sq, auto_rule: null })),
      team_states: [
        { team_id: 1, team_name: 'Red', team_color: '#aa0000', current_position: 9, revert_count: 1, position_history: [1, 4, 14, 9], task_state: 'none', square_since: '2025-05-01T10:00:00.000Z' },
        { team_id: 2, team_name: 'Blue', team_color: '#0000aa', current_position: 6, revert_count: 0, position_history: [1, 6], task_state: 'none', square_since: '2025-05-01T10:00:00.000Z' },
      ],
      log_entries: [],
      created_at: '2026-01-01T00:00:00.000Z',
    },
    'none',
  );
}

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  /** The last status change was asked with Start Game: its message says started, not resumed. */
  starting: boolean;
}

/** The chart's input: the game and the server status its first load answers. */
interface Input {
  gameId: number;
  status: GameStatus;
}

/** Renders the Event Game view of GAME with fake calls and a socket that never connects; the first load answers the input's status. */
async function renderView(input: unknown): Promise<World> {
  const fx = new FakeEffects();
  const effects = fakeGameEffects(fx, () => new FakeSocket());
  const router = createMemoryRouter(
    [{ path: '*', element: <EventGameView clanId={CLAN} eventId={EVENT} gameId={GAME} onBack={() => {}} effects={effects} /> }],
    { initialEntries: ['/clans/manage/1'] },
  );
  render(<RouterProvider router={router} />);
  await screen.findByText('Loading game details...');
  await act(() => fx.resolve('fetchGame', fakeGame((input as Input).status)));
  await screen.findByRole('heading', { name: 'Game Status & Results' });
  return { fx, user: userEvent.setup({ delay: null }), starting: false };
}

/** The control of each chart state, as the selectors name it. */
const CONTROL_OF: Record<GameChartState, keyof typeof STATUS_CONTROLS> = { pending: 'start', ready: 'start', inProgress: 'pause', paused: 'resume', finished: 'finished' };

const chartStateOf = (s: Snap): GameChartState => (['pending', 'ready', 'inProgress', 'paused', 'finished'] as const).find((k) => s.matches(k))!;
const isChanging = (s: Snap) => s.hasTag('busy');

/**
 * Events a person (or the fake server) can cause in a state: only what the screen offers. A game
 * first loaded in PENDING is walked through every control; one loaded in another status is
 * rendered, and asked its one status change once, whose answer may carry any status (the server
 * answers the status it holds: docs/server.md §5 `{ok, status}`), so the screen is seen to follow
 * the answer, not the request.
 */
function eventsOf(s: Snap, input?: unknown): ModelEvent[] {
  const state = chartStateOf(s);
  const loaded = statusToChartState((input as Input).status);
  if (loaded !== 'pending') {
    if (state !== loaded || loaded === 'finished') return [];
    if (!isChanging(s)) return [{ type: 'status.request', action: STATUS_CONTROLS[CONTROL_OF[state]].action! }];
  }
  if (isChanging(s)) {
    const requested = s.context.requested ?? 'in-progress';
    // Every status as the answer to the first change of the status the game was loaded in.
    const answers = STATUSES.filter((status) => state === loaded || status === requested).map((status): ModelEvent => ({ type: 'xstate.done.actor.changeStatus', output: { status } }));
    // The server's broadcast of the new status can come before its answer.
    const broadcast: ModelEvent = { type: 'game.statusChanged', status: requested };
    // A failure and the pause's broadcast are walked from PENDING already.
    if (loaded !== 'pending') return loaded === 'inProgress' ? answers : [...answers, broadcast];
    return [...answers, { type: 'xstate.error.actor.changeStatus', error: new ApiRequestError(FAILURE, 409) }, broadcast];
  }
  const events: ModelEvent[] = STATUSES.filter((status) => statusToChartState(status) !== state).map((status) => ({ type: 'game.statusChanged', status }));
  const action = STATUS_CONTROLS[CONTROL_OF[state]].action;
  if (action) events.push({ type: 'status.request', action }, { type: 'status.request', action: UNKNOWN }, { type: 'reset.request' });
  return events;
}

/**
 * Idle states are told apart by the kind of edge they were reached by (a control, the server's
 * answer, a reset, a status change — and a status change out of finished or during a change), so
 * each gets a path.
 */
function serializeState(s: Snap, event: ModelEvent | undefined, prev: Snap | undefined): string {
  const base = JSON.stringify(s.value);
  if (!event || !prev || isChanging(s)) return base;
  if (event.type === 'game.statusChanged') {
    return `${base} via ${event.type}${prev.matches('finished') ? ' from finished' : isChanging(prev) ? ' from changing' : ''}`;
  }
  const via = event.type === 'status.request' ? `${event.type}(${event.action})` : event.type;
  return `${base} via ${via}`;
}

const control = () => screen.getByTestId('status-control') as HTMLButtonElement;
const resetButton = () => screen.getByRole('button', { name: 'Reset Game' }) as HTMLButtonElement;
const banner = () => screen.getByTestId('game-banner');
/** The status shown: the wire value in data-status and its visible label (contract statusLabel). */
const shownStatus = () => {
  const badge = screen.getByTestId('game-status');
  return `${badge.dataset.status}|${badge.textContent}`;
};
const statusShown = (wire: string) => `${wire}|${statusLabel(wire)}`;

/** What the screen shows in each state node. */
function assertions(): Record<StateNode, (s: Snap) => Promise<void>> {
  const status = (state: Exclude<GameChartState, 'finished'>) => async () => {
    await waitFor(() => expect(shownStatus()).toBe(statusShown(STATUS_LABELS[state])));
  };
  const idle = (state: Exclude<GameChartState, 'finished'>) => async () => {
    await waitFor(() => expect(shownStatus()).toBe(statusShown(STATUS_LABELS[state])));
    await waitFor(() => expect(control().disabled).toBe(false));
    expect(control().textContent).toBe(STATUS_CONTROLS[CONTROL_OF[state]].label);
    expect(resetButton().disabled).toBe(false);
    expect(screen.queryByText('Updating game status...')).toBeNull();
  };
  const changing = (state: Exclude<GameChartState, 'finished'>) => async () => {
    await waitFor(() => expect(control().disabled).toBe(true));
    expect(shownStatus()).toBe(statusShown(STATUS_LABELS[state]));
    expect(control().textContent).toBe(STATUS_CONTROLS[CONTROL_OF[state]].label);
    expect(resetButton().disabled).toBe(true);
    screen.getByText('Updating game status...');
  };
  return {
    pending: status('pending'),
    ready: status('ready'),
    inProgress: status('inProgress'),
    paused: status('paused'),
    'pending.idle': idle('pending'),
    'pending.changing': changing('pending'),
    'ready.idle': idle('ready'),
    'ready.changing': changing('ready'),
    'inProgress.idle': idle('inProgress'),
    'inProgress.changing': changing('inProgress'),
    'paused.idle': idle('paused'),
    'paused.changing': changing('paused'),
    finished: async () => {
      await waitFor(() => expect(shownStatus()).toBe(statusShown('finished')));
      // Finished: start and reset disabled, the button reads Game Finished (docs/game-rules.md §6).
      expect(control().textContent).toBe('Game Finished');
      expect(control().disabled).toBe(true);
      expect(resetButton().disabled).toBe(true);
    },
  };
}

/** A reload (Refresh, or the reload after a reset) that answers `status`. */
const reloadWith = async (w: World, status: GameStatus) => {
  await act(() => w.fx.resolve('fetchGame', fakeGame(status)));
};

/** How each event is caused through the screen. */
const EXECUTORS = {
  'status.request': async (w, { event }) => {
    if (event.type !== 'status.request') return;
    const button = control();
    if (event.action === UNKNOWN) {
      // The same control, its action value altered: the chart refuses what it does not know.
      const original = button.value;
      button.value = UNKNOWN;
      await w.user.click(button);
      button.value = original;
      await waitFor(() => expect(banner().textContent).toContain(GAME_STATUS_MESSAGES.unknownAction(UNKNOWN)));
      expect(w.fx.calls('changeGameStatus')).toHaveLength(0);
      return;
    }
    expect(button.value).toBe(event.action);
    w.starting = button.textContent === 'Start Game';
    await w.user.click(button);
  },
  'reset.request': async (w) => {
    const resets = w.fx.calls('resetGame').length;
    await w.user.click(resetButton());
    const dialog = await screen.findByRole('dialog');
    within(dialog).getByRole('heading', { name: GAME_DIALOG_TEXTS.resetTitle });
    within(dialog).getByText(GAME_DIALOG_TEXTS.resetBody);
    within(dialog).getByRole('button', { name: 'Reset Game' });
    await w.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(w.fx.calls('resetGame')).toHaveLength(resets);
  },
  'game.statusChanged': async (w, { event }) => {
    if (event.type !== 'game.statusChanged') return;
    if (event.status === 'READY' && !resetButton().disabled) {
      // Reaching READY the way a manager does: Reset Game, confirmed; the game reloads.
      await w.user.click(resetButton());
      const dialog = await screen.findByRole('dialog');
      await w.user.click(within(dialog).getByRole('button', { name: 'Reset Game' }));
      await act(() => w.fx.resolve('resetGame', { ok: true, message: 'Game reset successfully. All team positions and histories have been cleared.' }));
      await within(dialog).findByText('Game reset successfully. All team positions and histories have been cleared.');
      await reloadWith(w, 'READY');
      await w.user.click(within(dialog).getByRole('button', { name: 'Close' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      return;
    }
    // Any other status: the server's status arrives with a reload of the game.
    const wasChanging = screen.queryByText('Updating game status...') !== null;
    await w.user.click(screen.getByRole('button', { name: 'Refresh' }));
    await reloadWith(w, event.status);
    if (wasChanging) {
      // The requested status arrived before the call's answer: the change is settled with its message.
      const text = event.status === 'paused' ? GAME_STATUS_MESSAGES.paused : w.starting ? GAME_STATUS_MESSAGES.started : GAME_STATUS_MESSAGES.resumed;
      await waitFor(() => expect(banner().textContent).toContain(text));
    }
  },
  'xstate.done.actor.changeStatus': async (w, { event, prev }) => {
    if (event.type !== 'xstate.done.actor.changeStatus') return;
    const [call] = w.fx.calls('changeGameStatus').slice(-1);
    // Start Game and Resume Game send resume → in-progress; Pause Game sends pause → paused (docs/server.md §5).
    const requested = prev.context.requested;
    expect(call).toEqual([CLAN, EVENT, GAME, requested, requested === 'paused' ? 'pause' : 'resume']);
    await act(() => w.fx.resolve('changeGameStatus', { ok: true, status: event.output.status }));
    const text = event.output.status === 'paused' ? GAME_STATUS_MESSAGES.paused : w.starting ? GAME_STATUS_MESSAGES.started : GAME_STATUS_MESSAGES.resumed;
    await waitFor(() => expect(banner().textContent).toContain(text));
  },
  'xstate.error.actor.changeStatus': async (w) => {
    await act(() => w.fx.reject('changeGameStatus', new ApiRequestError(FAILURE, 409)));
    await waitFor(() => expect(banner().textContent).toContain(FAILURE));
  },
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

const label = (event: ModelEvent) =>
  event.type === 'status.request'
    ? `request(${event.action})`
    : event.type === 'game.statusChanged'
      ? `changed(${event.status})`
      : event.type === 'xstate.done.actor.changeStatus'
        ? `done(${event.output.status})`
        : event.type.replace('xstate.', '').replace('.actor.changeStatus', '');

modelTests<Snap, ModelEvent, World>({
  name: 'gameStatus',
  machine: gameStatusMachine,
  inputs: STATUSES.map((status): Input => ({ gameId: GAME, status })),
  passingThrough: ['resolving'],
  events: eventsOf,
  serialize: serializeState,
  // Many paths: one that is the start of a longer one asserts nothing the longer one does not.
  dropPrefixPaths: true,
  uncovered: {
    'pending.changing -> game.statusChanged #2': 'A change from pending always requests in-progress (Start Game), so the requested status can never arrive as paused.',
    'ready.changing -> game.statusChanged #2': 'A change from ready always requests in-progress (Start Game), so the requested status can never arrive as paused.',
    'inProgress.changing -> game.statusChanged #1': 'A change from inProgress always requests paused (Pause Game), so the requested status can never arrive as in-progress.',
    'paused.changing -> game.statusChanged #2': 'A change from paused always requests in-progress (Resume Game), so the requested status can never arrive as paused.',
  },
  label,
  executors: EXECUTORS,
  assertions: assertions(),
  render: renderView,
  guards: (paths) => {
    // Every control edge and the unknown action in every active status.
    const edges = new Set(
      paths.flatMap((p) =>
        p.steps.slice(1).map((st, i) => `${chartStateOf(p.steps[i].state)} ${st.event.type === 'status.request' ? `request(${st.event.action})` : st.event.type}`),
      ),
    );
    for (const edge of [
      'pending request(resume)',
      'ready request(resume)',
      'inProgress request(pause)',
      'paused request(resume)',
      `pending request(${UNKNOWN})`,
      `inProgress request(${UNKNOWN})`,
      `paused request(${UNKNOWN})`,
      'pending reset.request',
      'inProgress reset.request',
      'paused reset.request',
      'inProgress xstate.error.actor.changeStatus',
      'inProgress game.statusChanged',
      'finished game.statusChanged',
    ]) {
      expect(edges.has(edge), edge).toBe(true);
    }
  },
});
