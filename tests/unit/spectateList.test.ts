import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { LobbyGame, SpectateGame } from '../../contract/lobby';
import { spectateListMachine } from '../../machines/spectateList.machine';
import * as sel from '../../machines/spectateList.selectors';
import { SPECTATE_LIST_FAILED } from '../../src/api/lobby';
import { groupLobbyGames } from '../../src/features/lobby/GamesLobbyPage';
import { previousPageOf } from '../../src/base/paths';
import { routeId } from '../../src/features/play/effects';

/** The spectate list's 30 s refresh (docs/client.md §1, §12), lobby grouping, breadcrumb origin. */

const game = (id: number): SpectateGame => ({ game_id: id, event_name: `Event ${id}`, clan_name: 'Iron Legion', status: 'in-progress', board_size: 100, team_count: 2, created_at: '2025-05-01T10:00:00.000Z' });

afterEach(() => vi.useRealTimers());

describe('spectateList chart', () => {
  it('loads, then reloads every 30 s keeping the list on screen; a failure shows the spec text and polling goes on', async () => {
    vi.useFakeTimers();
    const answers: (() => Promise<SpectateGame[]>)[] = [
      async () => [game(1)],
      async () => [game(2), game(1)],
      async () => Promise.reject(new Error(SPECTATE_LIST_FAILED)),
      async () => [game(3)],
    ];
    let calls = 0;
    const actor = createActor(spectateListMachine.provide({ actors: { loadGames: fromPromise(() => answers[calls++]()) } })).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(sel.selectSpectateGames(actor.getSnapshot()).map((g) => g.game_id)).toEqual([1]);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    expect(sel.selectSpectateGames(actor.getSnapshot()).map((g) => g.game_id)).toEqual([2, 1]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(sel.selectSpectateError(actor.getSnapshot())).toBe('Failed to load spectatable games. Please check the server connection.');
    expect(sel.selectSpectateGames(actor.getSnapshot()).map((g) => g.game_id)).toEqual([2, 1]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(sel.selectSpectateError(actor.getSnapshot())).toBeNull();
    expect(sel.selectSpectateGames(actor.getSnapshot()).map((g) => g.game_id)).toEqual([3]);
    actor.stop();
  });
});

describe('lobby rows and routes', () => {
  const row = (game_id: number, clan_id: number, clan_name: string, player_ign: string): LobbyGame => ({
    game_id, clan_id, clan_name, event_id: game_id, event_name: `E${game_id}`, board_size: 25, status: 'in-progress', player_ign, teams: [],
  });
  it('groups rows by clan and playing IGN, in order', () => {
    const groups = groupLobbyGames([row(1, 1, 'A', 'x'), row(2, 1, 'A', 'x'), row(3, 1, 'A', 'y'), row(4, 2, 'B', 'x')]);
    expect(groups.map((g) => [g.clan, g.ign, g.games.map((x) => x.game_id)])).toEqual([
      ['A', 'x', [1, 2]],
      ['A', 'y', [3]],
      ['B', 'x', [4]],
    ]);
  });
  it('breadcrumb: Clan Management when navigated from clan management, else Game Lobby', () => {
    expect(previousPageOf({ origin: 'Clan Management' }, '7')).toEqual({ to: '/clans/manage/7', label: 'Clan Management' });
    expect(previousPageOf({ from: { to: '/evil', label: 'Clan Management' } }, '7')).toEqual({ to: '/clans/manage/7', label: 'Clan Management' });
    expect(previousPageOf(null, '7')).toEqual({ to: '/games', label: 'Game Lobby' });
    expect(previousPageOf({ origin: 'elsewhere' }, '7')).toEqual({ to: '/games', label: 'Game Lobby' });
    // From the Manage Game view: back to that view of the route's event, never to a path from the state.
    expect(previousPageOf({ origin: 'Clan Management', view: 'game' }, '7', '12')).toEqual({ to: '/clans/manage/7/events/12/game', label: 'Clan Management' });
    expect(previousPageOf({ origin: 'Clan Management', view: 'game' }, '7', '0')).toEqual({ to: '/clans/manage/7', label: 'Clan Management' });
  });
  it('route ids: positive whole numbers up to 2^31-1', () => {
    expect(routeId('12')).toBe(12);
    for (const bad of [undefined, '', '0', '-1', '1.5', 'abc', '2147483648', '99999999999']) expect(routeId(bad)).toBeNull();
  });
});
