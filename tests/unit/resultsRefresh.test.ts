import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { GameHistory } from '../../contract/history';
import type { ResultsData } from '../../contract/results';
import { RESULTS_REFRESH_MS, resultsMachine } from '../../machines/results.machine';

/** The results chart reads a game still on again every RESULTS_REFRESH_MS, and leaves a finished one alone. */

const history = (status: GameHistory['game']['status']): GameHistory => ({
  game: { id: 5, event_name: 'Spring Bash', clan_name: 'Iron Legion', board_size: 25, status, winners: null, dice_commitment: 'a'.repeat(64), dice_seed: null },
  teams: [],
  moves: [],
  reviews: [],
});
const data = (status: GameHistory['game']['status']): ResultsData => ({ history: history(status), board: { board_size: 25, board_squares: [], board_connections: [], event_type: 'Snakes and Ladders' } });

function started(answers: ResultsData[]) {
  let loads = 0;
  const actor = createActor(
    resultsMachine.provide({ actors: { loadResults: fromPromise(async () => answers[Math.min(loads++, answers.length - 1)]) } }),
    { input: { gameId: 5 } },
  ).start();
  return { actor, loads: () => loads };
}

describe('results refresh', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads a game still on again every 15 s, until it is finished', async () => {
    const { actor, loads } = started([data('in-progress'), data('paused'), data('finished')]);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('loaded');
    expect(loads()).toBe(1);
    await vi.advanceTimersByTimeAsync(RESULTS_REFRESH_MS - 1);
    expect(loads()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(loads()).toBe(2);
    expect(actor.getSnapshot().context.data!.history.game.status).toBe('paused');
    await vi.advanceTimersByTimeAsync(RESULTS_REFRESH_MS);
    expect(loads()).toBe(3);
    expect(actor.getSnapshot().context.data!.history.game.status).toBe('finished');
    // Finished: no more reads.
    await vi.advanceTimersByTimeAsync(RESULTS_REFRESH_MS * 4);
    expect(loads()).toBe(3);
    expect(actor.getSnapshot().value).toBe('loaded');
    actor.stop();
  });

  it('keeps the results on screen as they are when a read finds them unchanged', async () => {
    const { actor, loads } = started([data('in-progress'), data('in-progress'), data('paused')]);
    await vi.advanceTimersByTimeAsync(0);
    const shown = actor.getSnapshot().context.data;
    await vi.advanceTimersByTimeAsync(RESULTS_REFRESH_MS);
    expect(loads()).toBe(2);
    expect(actor.getSnapshot().context.data).toBe(shown);
    await vi.advanceTimersByTimeAsync(RESULTS_REFRESH_MS);
    expect(loads()).toBe(3);
    expect(actor.getSnapshot().context.data).not.toBe(shown);
    actor.stop();
  });

  it('never reads a finished (or completed) game again', async () => {
    for (const status of ['finished', 'completed'] as const) {
      const { actor, loads } = started([data(status)]);
      await vi.advanceTimersByTimeAsync(RESULTS_REFRESH_MS * 3);
      expect(loads(), status).toBe(1);
      actor.stop();
    }
  });
});
