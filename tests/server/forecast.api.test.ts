import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import sharp from 'sharp';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { ApiClient } from '../support/api';
import { importTasksCsv } from '../support/fixtures';
import { ForecastAnswerSchema } from '../../contract/lobby';
import { autoSplit, countsToSettings } from '../../contract/game';
import { act, castOf, newGame, stored, watchersOf, type Cast } from '../support/liveSocket';

/**
 * GET /api/public/game/{gameId}/forecast (docs/server.md §15; docs/game-rules.md §14) against a
 * real server on each database: the answer's shape, 10,000 runs, chances summing to 1, the
 * version it was made for, a new forecast after a roll, the same chances after a proof is sent
 * and approved (seeded from the board and the squares), equal chances for equal squares, and
 * 400/404 for bad, missing and PENDING games.
 */
describe.each(backends())('forecast (%s)', (backend) => {
  const suite = useServerSuite(backend, { BOARD_SEED: '1515' });
  let cast: Cast;
  const { open, watcher } = watchersOf(() => suite.url);

  beforeAll(async () => {
    cast = await castOf(suite.url, `forecast-${backend}`);
  });

  afterAll(() => {
    for (const w of open) w.close();
  });

  const forecast = async (gameId: number | string) => new ApiClient(suite.url).get(`/api/public/game/${gameId}/forecast`);

  it('answers the chances of the current version from 10,000 runs, for anyone, and a new forecast after a roll', async () => {
    // A board without snakes or ladders (the default test board walls off N with snakes).
    const game = await newGame(cast, { noWin: false });
    const first = await forecast(game.gameId);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const f = v.parse(ForecastAnswerSchema, first.body);
    const before = await stored(cast, game);
    expect(f.version).toBe(before.version);
    expect(f.runs).toBeGreaterThanOrEqual(10_000);
    expect(f.teams.map((t) => t.team_id)).toEqual([game.team1, game.team2]);
    expect(f.teams[0].win_chance + f.teams[1].win_chance).toBeCloseTo(1, 9);
    // Both teams stand on square 1: the same chances up to the simulation's noise.
    expect(Math.abs(f.teams[0].win_chance - f.teams[1].win_chance)).toBeLessThan(0.05);
    expect(f.teams[0].expected_rolls_to_finish).toBeGreaterThan(1);
    // The same version answers the same forecast.
    expect((await forecast(game.gameId)).body).toEqual(first.body);

    const leader = await watcher('leader', cast.owner);
    await leader.join(game.gameId, true);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const after = await stored(cast, game);
    const second = v.parse(ForecastAnswerSchema, (await forecast(game.gameId)).body);
    expect(second.version).toBe(after.version);
    expect(second.version).toBeGreaterThan(f.version);
    const moved = after.team_states.find((t) => t.team_id === game.team1)!.current_position;
    // Team 1 moved ahead on a board without snakes or ladders.
    expect(moved).toBeGreaterThan(1);
    expect(second.teams[0].win_chance).toBeGreaterThan(f.teams[0].win_chance);
    expect(second.teams[0].expected_rolls_to_finish).toBeLessThan(f.teams[0].expected_rolls_to_finish);
  });

  it('gives two teams on the same square equal chances', async () => {
    // Both teams stand on square 1 of a board with snakes (the default test board).
    const game = await newGame(cast, { noWin: true });
    const f = v.parse(ForecastAnswerSchema, (await forecast(game.gameId)).body);
    expect(f.teams[0].win_chance).toBe(f.teams[1].win_chance);
    expect(f.teams[0].expected_rolls_to_finish).toBe(f.teams[1].expected_rolls_to_finish);
  });

  it('answers 400 for a malformed id and 404 for a missing or PENDING game', async () => {
    const bad = await forecast('abc');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual(expect.any(String));
    const missing = await forecast(987654);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Game not found.' });
    // A game is PENDING while its event has no team (docs/game-rules.md §6): not public.
    const ev = await cast.owner.post(`/api/clan/${cast.clanId}/events/`, { name: 'No teams yet', start_datetime: '2031-06-01T18:00Z' });
    expect(ev.status).toBe(200);
    const g = await cast.owner.post(`/api/clan/${cast.clanId}/events/${ev.body.event.id}/game/`, { board_size: 100, num_snakes: 0, num_ladders: 0, max_reverts_allowed: 1, ...countsToSettings(autoSplit(100)) });
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    const created = await cast.owner.get(`/api/clan/${cast.clanId}/events/${ev.body.event.id}/game/${g.body.game.id}`);
    expect(created.body.game.status).toBe('PENDING');
    expect(await forecast(g.body.game.id)).toMatchObject({ status: 404, body: { error: 'Game not found.' } });
  });

  it('answers the same chances after a proof is sent and approved: a new version, nobody moved', async () => {
    // Last in the suite: the clan's task pool is filled for this one (the squares need tasks to prove).
    await importTasksCsv(cast.owner, cast.clanId);
    const game = await newGame(cast, { size: 25, noWin: false, proof: true });
    const leader = await watcher('leader-proof', cast.owner);
    await leader.join(game.gameId, true);
    // From Start the first roll needs no proof; then team 1 stands on a task square.
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const rolled = await stored(cast, game);
    const before = v.parse(ForecastAnswerSchema, (await forecast(game.gameId)).body);
    expect(before.version).toBe(rolled.version);

    const form = new FormData();
    form.append('team_id', String(game.team1));
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3264c8' } }).png().toBuffer();
    form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'proof.png');
    const sent = await cast.member.call('POST', `${game.path}/submissions`, form);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const afterSent = await stored(cast, game);
    const whenSent = v.parse(ForecastAnswerSchema, (await forecast(game.gameId)).body);
    expect(afterSent.version).toBeGreaterThan(rolled.version);
    expect(whenSent.version).toBe(afterSent.version);
    expect(whenSent.teams).toEqual(before.teams);

    const review = await cast.owner.put(`${game.path}/submissions/${sent.body.submission.id}/review`, { decision: 'approve' });
    expect(review.status, JSON.stringify(review.body)).toBe(200);
    const approved = await stored(cast, game);
    expect(approved.version).toBeGreaterThan(afterSent.version);
    expect(approved.team_states.map((t) => t.current_position)).toEqual(rolled.team_states.map((t) => t.current_position));
    const whenApproved = v.parse(ForecastAnswerSchema, (await forecast(game.gameId)).body);
    expect(whenApproved.version).toBe(approved.version);
    expect(whenApproved.teams).toEqual(before.teams);

    // The next roll moves team 1 on: the chances change.
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const moved = v.parse(ForecastAnswerSchema, (await forecast(game.gameId)).body);
    expect(moved.teams).not.toEqual(before.teams);
  });
});
