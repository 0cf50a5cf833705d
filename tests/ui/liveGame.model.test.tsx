// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { fromCallback, type SnapshotFrom } from 'xstate';
import { NOT_CONNECTED_MESSAGE, liveGameMachine, type LiveGameEvent } from '../../machines/liveGame.machine';
import { GamePlayPage } from '../../src/features/play/GamePlayPage';
import type { GameScreenEffects } from '../../src/features/play/effects';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';
import { FakeSocket } from '../support/fakeSocket';
import { fixtureGame } from '../support/gameFixtures';
import { ORDER_WAIT_MS } from '../../contract/socket';
import { renderRoutes, signedInSessionLogic } from '../support/render';
import { RELIEF_CONFIRM_TEXTS } from '../../src/features/play/texts';

/**
 * Model-based test of the liveGame chart (docs/server.md §3, §6 "Order"; docs/client.md §12)
 * through the rendered game play screen: paths generated from the real chart by the chart-model
 * harness, the test plays the server with a fake Socket.IO client (connect, drops with and without
 * retry, reconnection attempts, failed connects, game facts, an update past a missing version,
 * the wait that joins the room again, the join answer closing the gap) and the person clicks
 * Reconnect, Roll Dice, Revert Last Turn (once confirming a revert whose modal was opened before
 * the connection dropped: refused with NOT_CONNECTED_MESSAGE, nothing sent) and 'Ask for a new
 * task'; every state is asserted on the connection indicator.
 */

type Snap = SnapshotFrom<typeof liveGameMachine>;
// game.held comes from the holder after its own load (once, before any path step).
type ModelEvent = Exclude<LiveGameEvent, { type: 'game.held' }>;

type StateNode = 'connecting' | 'connected' | 'reconnecting' | 'disconnected';
const REFUSAL = 'Game is paused. No turns can be processed.';
/**
 * The reason of the drop that comes while the Leader has the revert modal open (socket.io's
 * heartbeat timeout): the confirm then reaches a chart that is not connected.
 */
const DROP_DURING_REVERT = 'ping timeout';
const ACTION = { game_id: 5, team_id: 11, performer_ign_id: 501 };
/** The connection dropped while the Leader had the revert modal open (it stays open until confirmed). */
const droppedDuringRevert = (s: Snap) => s.matches('reconnecting') && s.context.reason === DROP_DURING_REVERT;

/** A Leader of team 11 on square 9 with its task open for hours and relief on (so Roll Dice, Revert Last Turn and 'Ask for a new task' are offered). */
const GAME = fixtureGame({
  relief_after_hours: 1,
  team_states: fixtureGame().team_states.map((t) => (t.team_id === 11 ? { ...t, current_position: 9, position_history: [1, 9], task_state: 'open' as const } : t)),
});

/** What the server, the socket client or the person can cause in a state (only what the screen offers). */
function eventsOf(s: Snap): ModelEvent[] {
  const drops = (both: boolean): ModelEvent[] =>
    [true, ...(both ? [false] : [])].map((willReconnect) => ({ type: 'socket.disconnected', reason: willReconnect ? 'transport close' : 'io server disconnect', willReconnect }));
  const fails = (): ModelEvent[] => [true, false].map((willReconnect) => ({ type: 'socket.connectFailed', message: 'timeout', willReconnect }));
  if (s.matches('connecting')) return [{ type: 'socket.connected' }, ...drops(true), ...fails()];
  // Roll Dice and Revert Last Turn are disabled unless connected; a revert modal opened while
  // live stays open, and its confirm is what reaches the chart while it is not connected.
  if (droppedDuringRevert(s)) return [{ type: 'game.revert', action: ACTION }];
  if (s.matches('reconnecting')) {
    // A drop while reconnecting: the transport opened and closed again before the server let the
    // socket in (socket.io-client reports 'disconnect' then too, and keeps retrying).
    return [{ type: 'socket.connected' }, ...(s.context.attempt < 2 ? [{ type: 'socket.reconnecting' as const, attempt: s.context.attempt + 1 }] : []), ...drops(true), ...fails()];
  }
  if (s.matches('disconnected')) return [{ type: 'connection.retry' }];
  const version = s.context.game!.version;
  // An update past a missing version waits: ORDER_WAIT_MS later the room is joined again, and the join answer (the whole game, newer) closes the gap.
  if (s.context.pending.length > 0) return [{ type: 'order.waited' }, { type: 'game_state_update', game_state: { ...GAME, version: s.context.pending[0].version } }];
  return [
    ...drops(true),
    { type: 'socket.disconnected', reason: DROP_DURING_REVERT, willReconnect: true },
    { type: 'room.rejoin' },
    { type: 'game.roll', action: ACTION },
    { type: 'game.revert', action: ACTION },
    { type: 'game.relief', action: { game_id: 5, team_id: 11 } },
    // The next version (the game paused), and one that skips a version.
    { type: 'game_state_update', game_state: { ...GAME, version: version + 1, status: 'paused' } },
    { type: 'game_state_update', game_state: { id: 5, status: GAME.status, winners: null, version: version + 2, team_states: [] } },
    { type: 'game.logReceived', entry: { id: 2, timestamp: '2025-05-01T10:05:00.000Z', team_name: 'Red Dragons', team_color: '#cc2222', message: 'Red Dragons rolled a 4.' } },
    { type: 'game.teamUpdated', team: { id: 11, name: 'Red Dragons', color: '#cc2222' } },
    { type: 'action.failed', message: REFUSAL },
  ];
}

