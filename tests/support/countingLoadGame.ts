import type { Game } from '../../contract/gameApi';

/** How many games the stand-in loadGame built since the test last set it to 0. */
const loads = { count: 0 };

/**
 * server/games/service with loadGame replaced by a counter that builds a bare in-progress game
 * (no database), for the GameCache unit tests: the rest of the module is the real one. Used from
 * a `vi.mock` factory, which imports this module itself (factories run before the file's imports).
 */
function withCountingLoadGame<T extends object>(actual: T): T {
  return {
    ...actual,
    loadGame: async (_db: unknown, gameId: number): Promise<Game> => {
      loads.count += 1;
      return {
        id: gameId, clan_id: 1, event_id: 1, status: 'in-progress', version: 1, clan_name: 'Clan', event_name: 'Event', event_type: 'snakes',
        board_squares: [], team_states: [], user_teams: [], log_entries: [],
      } as unknown as Game;
    },
  };
}

/** The counter and the module wrapper, as one export (the tests read `loads`; their vi.mock factory wraps). */
export const countingLoadGame = { loads, withCountingLoadGame };
