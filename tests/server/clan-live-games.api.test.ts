import { describe, it, expect, beforeAll } from 'vitest';
import * as v from 'valibot';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { ApiClient } from '../support/api';
import { openDirectDb } from '../support/fixtures';
import { autoSplit, countsToSettings } from '../../contract/game';
import { ClanLiveGamesAnswerSchema } from '../../contract/lobby';

/**
 * GET /api/clan/{clanId}/games/live over real HTTP (the dashboard's live games of a clan,
 * docs/game-rules.md §1): READY, in-progress and paused games of that clan only, newest first,
 * with event name and team count; PENDING and finished games left out; members only (401 signed
 * out, 403 for a member of another clan, 404 for a missing clan, 400 for a malformed id).
 */
describe.each(backends())('clan live games API (%s)', (backend) => {
  const suite = useServerSuite(backend);
  const ok = (r: { status: number; body: unknown }) => expect(r.status, JSON.stringify(r.body)).toBe(200);
  let owner: ApiClient;
  let member: ApiClient;
  let rival: ApiClient;
  let clanId: number;
  let rivalClanId: number;
  const games = {} as Record<'ready' | 'running' | 'paused' | 'finished' | 'pending' | 'rival', { gameId: number; eventId: number }>;

  /** An event of `clan` named `name` with `teams` teams and a 25-square game moved to `status` (PENDING without teams). */
  async function gameOf(as: ApiClient, clan: number, name: string, teams: number, status?: 'in-progress' | 'paused' | 'finished') {
    const ev = await as.post(`/api/clan/${clan}/events/`, { name, start_datetime: '2031-06-01T18:00Z' });
    ok(ev);
    const eventId = ev.body.event.id as number;
    for (let i = 0; i < teams; i += 1) ok(await as.post(`/api/clan/${clan}/events/${eventId}/teams/`, { name: `Team ${i + 1}`, color: '#aa0000' }));
    const g = await as.post(`/api/clan/${clan}/events/${eventId}/game/`, { board_size: 25, num_snakes: 0, num_ladders: 0, max_reverts_allowed: 3, ...countsToSettings(autoSplit(25)) });
    ok(g);
    const gameId = g.body.game.id as number;
    const path = `/api/clan/${clan}/events/${eventId}/game/${gameId}/status`;
    if (status === 'in-progress' || status === 'paused' || status === 'finished') ok(await as.put(path, { status: 'in-progress' }));
    if (status === 'paused') ok(await as.put(path, { status: 'paused' }));
    if (status === 'finished') await finish(gameId);
    return { gameId, eventId };
  }

  /** Marks a game finished in the database, as a winning roll leaves it (the socket suites cover the roll). */
  async function finish(gameId: number) {
    const dbh = await openDirectDb(suite.env);
    try {
      await dbh.db.updateTable('games').set((eb) => ({ status: 'finished', version: eb('version', '+', 1) })).where('id', '=', gameId).execute();
    } finally {
      await dbh.close();
    }
  }

  beforeAll(async () => {
    owner = suite.client();
    clanId = (await owner.onboard('live-owner', ['LiveBoss'], { role: 'Owner', clan_name: 'Live Clan' })).clan_memberships_list[0].clan_id;
    member = suite.client();
    await member.onboard('live-member', ['LiveMember'], { role: 'Member', clan_id: clanId });
    rival = suite.client();
    rivalClanId = (await rival.onboard('live-rival', ['LiveRival'], { role: 'Owner', clan_name: 'Rival Live Clan' })).clan_memberships_list[0].clan_id;
    games.ready = await gameOf(owner, clanId, 'Ready Race', 2);
    games.running = await gameOf(owner, clanId, 'Running Race', 3, 'in-progress');
    games.paused = await gameOf(owner, clanId, 'Paused Race', 1, 'paused');
    games.finished = await gameOf(owner, clanId, 'Finished Race', 1, 'finished');
    games.pending = await gameOf(owner, clanId, 'No Teams', 0);
    games.rival = await gameOf(rival, rivalClanId, 'Rival Race', 1, 'in-progress');
  });

  it("lists the clan's READY, in-progress and paused games, newest first, to its members, with and without the trailing slash", async () => {
    for (const [who, path] of [[owner, `/api/clan/${clanId}/games/live`], [member, `/api/clan/${clanId}/games/live/`]] as const) {
      const r = await who.get(path);
      ok(r);
      const parsed = v.parse(ClanLiveGamesAnswerSchema, r.body);
      expect(parsed).toEqual({
        games: [
          { game_id: games.paused.gameId, event_id: games.paused.eventId, event_name: 'Paused Race', status: 'paused', board_size: 25, team_count: 1 },
          { game_id: games.running.gameId, event_id: games.running.eventId, event_name: 'Running Race', status: 'in-progress', board_size: 25, team_count: 3 },
          { game_id: games.ready.gameId, event_id: games.ready.eventId, event_name: 'Ready Race', status: 'READY', board_size: 25, team_count: 2 },
        ],
      });
    }
    const r = await rival.get(`/api/clan/${rivalClanId}/games/live`);
    ok(r);
    expect(r.body.games.map((g: { game_id: number }) => g.game_id)).toEqual([games.rival.gameId]);
  });

  it('answers 401 signed out, 403 to a member of another clan, 404 for a missing clan and 400 for a malformed id', async () => {
    const anon = await suite.client().get(`/api/clan/${clanId}/games/live`);
    expect([anon.status, anon.body]).toEqual([401, { error: 'You must be signed in.' }]);
    const other = await rival.get(`/api/clan/${clanId}/games/live`);
    expect(other.status).toBe(403);
    expect(typeof other.body.error).toBe('string');
    const missing = await owner.get('/api/clan/999999/games/live');
    expect([missing.status, missing.body]).toEqual([404, { error: 'Clan ID 999999 not found.' }]);
    for (const bad of ['abc', '0', '1.5', '99999999999']) {
      const r = await owner.get(`/api/clan/${bad}/games/live`);
      expect([r.status, r.body], bad).toEqual([400, { error: 'Invalid clan id.' }]);
    }
  });
});
