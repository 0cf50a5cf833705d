// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Game, TeamState } from '../../contract/gameApi';
import type { TeamProgress } from '../../contract/progress';
import type { User } from '../../contract/user';
import { GamePlayPage } from '../../src/features/play/GamePlayPage';
import type { GameScreenEffects } from '../../src/features/play/effects';
import type { ProofEffects } from '../../src/features/play/ProofPanel';
import { DINK_SENDS_PROOF } from '../../src/features/dink/dinkTexts';
import { FakeEffects } from '../support/effects';
import { FakeSocket } from '../support/fakeSocket';
import { fixtureGame, progressOf } from '../support/gameFixtures';
import { fakeUser, renderRoutes, signedInSessionLogic } from '../support/render';

/**
 * The team's task panel on the play screen (docs/client.md §9): it says 'Dink will send this
 * automatically' while its task waits for proof and the square's task carries a Dink auto rule,
 * and not otherwise. A team total (docs/server.md §17) shows as the team's bar on its task card
 * and as a frame around its square on the board, both moving with the live game; 'Check now' of a
 * Wise Old Man total shows on the team's own card, and in Team Positions for every other team to
 * a manager of the clan only.
 */

/** The fixture game with Red (the viewer's team) on square 7 in `taskState`, square 7's task with `rule` or none. */
function gameWith(taskState: 'open' | 'approved', rule: boolean): Game {
  const game = fixtureGame({ proof_required: true });
  const squares = game.board_squares.map((sq) => (sq.square_index === 7 && rule ? { ...sq, auto_rule: { type: 'LOOT', names: ['Giant key'], min: null } } : sq));
  const team_states = game.team_states.map((t, i) => (i === 0 ? { ...t, current_position: 7, position_history: [1, 7], task_state: taskState } : t));
  return { ...game, board_squares: squares, team_states } as Game;
}

