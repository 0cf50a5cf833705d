import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { bannerMachine, BANNER_DELAYS } from '../../machines/banner.machine';
import { gameTasksMachine } from '../../machines/gameTasks.machine';
import { GAME_TASKS_TEXTS } from '../../contract/game/taskSquares';
import { eventGameMachine } from '../../machines/eventGame.machine';
import { gameStatusMachine } from '../../machines/gameStatus.machine';
import type { AvailableTask, BoardSquare, Game, SquaresAnswer } from '../../contract/gameApi';
import { liveGameMachine } from '../../machines/liveGame.machine';
import { gameSocketActor } from '../../src/realtime/gameSocket';
import { FakeSocket } from '../support/fakeSocket';
import { ORDER_WAIT_MS } from '../../contract/socket';

/**
 * The banner, gameTasks and eventGame charts run with fake actors (docs/client.md §1, §11; docs/game-rules.md §6,
 * §13): the banner's 4 s fade and 5 s removal, the Game Tasks refusals, optimistic swap and
 * reload after a failed one, the swap-task modal, and the Event Game flows that decide between
 * saving and confirming.
 */

afterEach(() => {
  vi.useRealTimers();
});

describe('banner chart', () => {
  it('shows a message, fades it at 4 s and removes it at 5 s; a new message restarts the clock', () => {
    vi.useFakeTimers();
    const banner = createActor(bannerMachine).start();
    banner.send({ type: 'message.show', tone: 'success', text: 'Saved.' });
    expect(banner.getSnapshot().value).toBe('shown');
    vi.advanceTimersByTime(BANNER_DELAYS.messageFade - 1);
    expect(banner.getSnapshot().value).toBe('shown');
    vi.advanceTimersByTime(1);
    expect(banner.getSnapshot().value).toBe('fading');
    expect(banner.getSnapshot().context.message?.text).toBe('Saved.');
    banner.send({ type: 'message.show', tone: 'error', text: 'Again.' });
    vi.advanceTimersByTime(4999);
    expect(banner.getSnapshot().context.message).toEqual({ tone: 'error', text: 'Again.' });
    vi.advanceTimersByTime(1);
    expect(banner.getSnapshot().value).toBe('hidden');
    expect(banner.getSnapshot().context.message).toBeNull();
    expect(BANNER_DELAYS.messageFade + BANNER_DELAYS.messageRemove).toBe(5000);
  });
});

const sq = (id: number, index: number, description: string, tier: BoardSquare['task_difficulty'], taskId: number | null = null): BoardSquare => ({
  auto_rule: null,
  id,
  square_index: index,
  task_id: taskId,
  task_description: description,
  task_difficulty: tier,
});
const SQUARES: BoardSquare[] = [
  sq(1, 1, 'Start', null),
  sq(2, 2, 'Burn logs', 'EASY', 50),
  sq(3, 3, 'Catch fish', 'EASY', 51),
  sq(4, 4, 'Snake', null),
  sq(5, 5, 'Kill a boss', 'HARD', 60),
  sq(6, 6, '', 'MASTER'),
  sq(7, 7, 'Finish', null),
];

function tasksActor(over: { swap?: () => Promise<{ message: string }>; options?: () => Promise<AvailableTask[]>; assign?: () => Promise<{ message: string }> } = {}) {
  const notices: { tone: string; text: string }[] = [];
  let loads = 0;
  const actor = createActor(
    gameTasksMachine.provide({
      actors: {
        loadSquares: fromPromise(async (): Promise<SquaresAnswer> => {
          loads += 1;
          return { squares: SQUARES, finished: false };
        }),
        swapSquares: fromPromise(over.swap ?? (async () => ({ message: 'Tasks swapped successfully!' }))),
        fetchOptions: fromPromise(over.options ?? (async () => [])),
        assignTask: fromPromise(over.assign ?? (async () => ({ message: 'Task on Square 6 assigned successfully!' }))),
      },
      actions: { notify: (_, n) => notices.push(n) },
    }),
    { input: { gameId: 9 } },
  ).start();
  return { actor, notices, loads: () => loads };
}