/** Each state once per edge kind into it (and its attempt, and whether the revert modal is open), so every edge gets a path. */
const serializeState = (s: Snap, event: ModelEvent | undefined, prev: Snap | undefined) =>
  [JSON.stringify(s.value), s.context.attempt, droppedDuringRevert(s), s.context.pending.length, event?.type, event && 'willReconnect' in event ? event.willReconnect : '', JSON.stringify(prev?.value ?? null)].join('|');

/**
 * The real chart as the model. Traversal has no parent and no socket: the socket actor is a silent
 * stand-in and the two actions that tell the parent are inert (the screen run does them for real).
 */
const modelMachine = liveGameMachine.provide({
  actors: { socket: fromCallback(() => {}) },
  actions: { forwardToParent: () => {}, refuseNotConnected: () => {} },
});

interface World {
  socket: FakeSocket;
  user: ReturnType<typeof userEvent.setup>;
  /** The revert modal is open (Radix hides the rest of the page from the accessibility tree). */
  modalOpen: boolean;
}

const panel = (hidden = false) => screen.getByRole('region', { name: 'Roll Dice for Your Team', hidden });
const badge = () => screen.getByTestId('connection-state');

const serverSends = (w: World, event: string, payload: unknown) => act(() => w.socket.serverSends(event, payload));