/** Renders the play screen of `game` for `user` (by default a user of no clan), with `proof` calls if given; answers the fake socket. */
async function renderPlay(game: Game, opts: { user?: User; proof?: ProofEffects } = {}): Promise<FakeSocket> {
  const fx = new FakeEffects();
  let socket: FakeSocket | null = null;
  const effects: GameScreenEffects = { loadGame: fx.fn('loadGame'), openSocket: () => (socket = new FakeSocket()), launchConfetti: () => () => {}, proof: opts.proof };
  renderRoutes([{ path: '/games/clan/:clanId/events/:eventId/game/:gameId', element: <GamePlayPage effects={effects} /> }], '/games/clan/2/events/3/game/5', signedInSessionLogic(opts.user));
  await waitFor(() => expect(socket).not.toBeNull());
  act(() => socket!.serverConnects());
  await act(() => fx.resolve('loadGame', game));
  // The task panel is loaded lazily: the first render waits for its module.
  await screen.findByTestId('team-task', undefined, { timeout: 10_000 });
  return socket!;
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

const FISHING = { type: 'XP' as const, names: ['fishing'], min: null, team_total: 500_000, distinct: false };
const CHECKED_AT = '2031-06-01T18:00:00.000Z';
const xp = (have: number, by: TeamProgress['by'] = []): TeamProgress => ({ have, need: 500_000, unit: 'xp', by, errors: [], updated_at: CHECKED_AT });

/** The fixture game in progress: Red (the viewer's team) on square 7 and Blue on square 9, both Fishing XP totals with Red at 300,000. */
function totalsGame(): Game {
  const game = fixtureGame({ proof_required: true });
  const board_squares = game.board_squares.map((sq) => (sq.square_index === 7 || sq.square_index === 9 ? { ...sq, auto_rule: FISHING } : sq));
  const at: Record<number, Partial<TeamState>> = {
    11: { current_position: 7, position_history: [1, 7], task_state: 'open', progress: xp(300_000, [{ ign: 'Zezima', amount: 300_000 }]) },
    12: { current_position: 9, position_history: [1, 9], task_state: 'open', progress: xp(0) },
  };
  return { ...game, board_squares, team_states: game.team_states.map((t) => ({ ...t, ...at[t.team_id] })) } as Game;
}

/** Proof calls that never answer, with the 'Check now' asks recorded. */
function proofCalls(asks: [number, number][]): ProofEffects {
  return {
    loadLatest: () => new Promise(() => {}),
    uploadProof: () => new Promise(() => {}),
    checkProgress: async (gameId, teamId) => {
      asks.push([gameId, teamId]);
      return { waitS: 300, refusal: null };
    },
  };
}

const positionRow = (team: string) => screen.getAllByTestId('team-position').find((row) => row.getAttribute('data-team') === team)!;

describe('a team total on the play screen', () => {
  it("shows the team's bar on its task card and a frame on its square, both updated by the live game", async () => {
    const game = totalsGame();
    const socket = await renderPlay(game, { proof: proofCalls([]) });
    const card = screen.getByTestId('team-task');
    const bar = within(card).getByTestId('team-progress');
    expect(bar.querySelector('.team-progress__count')!.textContent).toBe('300,000 / 500,000 xp');
    expect(within(card).getByRole('progressbar', { name: 'Red Dragons: team total 300,000 / 500,000 xp' })).toBeTruthy();
    expect(within(card).getAllByTestId('team-progress-share').map((li) => li.textContent)).toEqual(['Zezima 300,000']);
    // The board's squares 7 and 9 carry each team's frame, named as the bars are.
    const mark = await screen.findByRole('img', { name: 'Red Dragons: team total 300,000 / 500,000 xp' }, { timeout: 10_000 });
    expect(mark.getAttribute('data-progress-square')).toBe('7');
    expect(mark.getAttribute('data-share')).toBe('60');
    expect(screen.getByRole('img', { name: 'Blue Moons: team total 0 / 500,000 xp' }).getAttribute('data-progress-square')).toBe('9');

    // A progress update with the next version: the card's bar and the board's frame follow, without a reload.
    const update = progressOf(game, {});
    const grown = xp(450_000, [{ ign: 'Zezima', amount: 450_000 }]);
    update.team_states = update.team_states.map((t) => ({ ...t, task_state: 'open', progress: t.team_id === 11 ? grown : xp(0), current_position: t.team_id === 11 ? 7 : 9 }));
    await act(() => socket.serverSends('game_state_update', { game_state: update }));
    await waitFor(() => expect(within(screen.getByTestId('team-task')).getByTestId('team-progress').querySelector('.team-progress__count')!.textContent).toBe('450,000 / 500,000 xp'));
    expect(screen.getByRole('img', { name: 'Red Dragons: team total 450,000 / 500,000 xp' }).getAttribute('data-share')).toBe('90');
  });

  it("offers a manager 'Check now' in Team Positions for every other team on a Wise Old Man total, and asks for that team", async () => {
    const asks: [number, number][] = [];
    const admin = fakeUser({ clan_memberships_list: [{ clan_id: 2, name: 'Iron Legion', role: 'Admin', joined_at: '2025-01-01T00:00:00.000Z' }] });
    await renderPlay(totalsGame(), { user: admin, proof: proofCalls(asks) });
    const blue = await within(positionRow('Blue Moons')).findByRole('button', { name: 'Check now (Blue Moons)' }, { timeout: 10_000 });
    // The viewer's own team has it once, on its task card, not again in its row.
    expect(within(positionRow('Red Dragons')).queryByRole('button', { name: /Check now/ })).toBeNull();
    expect(within(screen.getByTestId('team-task')).getByRole('button', { name: 'Check now (Red Dragons)' })).toBeTruthy();
    fireEvent.click(blue);
    await waitFor(() => expect(asks).toEqual([[5, 12]]));
    await waitFor(() => expect((within(positionRow('Blue Moons')).getByTestId('progress-check-button') as HTMLButtonElement).disabled).toBe(true));
  });

  it("offers no 'Check now' for another team to a member who does not manage the clan", async () => {
    const member = fakeUser({ clan_memberships_list: [{ clan_id: 2, name: 'Iron Legion', role: 'Member', joined_at: '2025-01-01T00:00:00.000Z' }] });
    await renderPlay(totalsGame(), { user: member, proof: proofCalls([]) });
    await within(screen.getByTestId('team-task')).findByRole('button', { name: 'Check now (Red Dragons)' });
    expect(within(positionRow('Blue Moons')).getByTestId('team-progress')).toBeTruthy();
    expect(within(positionRow('Blue Moons')).queryByRole('button', { name: /Check now/ })).toBeNull();
  });
});