describe('gameTasks chart', () => {
  it("says 'Game ID is missing.' without a game", () => {
    const actor = createActor(gameTasksMachine, { input: { gameId: null } }).start();
    expect(actor.getSnapshot().value).toBe('missingGame');
    expect(GAME_TASKS_TEXTS.missingGame).toBe('Game ID is missing.');
  });

  it('refuses swaps across tiers and with fixed squares, and ignores a drop on itself', async () => {
    const { actor, notices } = tasksActor();
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }));
    actor.send({ type: 'swap.request', activeId: 2, overId: 5 });
    actor.send({ type: 'swap.request', activeId: 2, overId: 1 });
    actor.send({ type: 'swap.request', activeId: 2, overId: 4 });
    actor.send({ type: 'swap.request', activeId: 2, overId: 2 });
    expect(notices.map((n) => n.text)).toEqual([GAME_TASKS_TEXTS.acrossTiers, GAME_TASKS_TEXTS.special, GAME_TASKS_TEXTS.special]);
    expect(actor.getSnapshot().matches({ loaded: 'idle' })).toBe(true);
  });

  it('swaps at once, and reloads after a failed swap', async () => {
    const ok = tasksActor();
    await waitFor(ok.actor, (s) => s.matches({ loaded: 'idle' }));
    ok.actor.send({ type: 'swap.request', activeId: 2, overId: 3 });
    expect(ok.actor.getSnapshot().context.squares[1].task_description).toBe('Catch fish');
    await waitFor(ok.actor, (s) => s.matches({ loaded: 'idle' }));
    expect(ok.notices.at(-1)).toEqual({ tone: 'success', text: 'Tasks swapped successfully!' });

    const failing = tasksActor({ swap: async () => Promise.reject(new Error('Game is finished.')) });
    await waitFor(failing.actor, (s) => s.matches({ loaded: 'idle' }));
    failing.actor.send({ type: 'swap.request', activeId: 2, overId: 3 });
    await waitFor(failing.actor, (s) => s.matches({ loaded: 'idle' }));
    expect(failing.notices.at(-1)).toEqual({ tone: 'error', text: 'Error saving task swap: Game is finished.' });
    expect(failing.loads()).toBe(2);
    expect(failing.actor.getSnapshot().context.squares[1].task_description).toBe('Burn logs');
  });

  it('blocks a square without a tier, needs a selected task, and assigns', async () => {
    const options: AvailableTask[] = [{ id: 80, description: 'Kill Zulrah', difficulty: 'MASTER' }];
    const { actor, notices, loads } = tasksActor({ options: async () => options });
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }));
    actor.send({ type: 'assign.open', squareId: 4 });
    expect(actor.getSnapshot().matches({ loaded: 'assignBlocked' })).toBe(true);
    actor.send({ type: 'assign.cancel' });
    actor.send({ type: 'assign.open', squareId: 6 });
    await waitFor(actor, (s) => s.matches({ loaded: 'assignChoosing' }));
    expect(actor.getSnapshot().can({ type: 'assign.submit' })).toBe(false);
    actor.send({ type: 'assign.select', taskId: 80 });
    expect(actor.getSnapshot().can({ type: 'assign.submit' })).toBe(true);
    actor.send({ type: 'assign.submit' });
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }) && loads() === 2);
    expect(notices.at(-1)).toEqual({ tone: 'success', text: 'Task on Square 6 assigned successfully!' });
    expect(actor.getSnapshot().context.assignSquareId).toBeNull();
  });

  it('reports a failed options fetch in the modal', async () => {
    const { actor } = tasksActor({ options: async () => Promise.reject(new Error('Board square 6 not found in this game.')) });
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }));
    actor.send({ type: 'assign.open', squareId: 6 });
    await waitFor(actor, (s) => s.matches({ loaded: 'assignChoosing' }));
    expect(actor.getSnapshot().context.assignError).toBe('Failed to fetch swap options: Board square 6 not found in this game.');
  });
});