const EXECUTORS = {
  'socket.connected': async (w) => act(() => w.socket.serverConnects()),
  'socket.disconnected': async (w, { event }) => {
    if (event.type !== 'socket.disconnected') return;
    if (event.reason === DROP_DURING_REVERT) {
      // The Leader opens the revert modal while live; the connection drops before the confirm.
      await w.user.click(within(panel()).getByRole('button', { name: 'Revert Last Turn' }));
      await screen.findByRole('dialog', { name: 'Revert Last Turn?' });
      w.modalOpen = true;
    }
    act(() => w.socket.drop(event.willReconnect ? event.reason : 'transport close', !event.willReconnect));
  },
  'socket.reconnecting': async (w, { event }) => act(() => w.socket.startReconnecting(event.type === 'socket.reconnecting' ? event.attempt : 1)),
  'socket.connectFailed': async (w, { event }) => {
    if (event.type === 'socket.connectFailed' && !event.willReconnect) w.socket.active = false;
    act(() => w.socket.connectFails('timeout'));
  },
  'connection.retry': async (w) => {
    const before = w.socket.connectCalls;
    await w.user.click(within(badge()).getByRole('button', { name: 'Reconnect' }));
    expect(w.socket.connectCalls).toBe(before + 1);
  },
  // The holder asks for the full state again when a team changed (team_update).
  'room.rejoin': async (w) => {
    const joins = w.socket.sentOf('join_game').length;
    await serverSends(w, 'team_update', { updated_team_data: { id: 11, name: 'Red Dragons', color: '#cc2222', members: [] } });
    expect(w.socket.sentOf('join_game')).toHaveLength(joins + 1);
  },
  // The gap is still open ORDER_WAIT_MS after it opened (docs/server.md §6 Order): the room is joined again.
  'order.waited': async (w) => {
    const joins = w.socket.sentOf('join_game').length;
    await waitFor(() => expect(w.socket.sentOf('join_game')).toHaveLength(joins + 1), { timeout: ORDER_WAIT_MS + 2000 });
  },
  'game.roll': async (w) => {
    await w.user.click(within(panel()).getByRole('button', { name: 'Roll Dice' }));
    expect(w.socket.sentOf('roll_dice')).toEqual([{ game_id: 5, team_id: 11, performer_ign_id: 501 }]);
  },
  'game.revert': async (w, { prev }) => {
    if (!prev.matches('connected')) {
      // Confirmed after the drop: nothing goes out, and the modal says why.
      const dialog = screen.getByRole('dialog', { name: 'Revert Last Turn?' });
      const sent = w.socket.sentOf('revert_roll').length;
      await w.user.click(within(dialog).getByRole('button', { name: 'Revert Turn' }));
      await within(dialog).findByText(NOT_CONNECTED_MESSAGE);
      expect(w.socket.sentOf('revert_roll')).toHaveLength(sent);
      await w.user.click(within(dialog).getByRole('button', { name: 'Close' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      w.modalOpen = false;
      return;
    }
    // Revert asks first: the revert goes out once it is confirmed in the modal.
    await w.user.click(within(panel()).getByRole('button', { name: 'Revert Last Turn' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revert Last Turn?' });
    await w.user.click(within(dialog).getByRole('button', { name: 'Revert Turn' }));
    expect(w.socket.sentOf('revert_roll')).toEqual([{ game_id: 5, team_id: 11, performer_ign_id: 501 }]);
    // The server refuses it; the modal says so and is closed, so the indicator is in reach again.
    await serverSends(w, 'action_error', { message: 'No revert now.' });
    await within(dialog).findByText('No revert now.');
    await w.user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  },
  'game.relief': async (w) => {
    await w.user.click(within(panel()).getByRole('button', { name: 'Ask for a new task' }));
    // Relief asks first (the confirm modal); its confirm button sends the request.
    await w.user.click(within(await screen.findByRole('dialog', { name: RELIEF_CONFIRM_TEXTS.title })).getByRole('button', { name: RELIEF_CONFIRM_TEXTS.confirm }));
    expect(w.socket.sentOf('request_relief')).toEqual([{ game_id: 5, team_id: 11 }]);
    // The server refuses it; the panel says so and the button is offered again.
    await serverSends(w, 'action_error', { message: 'No relief left for Red Dragons.' });
    expect(within(panel()).getByTestId('action-error').textContent).toBe('No relief left for Red Dragons.');
    expect((within(panel()).getByRole('button', { name: 'Ask for a new task' }) as HTMLButtonElement).disabled).toBe(false);
  },
  'game_state_update': async (w, { event, prev }) => {
    if (event.type !== 'game_state_update') return;
    const joins = w.socket.sentOf('join_game').length;
    const status = document.querySelector<HTMLElement>('.game-header .status-badge')?.dataset.status;
    await serverSends(w, 'game_state_update', { game_state: event.game_state });
    // Nothing is asked for at once: the wait (or the missing update) comes first.
    expect(w.socket.sentOf('join_game')).toHaveLength(joins);
    if (prev.context.pending.length === 0 && event.game_state.version > prev.context.game!.version + 1) {
      // Past a missing version: it waits, and the screen keeps the game it has.
      expect(document.querySelector<HTMLElement>('.game-header .status-badge')?.dataset.status).toBe(status);
      return;
    }
    await waitFor(() => expect(document.querySelector<HTMLElement>('.game-header .status-badge')?.dataset.status).toBe(event.game_state.status));
    if (event.game_state.status === 'paused') expect(document.querySelector('.game-header .status-badge')?.textContent).toBe('Paused');
  },
  'game.logReceived': async (w, { event }) => {
    if (event.type !== 'game.logReceived') return;
    await serverSends(w, 'new_log_entry', { log_entry: event.entry });
    expect(within(screen.getByTestId('game-log')).getByText(event.entry.message)).toBeTruthy();
  },
  'game.teamUpdated': async (w) => {
    const joins = w.socket.sentOf('join_game').length;
    await serverSends(w, 'team_update', { updated_team_data: { id: 11, name: 'Red Dragons', color: '#cc2222', members: [] } });
    expect(w.socket.sentOf('join_game')).toHaveLength(joins + 1);
  },
  'action.failed': async (w) => {
    await serverSends(w, 'action_error', { message: REFUSAL });
    expect(within(panel()).getByTestId('action-error').textContent).toBe(REFUSAL);
  },
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

const LABELS: Record<StateNode, string> = { connecting: 'Connecting…', connected: 'Live', reconnecting: 'Reconnecting…', disconnected: 'Offline' };

const shows = (state: StateNode) => async (s: Snap, w: World) => {
  // Behind the open revert modal the page is hidden from the accessibility tree, not from view.
  const hidden = w.modalOpen;
  await waitFor(() => expect(badge().dataset.state).toBe(state));
  expect(within(badge()).getByRole('status', { hidden }).textContent).toBe(LABELS[state]);
  expect(within(badge()).queryByRole('button', { name: 'Reconnect', hidden }) !== null).toBe(state === 'disconnected');
  // Rolls go out only while live: the panel says so otherwise.
  expect(within(panel(hidden)).queryByText('Waiting for the live connection…') === null).toBe(state === 'connected');
  if (state === 'reconnecting') expect(within(badge()).getByRole('status', { hidden }).title).toBe(s.context.attempt > 0 ? `Attempt ${s.context.attempt}` : '');
  // The revert modal stays open over a drop until the Leader confirms it.
  expect(screen.queryByRole('dialog', { name: 'Revert Last Turn?' }) !== null).toBe(w.modalOpen);
};

modelTests<Snap, ModelEvent, World>({
  name: 'liveGame',
  machine: modelMachine,
  dropPrefixPaths: true,
  // The game the screen loaded is the model's start; not enumerable, so the tests' names stay short.
  inputs: [Object.defineProperty({ gameId: 5 }, 'game', { value: GAME, enumerable: false })],
  label: (e) => ('willReconnect' in e ? `${e.type}(${e.willReconnect ? 'retrying' : 'stopped'})` : e.type),
  events: eventsOf,
  serialize: serializeState,
  executors: EXECUTORS,
  uncovered: {
    '(root) -> game.roll': 'Roll Dice is disabled unless the socket is connected and sends at once, with no confirm step, so the screen never sends game.roll to a chart that is not connected.',
    '(root) -> game.relief': "'Ask for a new task' is disabled unless the socket is connected and sends at once, so the screen never sends game.relief to a chart that is not connected.",
    '(root) -> game.held': 'The holder hands over the game it loaded before any step of a path (the model starts from it as input).',
  },
  assertions: {
    connecting: shows('connecting'),
    connected: async (s, w) => {
      await shows('connected')(s, w);
      // Every (re)connect joins the game's room.
      expect(w.socket.sentOf('join_game').length).toBeGreaterThan(0);
    },
    reconnecting: shows('reconnecting'),
    disconnected: shows('disconnected'),
  } satisfies Record<StateNode, (s: Snap, w: World) => Promise<void>>,
  render: async () => {
    const fx = new FakeEffects();
    let socket: FakeSocket | null = null;
    const effects: GameScreenEffects = { loadGame: fx.fn('loadGame'), openSocket: () => (socket = new FakeSocket()), launchConfetti: () => () => {} };
    renderRoutes([{ path: '/games/clan/:clanId/events/:eventId/game/:gameId', element: <GamePlayPage effects={effects} /> }], '/games/clan/2/events/3/game/5', signedInSessionLogic());
    await waitFor(() => expect(socket).not.toBeNull());
    await act(() => fx.resolve('loadGame', GAME));
    await screen.findByTestId('connection-state');
    return { socket: socket!, user: userEvent.setup({ delay: null }), modalOpen: false };
  },
});
