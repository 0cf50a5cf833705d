import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { applyGameUpdate, GameStateUpdateSchema, mergeProgress } from '../../contract/socket';
import { fixtureGame, progressOf, toPublic } from '../support/gameFixtures';

/** The live socket payloads of docs/server.md §6 as the client reads and merges them. */
describe('game_state_update shapes', () => {
  const game = fixtureGame();
  it("keeps a viewer's own game whole, user_teams included", () => {
    const parsed = v.parse(GameStateUpdateSchema, { game_state: game }).game_state as typeof game;
    expect(parsed.user_teams).toEqual(game.user_teams);
  });
  it('keeps the revert counts of a members-room broadcast (no user_teams)', () => {
    const { user_teams: _u, ...members } = game;
    const counted = { ...members, team_states: members.team_states.map((t) => ({ ...t, revert_count: 2 })) };
    const parsed = v.parse(GameStateUpdateSchema, { game_state: counted }).game_state as { team_states: { revert_count?: number }[] };
    expect(parsed.team_states.every((t) => t.revert_count === 2)).toBe(true);
  });
  it('reads a public broadcast without revert counts', () => {
    const parsed = v.parse(GameStateUpdateSchema, { game_state: toPublic(game) }).game_state as { team_states: object[] };
    expect(parsed.team_states.every((t) => !('revert_count' in t))).toBe(true);
  });
  it('reads a progress update with its last_move, and older ones without it; a bad die is refused', () => {
    const move = { team_id: 11, die: 3, from: 4, landing: 7, to: 7, via: null, path: [4, 5, 6, 7] };
    const withMove = v.parse(GameStateUpdateSchema, { game_state: { ...progressOf(game, { position: 7 }), last_move: move } }).game_state;
    expect((withMove as { last_move?: unknown }).last_move).toEqual(move);
    const old = v.parse(GameStateUpdateSchema, { game_state: progressOf(game, { position: 7 }) }).game_state;
    expect('last_move' in old ? old.last_move : undefined).toBeUndefined();
    expect(v.safeParse(GameStateUpdateSchema, { game_state: { ...progressOf(game, { position: 7 }), last_move: { ...move, die: 7 } } }).success).toBe(false);
    // The held game does not keep it.
    expect('last_move' in mergeProgress(game, { ...progressOf(game, { position: 7 }), last_move: move })!).toBe(false);
  });
});

describe('merging progress', () => {
  it('a spectator game stays in the public shape (no revert counts appear)', () => {
    const pub = toPublic(fixtureGame());
    const merged = mergeProgress(pub, progressOf(pub, { position: 7, publicShape: true }))!;
    expect(merged.version).toBe(pub.version + 1);
    expect(merged.team_states.every((t) => !('revert_count' in t))).toBe(true);
  });
  it('a member game takes the counts the update carries', () => {
    const game = fixtureGame();
    const merged = mergeProgress(game, progressOf(game, { position: 7, revertCount: 1 }))!;
    expect(merged.team_states.find((t) => t.team_id === 11)!.revert_count).toBe(1);
  });
  it('a version gap asks for the full state again (null)', () => {
    const game = fixtureGame();
    expect(mergeProgress(game, progressOf(game, { version: game.version + 2 }))).toBeNull();
  });
  it('a full members-room game after a reset replaces the counts and keeps user_teams', () => {
    const game = fixtureGame({ team_states: fixtureGame().team_states.map((t) => ({ ...t, revert_count: 3 })) });
    const { user_teams: _u, ...members } = game;
    const reset = { ...members, version: game.version + 1, team_states: members.team_states.map((t) => ({ ...t, revert_count: 0, current_position: 1, position_history: [1] })) };
    const next = (applyGameUpdate(game, reset as never) as { game: typeof game }).game;
    expect(next.user_teams).toEqual(game.user_teams);
    expect(next.team_states.every((t) => t.revert_count === 0)).toBe(true);
  });
});

describe('a full game equal in part or in whole to the held one', () => {
  it('the same game again (the join_game answer after the page load) gives the held object back', () => {
    const pub = toPublic(fixtureGame());
    const again = structuredClone(pub);
    expect((applyGameUpdate(pub, again) as { game: typeof pub }).game).toBe(pub);
  });
  it('a changed game keeps the unchanged parts of the held one and takes the changed ones', () => {
    const pub = toPublic(fixtureGame());
    const moved = structuredClone(pub);
    moved.version = pub.version + 1;
    moved.team_states[0].current_position = pub.team_states[0].current_position + 3;
    const next = (applyGameUpdate(pub, moved) as { game: typeof pub }).game;
    expect(next).toEqual(moved);
    expect(next).not.toBe(pub);
    expect(next.board_squares).toBe(pub.board_squares);
    expect(next.board_connections).toBe(pub.board_connections);
    expect(next.team_states).not.toBe(pub.team_states);
    expect(next.team_states[0]).not.toBe(pub.team_states[0]);
    expect(next.team_states[1]).toBe(pub.team_states[1]);
  });
  it('the same version with a renamed team (the full state asked for after team_update, which keeps the version) is taken', () => {
    const pub = toPublic(fixtureGame());
    const renamed = structuredClone(pub);
    renamed.team_states[1].team_name = `${pub.team_states[1].team_name} II`;
    const next = (applyGameUpdate(pub, renamed) as { game: typeof pub }).game;
    expect(next).toEqual(renamed);
    expect(next.team_states[0]).toBe(pub.team_states[0]);
  });
  it('the same version with a field more or less is no repeat', () => {
    const pub = toPublic(fixtureGame());
    const more = { ...structuredClone(pub), extra: 1 } as typeof pub;
    expect((applyGameUpdate(pub, more) as { game: typeof pub }).game).not.toBe(pub);
    const { winners: _w, ...less } = structuredClone(pub);
    expect((applyGameUpdate(pub, less as typeof pub) as { game: typeof pub }).game).not.toBe(pub);
  });
});