function game(status: Game['status']): Game {
  return {
    id: 3,
    status,
    board_size: 25,
    num_snakes: 1,
    num_ladders: 0,
    max_reverts_allowed: 2,
    num_easy_tasks: 23,
    num_medium_tasks: 0,
    num_hard_tasks: 0,
    num_elite_tasks: 0,
    num_master_tasks: 0,
    board_connections: [{ type: 'snake', start: 20, end: 3 }],
    board_squares: [],
    team_states: [],
    user_teams: [],
    version: 1,
  } as unknown as Game;
}

function gameActor(status: Game['status'], randomize = vi.fn(async () => ({ game: game(status), message: 'Board re-randomized successfully using the current settings.' }))) {
  const socket = new FakeSocket();
  const actor = createActor(
    eventGameMachine.provide({
      actors: {
        loadGame: fromPromise(async () => game(status)),
        createGame: fromPromise(async () => ({ gameId: 3, message: 'created' })),
        randomizeGame: fromPromise(randomize),
        saveBoard: fromPromise(async () => ({ message: 'Board configurations updated successfully.' })),
        liveGame: liveGameMachine.provide({ actors: { socket: gameSocketActor(() => socket) } }),
        gameStatus: gameStatusMachine.provide({ actors: { changeStatus: fromPromise(async (): Promise<{ status: Game['status'] }> => ({ status: 'paused' })) } }),
      },
    }),
    { input: { gameId: 3 } },
  ).start();
  return { actor, randomize, socket };
}

