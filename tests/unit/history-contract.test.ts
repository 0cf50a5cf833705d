import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { GameHistorySchema, HISTORY_CSV_COLUMNS, historyApiPath, historyCsvPath } from '../../contract/history';

/** The history JSON and CSV of docs/server.md §12. */
describe('history contract', () => {
  const history = {
    game: { id: 3, event_name: 'E', clan_name: 'C', board_size: 30, status: 'finished', winners: [{ name: 'A', color: '#ff0000' }], dice_commitment: 'a'.repeat(64), dice_seed: 'b'.repeat(64) },
    teams: [{ team_id: 1, name: 'A', color: '#ff0000' }],
    moves: [
      { at: '2026-11-24T00:00:00.000Z', team_id: 1, kind: 'roll', roll_index: 1, die: 4, from: 1, landing: 5, to: 14, via: 'ladder' },
      { at: '2026-11-24T00:00:01.000Z', team_id: 1, kind: 'revert', roll_index: null, die: null, from: 14, landing: null, to: 1, via: null },
    ],
    reviews: [{ at: '2026-11-24T00:00:02.000Z', team_id: 1, square_index: 14, decision: 'approve' }],
  };

  it('accepts the spec shape and refuses unknown kinds, vias and decisions', () => {
    expect(v.parse(GameHistorySchema, history)).toEqual(history);
    expect(v.safeParse(GameHistorySchema, { ...history, moves: [{ ...history.moves[0], kind: 'jump' }] }).success).toBe(false);
    expect(v.safeParse(GameHistorySchema, { ...history, moves: [{ ...history.moves[0], via: 'slide' }] }).success).toBe(false);
    expect(v.safeParse(GameHistorySchema, { ...history, reviews: [{ ...history.reviews[0], decision: 'maybe' }] }).success).toBe(false);
    expect(v.safeParse(GameHistorySchema, { ...history, game: { ...history.game, dice_commitment: undefined } }).success).toBe(false);
  });

  it('names the spec paths and CSV header', () => {
    expect(historyApiPath(3)).toBe('public/game/3/history');
    expect(historyCsvPath(3)).toBe('/api/public/game/3/history.csv');
    expect(HISTORY_CSV_COLUMNS.join(',')).toBe('at,team,kind,roll_index,die,from,landing,to,via');
  });
});
