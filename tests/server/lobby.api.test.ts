import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as v from 'valibot';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { openDirectDb } from '../support/fixtures';
import { ApiClient } from '../support/api';
import type { DbHandle } from '../../server/db/connect';
import { autoSplit, countsToSettings } from '../../contract/game';
import { LobbyAnswerSchema, SpectateAnswerSchema } from '../../contract/lobby';
import { PublicGameAnswerSchema } from '../../contract/gameApi';

/**
 * The lobby and spectating calls over real HTTP (docs/server.md
 * §3, "Public game", "Spectate list"; docs/client.md §4; docs/game-rules.md
 * §11): each call × {signed out, a player with two IGNs on
 * teams, a team member, a clan member on no team, a player of another clan}, PENDING games kept
 * out of the public calls, the order of the rows, and bad ids.
 */

describe.each(backends())('lobby and spectating API (%s)', (backend) => {
  const suite = useServerSuite(backend);
  let dbh: DbHandle;
  const people = {} as Record<'anon' | 'owner' | 'member' | 'bystander' | 'rival', ApiClient>;
  const ign = {} as Record<'ownerA' | 'ownerB' | 'member' | 'rival', number>;
  const g = {} as Record<'active' | 'finished' | 'pending' | 'rival', { gameId: number; eventId: number; clanId: number; teams: number[] }>;
  let clanId: number;
  let rivalClanId: number;

  const client = () => suite.client();
  const ok = (r: { status: number; body: unknown }) => expect(r.status, JSON.stringify(r.body)).toBe(200);

  /** An event of `clan` with `teams` ([name, color, [ignId, role][]]) and, unless `game` is false, a 25-square game. */
  async function setup(as: ApiClient, clan: number, name: string, teams: [string, string, [number, string][]][], game = true) {
    const ev = await as.post(`/api/clan/${clan}/events/`, { name, start_datetime: '2031-06-01T18:00Z' });
    ok(ev);
    const eventId = ev.body.event.id as number;
    const teamIds: number[] = [];
    for (const [teamName, color, members] of teams) {
      const t = await as.post(`/api/clan/${clan}/events/${eventId}/teams/`, { name: teamName, color });
      ok(t);
      teamIds.push(t.body.team.id);
      for (const [ignId, role] of members) ok(await as.post(`/api/clan/${clan}/events/${eventId}/teams/${t.body.team.id}/members`, { osrs_ign_id: ignId, role }));
    }
    let gameId = 0;
    if (game) {
      const r = await as.post(`/api/clan/${clan}/events/${eventId}/game/`, { board_size: 25, num_snakes: 0, num_ladders: 0, max_reverts_allowed: 3, ...countsToSettings(autoSplit(25)) });
      ok(r);
      gameId = r.body.game.id;
    }
    return { gameId, eventId, clanId: clan, teams: teamIds };
  }

  beforeAll(async () => {
    dbh = await openDirectDb(suite.env);
    people.anon = client();
    people.owner = client();
    const me = await people.owner.onboard('lobby-owner', ['OwnerA', 'OwnerB'], { role: 'Owner', clan_name: 'Lobby Clan' });
    clanId = me.clan_memberships_list[0].clan_id;
    ign.ownerA = me.igns.find((i: { ign: string }) => i.ign === 'OwnerA').id;
    ign.ownerB = me.igns.find((i: { ign: string }) => i.ign === 'OwnerB').id;
    people.member = client();
    ign.member = (await people.member.onboard('lobby-member', ['MemberIgn'], { role: 'Member', clan_id: clanId })).igns[0].id;
    people.bystander = client();
    await people.bystander.onboard('lobby-bystander', ['Bystander'], { role: 'Member', clan_id: clanId });
    people.rival = client();
    const rival = await people.rival.onboard('lobby-rival', ['RivalIgn'], { role: 'Owner', clan_name: 'Rival Clan' });
    rivalClanId = rival.clan_memberships_list[0].clan_id;
    ign.rival = rival.igns[0].id;

    g.active = await setup(people.owner, clanId, 'Summer Race', [
      ['Red', '#aa0000', [[ign.ownerA, 'Leader'], [ign.member, 'Member']]],
      ['Blue', '#0000aa', [[ign.ownerB, 'Leader']]],
    ]);
    g.finished = await setup(people.owner, clanId, 'Spring Race', [['Green', '#00aa00', [[ign.ownerA, 'Leader']]]]);
    g.pending = await setup(people.owner, clanId, 'No Teams Yet', []);
    await setup(people.owner, clanId, 'Teams, no game', [['Gold', '#aaaa00', [[ign.ownerB, 'Member']]]], false);
    g.rival = await setup(people.rival, rivalClanId, 'Rival Cup', [['Black', '#111111', [[ign.rival, 'Leader']]]]);
    ok(await people.rival.put(`/api/clan/${rivalClanId}/events/${g.rival.eventId}/game/${g.rival.gameId}/status`, { status: 'in-progress' }));

    // Progress as rolls would leave it (the socket suite covers rolls themselves), bumping the
    // versions as every change does (the server's game cache trusts them).
    await dbh.db.updateTable('team_states').set({ current_position: 9, position_history: '[1,5,9]' }).where('team_id', '=', g.active.teams[1]).execute();
    await dbh.db.updateTable('team_states').set({ current_position: 25, position_history: '[1,25]' }).where('team_id', '=', g.finished.teams[0]).execute();
    await dbh.db.updateTable('games').set((eb) => ({ version: eb('version', '+', 1) })).where('id', '=', g.active.gameId).execute();
    await dbh.db.updateTable('games').set((eb) => ({ status: 'finished', winners: JSON.stringify([{ name: 'Green', color: '#00aa00' }]), version: eb('version', '+', 1) })).where('id', '=', g.finished.gameId).execute();
  });

  afterAll(async () => {
    await dbh?.close();
  });

  describe('GET /api/games', () => {
    it('answers 401 when signed out, with or without the trailing slash', async () => {
      for (const p of ['/api/games', '/api/games/']) {
        const r = await people.anon.get(p);
        expect(r.status).toBe(401);
        expect(r.body).toEqual({ error: 'You must be signed in.' });
      }
    });

    it('a player with two IGNs on teams gets one row per IGN, active and finished, grouped by clan and IGN, newest first', async () => {
      const r = await people.owner.get('/api/games');
      ok(r);
      const { games } = v.parse(LobbyAnswerSchema, r.body);
      expect(games.map((x) => [x.player_ign, x.event_name, x.status])).toEqual([
        ['OwnerA', 'Spring Race', 'finished'],
        ['OwnerA', 'Summer Race', 'READY'],
        ['OwnerB', 'Summer Race', 'READY'],
      ]);
      const summer = games[1];
      expect(summer).toEqual({
        game_id: g.active.gameId,
        clan_id: clanId,
        clan_name: 'Lobby Clan',
        event_id: g.active.eventId,
        event_name: 'Summer Race',
        board_size: 25,
        status: 'READY',
        player_ign: 'OwnerA',
        teams: [
          { id: g.active.teams[0], name: 'Red', color: '#aa0000', current_position: 1, is_mine: true },
          { id: g.active.teams[1], name: 'Blue', color: '#0000aa', current_position: 9, is_mine: true },
        ],
      });
      expect(games[0].teams).toEqual([{ id: g.finished.teams[0], name: 'Green', color: '#00aa00', current_position: 25, is_mine: true }]);
      expect((await people.owner.get('/api/games/')).body).toEqual(r.body);
    });

    it("a team member sees their game with only their own team starred; others see only their own games", async () => {
      const m = v.parse(LobbyAnswerSchema, (await people.member.get('/api/games')).body).games;
      expect(m).toHaveLength(1);
      expect(m[0]).toMatchObject({ game_id: g.active.gameId, player_ign: 'MemberIgn', clan_name: 'Lobby Clan' });
      expect(m[0].teams.map((t) => [t.name, t.is_mine])).toEqual([['Red', true], ['Blue', false]]);
      expect((await people.bystander.get('/api/games')).body).toEqual({ games: [] });
      const rival = v.parse(LobbyAnswerSchema, (await people.rival.get('/api/games')).body).games;
      expect(rival.map((x) => [x.clan_name, x.event_name, x.status, x.player_ign])).toEqual([['Rival Clan', 'Rival Cup', 'in-progress', 'RivalIgn']]);
    });
  });

  describe('GET /api/games/spectate', () => {
    it('lists every game that is not PENDING, newest first, to anyone', async () => {
      for (const as of [people.anon, people.bystander, people.rival]) {
        for (const p of ['/api/games/spectate', '/api/games/spectate/']) {
          const r = await as.get(p);
          ok(r);
          const { games } = v.parse(SpectateAnswerSchema, r.body);
          expect(games.map((x) => [x.game_id, x.event_name, x.clan_name, x.status, x.board_size, x.team_count])).toEqual([
            [g.rival.gameId, 'Rival Cup', 'Rival Clan', 'in-progress', 25, 1],
            [g.finished.gameId, 'Spring Race', 'Lobby Clan', 'finished', 25, 1],
            [g.active.gameId, 'Summer Race', 'Lobby Clan', 'READY', 25, 2],
          ]);
          for (const x of games) expect(Number.isNaN(Date.parse(x.created_at))).toBe(false);
          expect(Object.keys(games[0]).sort()).toEqual(['board_size', 'clan_name', 'created_at', 'event_name', 'game_id', 'status', 'team_count']);
        }
      }
    });
  });

  describe('GET /api/public/game/{gameId}', () => {
    it('answers the public shape to anyone: no user_teams, no revert counts', async () => {
      for (const as of [people.anon, people.owner, people.rival]) {
        for (const p of [`/api/public/game/${g.active.gameId}`, `/api/public/game/${g.active.gameId}/`]) {
          const r = await as.get(p);
          ok(r);
          const { game } = v.parse(PublicGameAnswerSchema, r.body);
          expect(r.body.game).not.toHaveProperty('user_teams');
          for (const t of r.body.game.team_states) expect(t).not.toHaveProperty('revert_count');
          expect(game).toMatchObject({ id: g.active.gameId, clan_name: 'Lobby Clan', event_name: 'Summer Race', status: 'READY', board_size: 25 });
          expect(game.board_squares).toHaveLength(25);
          expect(game.team_states.map((t) => [t.team_name, t.current_position, t.position_history])).toEqual([['Red', 1, [1]], ['Blue', 9, [1, 5, 9]]]);
        }
      }
      const finished = await people.anon.get(`/api/public/game/${g.finished.gameId}`);
      ok(finished);
      expect(finished.body.game.winners).toEqual([{ name: 'Green', color: '#00aa00' }]);
    });

    it("answers 404 'Game not found.' for a missing or PENDING game, 400 for a malformed id", async () => {
      for (const id of [g.pending.gameId, 987654, 2147483647]) {
        const r = await people.anon.get(`/api/public/game/${id}`);
        expect(r.status, String(id)).toBe(404);
        expect(r.body).toEqual({ error: 'Game not found.' });
      }
      expect((await people.owner.get(`/api/public/game/${g.pending.gameId}`)).status).toBe(404);
      for (const id of ['abc', '0', '-1', '1e3', '99999999999', '1.5']) {
        const r = await people.anon.get(`/api/public/game/${id}`);
        expect(r.status, id).toBe(400);
        expect(r.body).toEqual({ error: 'Invalid game id.' });
      }
    });
  });
});
