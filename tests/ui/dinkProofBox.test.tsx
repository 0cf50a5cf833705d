// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Game } from '../../contract/gameApi';
import { GamePlayPage } from '../../src/features/play/GamePlayPage';
import type { GameScreenEffects } from '../../src/features/play/effects';
import { DINK_SENDS_PROOF } from '../../src/features/dink/dinkTexts';
import { FakeEffects } from '../support/effects';
import { FakeSocket } from '../support/fakeSocket';
import { fixtureGame } from '../support/gameFixtures';
import { renderRoutes, signedInSessionLogic } from '../support/render';

/**
 * The team's task panel on the play screen says 'Dink will send this automatically' while its
 * task waits for proof and the square's task carries a Dink auto rule (docs/client.md §9), and
 * not otherwise.
 */

/** The fixture game with Red (the viewer's team) on square 7 in `taskState`, square 7's task with `rule` or none. */
function gameWith(taskState: 'open' | 'approved', rule: boolean): Game {
  const game = fixtureGame({ proof_required: true });
  const squares = game.board_squares.map((sq) => (sq.square_index === 7 && rule ? { ...sq, auto_rule: { type: 'LOOT', names: ['Giant key'], min: null } } : sq));
  const team_states = game.team_states.map((t, i) => (i === 0 ? { ...t, current_position: 7, position_history: [1, 7], task_state: taskState } : t));
  return { ...game, board_squares: squares, team_states } as Game;
}

async function renderPlay(game: Game) {
  const fx = new FakeEffects();
  let socket: FakeSocket | null = null;
  const effects: GameScreenEffects = { loadGame: fx.fn('loadGame'), openSocket: () => (socket = new FakeSocket()), launchConfetti: () => () => {} };
  renderRoutes([{ path: '/games/clan/:clanId/events/:eventId/game/:gameId', element: <GamePlayPage effects={effects} /> }], '/games/clan/2/events/3/game/5', signedInSessionLogic());
  await waitFor(() => expect(socket).not.toBeNull());
  act(() => socket!.serverConnects());
  await act(() => fx.resolve('loadGame', game));
  // The task panel is loaded lazily: the first render waits for its module.
  await screen.findByTestId('team-task', undefined, { timeout: 10_000 });
}

afterEach(cleanup);

describe("the proof box's Dink line", () => {
  it('shows while the task waits for proof and carries an auto rule', async () => {
    await renderPlay(gameWith('open', true));
    expect((await screen.findByTestId('dink-sends')).textContent).toBe(DINK_SENDS_PROOF);
  });
  it('is absent for a task without a rule', async () => {
    await renderPlay(gameWith('open', false));
    expect(screen.getByTestId('team-task').textContent).toContain('Task number 7');
    expect(screen.queryByTestId('dink-sends')).toBeNull();
  });
  it('is absent once the task is approved', async () => {
    await renderPlay(gameWith('approved', true));
    expect(screen.getByTestId('team-task').textContent).toContain('Task number 7');
    expect(screen.queryByTestId('dink-sends')).toBeNull();
  });
});