describe('eventGame chart', () => {
  it('loads the game, fills the editor and joins the live room', async () => {
    const { actor, socket } = gameActor('READY');
    await waitFor(actor, (s) => s.matches({ manage: 'idle' }));
    expect(actor.getSnapshot().context.snakesText).toBe('[\n  [20, 3]\n]');
    expect(actor.getSnapshot().context.draft.board_size).toBe('25');
    socket.serverConnects();
    expect(socket.sentOf('join_game')).toEqual([{ game_id: 3, compact: true }]);
  });

  it('merges live updates once and asks for the full state again on a version gap (as the play screen)', async () => {
    const { actor, socket } = gameActor('READY');
    await waitFor(actor, (s) => s.matches({ manage: 'idle' }));
    socket.serverConnects();
    const progress = (version: number) => ({ id: 3, status: 'in-progress', version, winners: null, team_states: [] });
    socket.serverSends('game_state_update', { game_state: progress(2) });
    expect(actor.getSnapshot().context.game?.version).toBe(2);
    expect(actor.getSnapshot().context.statusRef?.getSnapshot().matches('inProgress')).toBe(true);
    socket.serverSends('game_state_update', { game_state: progress(4) });
    expect(actor.getSnapshot().context.game?.version).toBe(2);
    // The update past the gap waits ORDER_WAIT_MS for the missing one (contract/socket.ts
    // applyInOrder), then the chart asks for the full state.
    expect(socket.sentOf('join_game')).toEqual([{ game_id: 3, compact: true }]);
    await vi.waitFor(() => expect(socket.sentOf('join_game')).toEqual([{ game_id: 3, compact: true }, { game_id: 3, compact: true }]), { timeout: ORDER_WAIT_MS + 2000 });
    expect(actor.getSnapshot().context.game?.version).toBe(2);
  });

  it('orders the next live update onto the game as the page changed it (a saved proof rule stays)', async () => {
    const socket = new FakeSocket();
    const actor = createActor(
      eventGameMachine.provide({
        actors: {
          loadGame: fromPromise(async (): Promise<Game> => ({ ...game('in-progress'), proof_required: false })),
          saveRules: fromPromise(async ({ input }: { input: { gameId: number; proofRequired: boolean } }) => ({ proofRequired: input.proofRequired })),
          liveGame: liveGameMachine.provide({ actors: { socket: gameSocketActor(() => socket) } }),
        },
      }),
      { input: { gameId: 3 } },
    ).start();
    await waitFor(actor, (s) => s.matches({ manage: 'idle' }));
    socket.serverConnects();
    actor.send({ type: 'rules.change', proofRequired: true });
    await waitFor(actor, (s) => s.matches({ manage: 'idle' }));
    expect(actor.getSnapshot().context.game?.proof_required).toBe(true);
    socket.serverSends('game_state_update', { game_state: { id: 3, status: 'in-progress', version: 2, winners: null, team_states: [] } });
    expect(actor.getSnapshot().context.game?.version).toBe(2);
    expect(actor.getSnapshot().context.game?.proof_required).toBe(true);
    actor.stop();
  });

  it('randomizes at once before the game runs, refuses while in progress, and asks first while paused', async () => {
    const ready = gameActor('READY');
    await waitFor(ready.actor, (s) => s.matches({ manage: 'idle' }));
    ready.actor.send({ type: 'settings.submit' });
    expect(ready.actor.getSnapshot().matches({ manage: 'randomizing' })).toBe(true);

    const live = gameActor('in-progress');
    await waitFor(live.actor, (s) => s.matches({ manage: 'idle' }));
    expect(live.actor.getSnapshot().can({ type: 'settings.submit' })).toBe(false);
    live.actor.send({ type: 'settings.submit' });
    expect(live.actor.getSnapshot().matches({ manage: 'idle' })).toBe(true);
    expect(live.randomize).not.toHaveBeenCalled();

    const paused = gameActor('paused');
    await waitFor(paused.actor, (s) => s.matches({ manage: 'idle' }));
    paused.actor.send({ type: 'settings.submit' });
    expect(paused.actor.getSnapshot().matches({ manage: 'confirmingRandomize' })).toBe(true);
    paused.actor.send({ type: 'randomize.cancel' });
    expect(paused.randomize).not.toHaveBeenCalled();
    paused.actor.send({ type: 'settings.submit' });
    paused.actor.send({ type: 'randomize.confirm' });
    await waitFor(paused.actor, (s) => s.matches({ manage: 'idle' }));
    expect(paused.randomize).toHaveBeenCalledTimes(1);
  });


  it('refuses an invalid settings form and a broken board before any call', async () => {
    const { actor, randomize } = gameActor('READY');
    await waitFor(actor, (s) => s.matches({ manage: 'idle' }));
    actor.send({ type: 'settings.change', field: 'num_snakes', value: '13' });
    expect(actor.getSnapshot().can({ type: 'settings.submit' })).toBe(false);
    actor.send({ type: 'settings.submit' });
    expect(randomize).not.toHaveBeenCalled();
    actor.send({ type: 'board.change', box: 'snakes', value: '[[3, 20]]' });
    actor.send({ type: 'board.save' });
    expect(actor.getSnapshot().context.boardError).toBe('Snake [3, 20] must go down: start must be greater than end.');
    expect(actor.getSnapshot().matches({ manage: 'idle' })).toBe(true);
    actor.send({ type: 'board.change', box: 'ladders', value: '[[3, 20]' });
    expect(actor.getSnapshot().context.boardError).toBeNull();
    actor.send({ type: 'board.save' });
    expect(actor.getSnapshot().context.boardError).toMatch(/^Invalid JSON format in Ladders config: /);
  });

  it('goes back to the setup form with the defaults when the game is deleted', async () => {
    const { actor } = gameActor('READY');
    await waitFor(actor, (s) => s.matches({ manage: 'idle' }));
    actor.send({ type: 'game.deleted' });
    expect(actor.getSnapshot().matches({ setup: 'editing' })).toBe(true);
    expect(actor.getSnapshot().context.gameId).toBeNull();
    expect(actor.getSnapshot().context.statusRef).toBeNull();
    expect(actor.getSnapshot().context.draft.board_size).toBe('100');
  });
});
