import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as v from 'valibot';
import { backends } from '../support/server';
import { ApiClient, type Answer } from '../support/api';
import { useServerSuite } from '../support/suite';
import { actorClient, clanWithRoles, importTasksCsv, matrixRows, openDirectDb, PERMISSION_TEXT, READ, WRITE as CHANGE, type Actor, type Row } from '../support/fixtures';
import type { DbHandle } from '../../server/db/connect';
import { toPublicGame } from '../../server/games/service';
import {
  autoSplit,
  countsFromSettings,
  countsToSettings,
  layoutSquares,
  rowOf,
  SETTINGS_MESSAGES,
  type Connection,
  type GameSettings,
} from '../../contract/game';
import { GAME_MESSAGES, GameAnswerSchema, GameCreatedAnswerSchema, GameRandomizedAnswerSchema, PublicGameSchema, type Game } from '../../contract/gameApi';

/**
 * Game calls over real HTTP (docs/game-rules.md §4, §6, §12; docs/server.md §3; docs/client.md §11,
 * §12; docs/server.md §5): the permission matrix of every call ×
 * {signed out, non-member, Guest, Member, Admin, Owner}, every settings rule at its boundaries on
 * create and randomize, a 100-square board built from the real task pool, randomize keeping
 * progress, the manual board, status transitions, reset, delete, and bad ids. The server runs with
 * BOARD_SEED, so its boards are reproducible.
 */

/** Valid settings for a board of `n` squares: 5 snakes, 5 ladders, 3 reverts, the auto split. */
function settings(n = 100, over: Partial<Record<keyof GameSettings, unknown>> = {}): Record<string, unknown> {
  return { board_size: n, num_snakes: 5, num_ladders: 5, max_reverts_allowed: 3, ...countsToSettings(autoSplit(n)), ...over };
}

/** The board rules of docs/server.md §5 for a list of connections on a board of n squares. */
function expectBoardRules(connections: Connection[], n: number, snakes: number, ladders: number): void {
  expect(connections.filter((c) => c.type === 'snake')).toHaveLength(snakes);
  expect(connections.filter((c) => c.type === 'ladder')).toHaveLength(ladders);
  const used = new Set<number>();
  for (const c of connections) {
    for (const s of [c.start, c.end]) {
      expect(s).toBeGreaterThan(1);
      expect(s).toBeLessThan(n);
      expect(used.has(s), `square ${s} used twice`).toBe(false);
      used.add(s);
    }
    if (c.type === 'snake') expect(c.start).toBeGreaterThan(c.end);
    else expect(c.start).toBeLessThan(c.end);
    expect(rowOf(c.start, n)).not.toBe(rowOf(c.end, n));
  }
}

describe.each(backends())('games API (%s)', (backend) => {
  const suite = useServerSuite(backend, { BOARD_SEED: '424242' });
  let dbh: DbHandle;
  let clanId: number;
  const people = {} as Record<'anon' | 'outsider' | 'guest' | 'member' | 'admin' | 'owner', ApiClient>;
  const ids = {} as Record<'outsider' | 'guest' | 'member' | 'admin' | 'owner', number>;
  let ownerIgnId: number;
  let serial = 0;
  /** Pool tasks by id, as the clan's task list answers them. */
  const pool = new Map<number, { description: string; difficulty: string }>();

  const client = () => suite.client();
  const gamePath = (eventId: number, gameId?: number, rest = '') =>
    `/api/clan/${clanId}/events/${eventId}/game${gameId === undefined ? '/' : `/${gameId}${rest}`}`;

  async function signIn(name: string, igns?: string[]): Promise<{ api: ApiClient; id: number; me: any }> {
    const api = client();
    const me = igns ? await api.onboard(name, igns) : (await (await api.devLogin(name)).get('/api/user/me')).body;
    return { api, id: me.id, me };
  }

  /** A new event of the shared clan; returns its id. */
  async function newEvent(): Promise<number> {
    const r = await people.owner.post(`/api/clan/${clanId}/events/`, { name: `Event ${++serial}`, start_datetime: '2031-06-01T18:00Z' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.event.id;
  }

  /** A new team of an event; returns its id. */
  async function newTeam(eventId: number, name: string, color = '#123456'): Promise<number> {
    const r = await people.owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name, color });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.team.id;
  }

  /** A new event with `teams` teams and a game of `body` settings; returns both ids. */
  async function newGame(opts: { teams?: number; body?: Record<string, unknown> } = {}): Promise<{ eventId: number; gameId: number; teamIds: number[] }> {
    const eventId = await newEvent();
    const teamIds: number[] = [];
    for (let i = 0; i < (opts.teams ?? 1); i += 1) teamIds.push(await newTeam(eventId, `Team ${i + 1}`, `#00000${i + 1}`));
    const r = await people.owner.post(gamePath(eventId), opts.body ?? settings());
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return { eventId, gameId: r.body.game.id, teamIds };
  }

  /** Bumps a game's version after a direct write, as every change in the server does (its game cache trusts the version). */
  async function bumpVersion(gameId: number): Promise<void> {
    await dbh.db.updateTable('games').set((eb) => ({ version: eb('version', '+', 1) })).where('id', '=', gameId).execute();
  }

  async function getGame(eventId: number, gameId: number, as = people.owner): Promise<Game> {
    const r = await as.get(gamePath(eventId, gameId));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return v.parse(GameAnswerSchema, r.body).game;
  }

  async function eventGameId(eventId: number): Promise<number | null> {
    const r = await people.owner.get(`/api/clan/${clanId}/events/`);
    expect(r.status).toBe(200);
    return r.body.events.find((e: { id: number }) => e.id === eventId).game_id;
  }

  beforeAll(async () => {
    dbh = await openDirectDb(suite.env);
    const c = await clanWithRoles(suite.url, {
      prefix: 'game',
      clanName: `Game Clan ${backend}`,
      signIn: (name) => signIn(name, name === 'game-owner' ? ['OwnerIgn'] : undefined),
    });
    Object.assign(people, c.people);
    Object.assign(ids, c.ids);
    ownerIgnId = c.me.owner.igns[0].id;
    clanId = c.clanId;
    for (const [id, task] of await importTasksCsv(people.owner, clanId)) pool.set(id, task);
    expect(pool.size).toBe(144);
  }, 60_000);

  afterAll(() => dbh?.close());

  const actor = (a: Actor): ApiClient => actorClient(people, a);

  // -------------------------------------------------------------------------------------------
  describe('permission matrix', () => {
    interface Ctx { eventId: number; gameId: number }
    const withGame = () => newGame();
    const MATRIX: { call: string; expect: Row; prepare: () => Promise<Ctx>; send: (as: ApiClient, ctx: Ctx) => Promise<Answer> }[] = [
      { call: 'GET game', expect: READ, prepare: withGame, send: (as, x) => as.get(gamePath(x.eventId, x.gameId)) },
      { call: 'POST create', expect: CHANGE, prepare: async () => ({ eventId: await newEvent(), gameId: 0 }), send: (as, x) => as.post(gamePath(x.eventId), settings()) },
      { call: 'PUT randomize', expect: CHANGE, prepare: withGame, send: (as, x) => as.put(gamePath(x.eventId, x.gameId), settings(49)) },
      { call: 'PUT board', expect: CHANGE, prepare: withGame, send: (as, x) => as.put(gamePath(x.eventId, x.gameId, '/board'), { snakes_config: [[50, 30]], ladders_config: [[3, 25]] }) },
      { call: 'PUT status', expect: CHANGE, prepare: withGame, send: (as, x) => as.put(gamePath(x.eventId, x.gameId, '/status'), { status: 'in-progress' }) },
      { call: 'PUT reset', expect: CHANGE, prepare: withGame, send: (as, x) => as.put(gamePath(x.eventId, x.gameId, '/reset')) },
      { call: 'DELETE game', expect: CHANGE, prepare: withGame, send: (as, x) => as.del(gamePath(x.eventId, x.gameId)) },
    ];
    const ROWS = matrixRows(MATRIX);

    it.each(ROWS)('$call as $actor → $status', async ({ call, actor: a, status, prepare, send }) => {
      const ctx = await prepare();
      const before = ctx.gameId ? await getGame(ctx.eventId, ctx.gameId) : null;
      const r = await send(actor(a), ctx);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      if (status !== 200) {
        expect(typeof r.body.error).toBe('string');
        if (a === 'signed out') expect(r.body.error).toBe('You must be signed in.');
        else expect(r.body.error).toBe(PERMISSION_TEXT);
        // A refused call changes nothing.
        if (before) expect(await getGame(ctx.eventId, ctx.gameId)).toEqual(before);
        else expect(await eventGameId(ctx.eventId)).toBeNull();
        return;
      }
      if (call === 'GET game') {
        const game = v.parse(GameAnswerSchema, r.body).game;
        expect(game.id).toBe(ctx.gameId);
        expect(game.user_teams).toEqual([]);
      }
      if (call === 'POST create') {
        expect(v.parse(GameCreatedAnswerSchema, r.body).message).toBe(GAME_MESSAGES.created);
        expect(await eventGameId(ctx.eventId)).toBe(r.body.game.id);
      }
      if (before && call !== 'GET game' && call !== 'DELETE game') expect((await getGame(ctx.eventId, ctx.gameId)).version).toBeGreaterThan(before.version);
      if (call === 'DELETE game') expect(await eventGameId(ctx.eventId)).toBeNull();
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('settings rules at their boundaries (create and randomize)', () => {
    const n = 100;
    const split = autoSplit(n);
    const CASES: { label: string; body: unknown; status: number; error?: string }[] = [
      { label: 'board 24', body: settings(24), status: 400, error: SETTINGS_MESSAGES.boardSize },
      { label: 'board 25', body: settings(25), status: 200 },
      { label: 'board 225', body: settings(225), status: 200 },
      { label: 'board 226', body: settings(226), status: 400, error: SETTINGS_MESSAGES.boardSize },
      { label: 'board 99 (not a square)', body: settings(99), status: 400, error: SETTINGS_MESSAGES.boardSize },
      { label: 'board as text', body: settings(100, { board_size: '100' }), status: 400, error: SETTINGS_MESSAGES.boardSize },
      { label: '12 snakes', body: settings(n, { num_snakes: 12 }), status: 200 },
      { label: '13 snakes', body: settings(n, { num_snakes: 13 }), status: 400, error: SETTINGS_MESSAGES.snakes },
      { label: '-1 snakes', body: settings(n, { num_snakes: -1 }), status: 400, error: SETTINGS_MESSAGES.snakes },
      { label: '12 ladders', body: settings(n, { num_ladders: 12 }), status: 200 },
      { label: '13 ladders', body: settings(n, { num_ladders: 13 }), status: 400, error: SETTINGS_MESSAGES.ladders },
      { label: '0 snakes 0 ladders', body: settings(n, { num_snakes: 0, num_ladders: 0 }), status: 200 },
      { label: '10 reverts', body: settings(n, { max_reverts_allowed: 10 }), status: 200 },
      { label: '11 reverts', body: settings(n, { max_reverts_allowed: 11 }), status: 400, error: SETTINGS_MESSAGES.reverts },
      { label: '-1 reverts', body: settings(n, { max_reverts_allowed: -1 }), status: 400, error: SETTINGS_MESSAGES.reverts },
      { label: 'counts sum N-3', body: settings(n, { num_easy_tasks: split.easy - 1 }), status: 400, error: SETTINGS_MESSAGES.tooFew(97, 98) },
      { label: 'counts sum N-2', body: settings(n), status: 200 },
      { label: 'counts sum N-1', body: settings(n, { num_easy_tasks: split.easy + 1 }), status: 400, error: SETTINGS_MESSAGES.tooMany(99, 98) },
      { label: 'all tasks in one tier', body: settings(n, { ...countsToSettings({ easy: 98, medium: 0, hard: 0, elite: 0, master: 0 }) }), status: 200 },
      { label: 'negative count', body: settings(n, { num_easy_tasks: -1, num_master_tasks: split.master + split.easy + 1 }), status: 400, error: SETTINGS_MESSAGES.negativeCount },
      { label: 'fractional count', body: settings(n, { num_easy_tasks: 18.5, num_master_tasks: 19.5 }), status: 400, error: SETTINGS_MESSAGES.wholeCount },
      { label: '25 squares with 12 snakes (cannot fit)', body: settings(25, { num_snakes: 12, num_ladders: 0 }), status: 400, error: SETTINGS_MESSAGES.tooManyConnections(25, 12, 0) },
      { label: 'a missing field', body: (({ num_ladders: _l, ...rest }) => rest)(settings(n)), status: 400, error: SETTINGS_MESSAGES.required },
      { label: 'not an object', body: [1, 2, 3], status: 400, error: SETTINGS_MESSAGES.required },
      { label: 'not JSON', body: '{board_size:', status: 400, error: 'Request body must be valid JSON.' },
    ];

    it.each(CASES)('create: $label → $status', async ({ body, status, error }) => {
      const eventId = await newEvent();
      const r = await people.owner.post(gamePath(eventId), body);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      if (error) expect(r.body.error).toBe(error);
      if (status === 200) {
        const game = await getGame(eventId, r.body.game.id);
        const sent = body as GameSettings;
        expect({ ...game, ...sent }).toEqual(game);
        expect(game.board_squares).toHaveLength(sent.board_size);
        expectBoardRules(game.board_connections, sent.board_size, sent.num_snakes, sent.num_ladders);
      } else {
        expect(await eventGameId(eventId)).toBeNull();
      }
    });

    it.each(CASES)('randomize: $label → $status', async ({ body, status, error }) => {
      const { eventId, gameId } = await newGame({ body: settings(64) });
      const before = await getGame(eventId, gameId);
      const r = await people.owner.put(gamePath(eventId, gameId), body);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      if (error) expect(r.body.error).toBe(error);
      const after = await getGame(eventId, gameId);
      if (status === 200) {
        const answer = v.parse(GameRandomizedAnswerSchema, r.body);
        expect(answer.message).toBe(GAME_MESSAGES.randomized);
        expect(answer.game).toEqual(after);
        const sent = body as GameSettings;
        expect({ ...after, ...sent }).toEqual(after);
        expect(after.board_squares.map((s) => s.square_index)).toEqual(Array.from({ length: sent.board_size }, (_, i) => i + 1));
        expectBoardRules(after.board_connections, sent.board_size, sent.num_snakes, sent.num_ladders);
        expect(after.version).toBe(before.version + 1);
      } else {
        expect(after).toEqual(before);
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('create', () => {
    it('builds a 100-square board from the real task pool, a team state per team, READY, a Server log entry', async () => {
      const { eventId, gameId, teamIds } = await newGame({ teams: 2 });
      const add = await people.owner.post(`/api/clan/${clanId}/events/${eventId}/teams/${teamIds[0]}/members`, { osrs_ign_id: ownerIgnId, role: 'Leader' });
      expect(add.status, JSON.stringify(add.body)).toBe(200);
      const game = await getGame(eventId, gameId);

      expect(game).toMatchObject({
        id: gameId, clan_id: clanId, clan_name: `Game Clan ${backend}`, event_id: eventId, event_type: 'Snakes and Ladders',
        status: 'READY', winners: null, ...settings(100),
      });
      expect(await eventGameId(eventId)).toBe(gameId);
      const n = 100;
      const squares = game.board_squares;
      expect(squares.map((s) => s.square_index)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(squares[0]).toMatchObject({ task_description: 'Start', task_difficulty: null, task_id: null });
      expect(squares[n - 1]).toMatchObject({ task_description: 'Finish', task_difficulty: null, task_id: null });
      expectBoardRules(game.board_connections, n, 5, 5);

      // Tiers along the board as layoutSquares lays them; every task square has a pool task of its tier, none twice.
      const laid = layoutSquares({ board_size: n, counts: countsFromSettings(game), connections: game.board_connections });
      const seen = new Set<number>();
      for (const [i, l] of laid.entries()) {
        const sq = squares[i];
        expect(sq.task_difficulty).toBe(l.task_difficulty);
        if (l.kind === 'snake' || l.kind === 'ladder') {
          expect(sq).toMatchObject({ task_description: l.kind === 'snake' ? 'Snake' : 'Ladder', task_id: null });
        } else if (l.kind === 'task') {
          expect(sq.task_id, `square ${sq.square_index}`).not.toBeNull();
          const task = pool.get(sq.task_id!)!;
          expect(task).toEqual({ description: sq.task_description, difficulty: sq.task_difficulty });
          expect(seen.has(sq.task_id!)).toBe(false);
          seen.add(sq.task_id!);
        }
      }

      expect(game.team_states).toEqual(teamIds.map((id, i) => ({
        team_id: id, team_name: `Team ${i + 1}`, team_color: `#00000${i + 1}`, current_position: 1, revert_count: 0, position_history: [1], task_state: 'none', square_since: expect.any(String), task_override: null, relief_count: 0, progress: null,
      })));
      expect(game.log_entries).toHaveLength(1);
      expect(game.log_entries[0]).toMatchObject({ team_name: 'Server', team_color: null });
      // The viewer's own team entries: the Owner's IGN leads team 1; the Admin has none.
      expect(game.user_teams).toEqual([{ id: teamIds[0], osrs_ign_id: ownerIgnId, user_id: ids.owner, role: 'Leader', player_ign: 'OwnerIgn', name: 'Team 1', color: '#000001' }]);
      expect((await getGame(eventId, gameId, people.admin)).user_teams).toEqual([]);
      // The spectators' shape drops user_teams and revert counts.
      const pub = toPublicGame(game);
      expect(v.parse(PublicGameSchema, pub)).toEqual(pub);
      expect('user_teams' in pub).toBe(false);
      expect(pub.team_states.every((t) => !('revert_count' in t))).toBe(true);
    });

    it('is PENDING when the event has no team', async () => {
      const { eventId, gameId } = await newGame({ teams: 0 });
      const game = await getGame(eventId, gameId);
      expect(game.status).toBe('PENDING');
      expect(game.team_states).toEqual([]);
    });

    it('answers 409 when the event already has a game, with or without the trailing slash', async () => {
      const { eventId, gameId } = await newGame();
      const path = gamePath(eventId);
      for (const p of [path, path.slice(0, -1)]) {
        const r = await people.owner.post(p, settings());
        expect(r.status).toBe(409);
        expect(r.body.error).toMatch(/already has a game/);
      }
      expect(await eventGameId(eventId)).toBe(gameId);
    });

    it('leaves squares Unassigned when a tier of the pool runs out', async () => {
      // 98 EASY squares but only 32 EASY pool tasks.
      const { eventId, gameId } = await newGame({ body: settings(100, { num_snakes: 0, num_ladders: 0, ...countsToSettings({ easy: 98, medium: 0, hard: 0, elite: 0, master: 0 }) }) });
      const game = await getGame(eventId, gameId);
      const easy = game.board_squares.filter((s) => s.task_difficulty === 'EASY');
      expect(easy).toHaveLength(98);
      const withTask = easy.filter((s) => s.task_id !== null);
      const easyPool = [...pool.values()].filter((t) => t.difficulty === 'EASY').length;
      expect(withTask).toHaveLength(easyPool);
      expect(new Set(withTask.map((s) => s.task_id)).size).toBe(easyPool);
      for (const s of easy.filter((x) => x.task_id === null)) expect(s.task_description).toBe('');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('randomize', () => {
    it('regenerates the board with the new settings and keeps positions, histories, reverts, log and status', async () => {
      const { eventId, gameId, teamIds } = await newGame({ teams: 2 });
      const path = gamePath(eventId, gameId);
      expect((await people.owner.put(`${path}/status`, { status: 'in-progress' })).status).toBe(200);
      await dbh.db.updateTable('team_states')
        .set({ current_position: 37, position_history: JSON.stringify([1, 5, 37]), revert_count: 1 })
        .where('game_id', '=', gameId).where('team_id', '=', teamIds[0]).execute();
      await bumpVersion(gameId);
      const before = await getGame(eventId, gameId);

      const r = await people.admin.put(path, settings(121, { num_snakes: 8, num_ladders: 3, max_reverts_allowed: 5 }));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const after = await getGame(eventId, gameId);
      expect(after.status).toBe('in-progress');
      expect(after.team_states).toEqual(before.team_states);
      expect(after.team_states[0]).toMatchObject({ current_position: 37, position_history: [1, 5, 37], revert_count: 1 });
      expect(after.log_entries).toEqual(before.log_entries);
      expect(after).toMatchObject({ board_size: 121, num_snakes: 8, num_ladders: 3, max_reverts_allowed: 5 });
      expect(after.board_squares).toHaveLength(121);
      expectBoardRules(after.board_connections, 121, 8, 3);

      // A board too small for a team's square is refused, and changes nothing.
      const small = await people.owner.put(path, settings(36));
      expect(small.status).toBe(409);
      expect(small.body.error).toMatch(/square 37/);
      expect(await getGame(eventId, gameId)).toEqual(after);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('manual board', () => {
    const BAD: { label: string; body: unknown; error: string }[] = [
      { label: 'snake going up', body: { snakes_config: [[12, 30]], ladders_config: [] }, error: 'Snake [12, 30] must go down: start must be greater than end.' },
      { label: 'ladder going down', body: { snakes_config: [], ladders_config: [[40, 20]] }, error: 'Ladder [40, 20] must go up: start must be less than end.' },
      { label: 'same row', body: { snakes_config: [], ladders_config: [[3, 7]] }, error: 'Ladder [3, 7]: start and end must be on different rows.' },
      { label: 'square 1', body: { snakes_config: [[50, 1]], ladders_config: [] }, error: 'Snake [50, 1] cannot start or end on square 1 or 100.' },
      { label: 'beyond the board', body: { snakes_config: [[120, 5]], ladders_config: [] }, error: 'Snake [120, 5]: squares must be between 1 and 100.' },
      { label: 'shared square', body: { snakes_config: [[80, 34]], ladders_config: [[34, 60]] }, error: 'Square 34 is used by two connections (Snake [80, 34] and Ladder [34, 60]).' },
      { label: '13 snakes', body: { snakes_config: Array.from({ length: 13 }, (_, i) => [99 - i, 2 + i]), ladders_config: [] }, error: SETTINGS_MESSAGES.snakes },
      { label: 'config not a list', body: { snakes_config: 'x', ladders_config: [] }, error: 'Config must be a JSON array.' },
      { label: 'entry not a pair', body: { snakes_config: [[50]], ladders_config: [] }, error: 'Each entry must be an array of two positive numbers: [[start, end], ...].' },
      { label: 'entry of three', body: { snakes_config: [[50, 30, 10]], ladders_config: [] }, error: 'Each entry must be an array of two positive numbers: [[start, end], ...].' },
      { label: 'missing ladders_config', body: { snakes_config: [] }, error: 'Request body must be a JSON object with snakes_config and ladders_config.' },
      { label: 'entry with text', body: { snakes_config: [['50', 30]], ladders_config: [] }, error: 'Each entry must be an array of two positive numbers: [[start, end], ...].' },
    ];

    it.each(BAD)('refuses $label with 400 and changes nothing', async ({ body, error }) => {
      const { eventId, gameId } = await newGame();
      const before = await getGame(eventId, gameId);
      const r = await people.owner.put(gamePath(eventId, gameId, '/board'), body);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error).toBe(error);
      expect(await getGame(eventId, gameId)).toEqual(before);
    });

    it('applies a valid board: counts follow it, squares become Snake/Ladder or task squares of their tier again', async () => {
      const { eventId, gameId } = await newGame();
      const before = await getGame(eventId, gameId);
      const n = before.board_size;
      const keep = before.board_connections.find((c) => c.type === 'snake')!;
      const taken = new Set(before.board_connections.flatMap((c) => [c.start, c.end]));
      // A new ladder on squares no old connection uses: bottom row to top row.
      const a = [2, 3, 4, 5, 6, 7, 8, 9].find((s) => !taken.has(s))!;
      const b = [99, 98, 97, 96, 95, 94, 93, 92].find((s) => !taken.has(s))!;
      const r = await people.owner.put(gamePath(eventId, gameId, '/board'), { snakes_config: [[keep.start, keep.end]], ladders_config: [[a, b]] });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({ ok: true, message: GAME_MESSAGES.boardUpdated });

      const after = await getGame(eventId, gameId);
      expect(after.version).toBe(before.version + 1);
      expect(after).toMatchObject({ num_snakes: 1, num_ladders: 1 });
      expect(after.board_connections).toEqual([{ type: 'snake', start: keep.start, end: keep.end }, { type: 'ladder', start: a, end: b }]);
      const laid = layoutSquares({ board_size: n, counts: countsFromSettings(after), connections: after.board_connections });
      const oldStarts = new Set(before.board_connections.map((c) => c.start));
      const seen = new Set<number>();
      for (const [i, sq] of after.board_squares.entries()) {
        const old = before.board_squares[i];
        expect(sq.id).toBe(old.id);
        expect(sq.task_difficulty).toBe(laid[i].task_difficulty);
        if (sq.square_index === keep.start) expect(sq).toEqual(old);
        else if (sq.square_index === a) expect(sq).toMatchObject({ task_description: 'Ladder', task_difficulty: null, task_id: null });
        else if (oldStarts.has(sq.square_index)) {
          // No longer a start: a task square of its positional tier with a free pool task.
          expect(sq.task_difficulty).not.toBeNull();
          expect(sq.task_id).not.toBeNull();
          expect(pool.get(sq.task_id!)).toEqual({ description: sq.task_description, difficulty: sq.task_difficulty });
        } else expect(sq).toEqual(old);
        if (sq.task_id !== null) {
          expect(seen.has(sq.task_id)).toBe(false);
          seen.add(sq.task_id);
        }
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('status', () => {
    const put = (eventId: number, gameId: number, body: unknown) => people.owner.put(gamePath(eventId, gameId, '/status'), body);

    it('follows the status rules: start, pause, resume; refuses the others with 409 and unknown statuses with 400', async () => {
      const { eventId, gameId } = await newGame();
      const STEPS: [unknown, number, string][] = [
        [{ status: 'paused' }, 409, 'READY'],
        [{ status: 'in-progress' }, 200, 'in-progress'],
        [{ status: 'in-progress' }, 409, 'in-progress'],
        [{ status: 'paused' }, 200, 'paused'],
        [{ status: 'paused' }, 409, 'paused'],
        [{ status: 'finished' }, 400, 'paused'],
        [{ status: 'READY' }, 400, 'paused'],
        [{ status: 'bogus' }, 400, 'paused'],
        [{ status: 42 }, 400, 'paused'],
        [{}, 400, 'paused'],
        ['nope', 400, 'paused'],
        [{ status: 'in-progress' }, 200, 'in-progress'],
      ];
      for (const [body, status, after] of STEPS) {
        const before = await getGame(eventId, gameId);
        const r = await put(eventId, gameId, body);
        expect(r.status, `${JSON.stringify(body)} → ${JSON.stringify(r.body)}`).toBe(status);
        const game = await getGame(eventId, gameId);
        expect(game.status).toBe(after);
        if (status === 200) {
          expect(r.body).toEqual({ ok: true, status: after });
          expect(game.version).toBe(before.version + 1);
        } else {
          expect(typeof r.body.error).toBe('string');
          expect(game).toEqual(before);
        }
      }
      const log = (await getGame(eventId, gameId)).log_entries.map((e) => [e.team_name, e.message]);
      expect(log.slice(0, 3)).toEqual([['Server', 'Game resumed.'], ['Server', 'Game paused.'], ['Server', 'Game started.']]);
    });

    it('starts a PENDING game', async () => {
      const { eventId, gameId } = await newGame({ teams: 0 });
      const r = await put(eventId, gameId, { status: 'in-progress' });
      expect(r.status).toBe(200);
      expect((await getGame(eventId, gameId)).status).toBe('in-progress');
    });

    it('a finished game accepts no status, reset, randomize or board change (409), and can still be read and deleted', async () => {
      const { eventId, gameId } = await newGame();
      await dbh.db.updateTable('games').set({ status: 'finished', winners: JSON.stringify([{ name: 'Team 1', color: '#000001' }]) }).where('id', '=', gameId).execute();
      await bumpVersion(gameId);
      const before = await getGame(eventId, gameId);
      expect(before.winners).toEqual([{ name: 'Team 1', color: '#000001' }]);
      const tries: Promise<Answer>[] = [
        put(eventId, gameId, { status: 'in-progress' }),
        put(eventId, gameId, { status: 'paused' }),
        people.owner.put(gamePath(eventId, gameId, '/reset')),
        people.owner.put(gamePath(eventId, gameId), settings()),
        people.owner.put(gamePath(eventId, gameId, '/board'), { snakes_config: [], ladders_config: [] }),
      ];
      for (const r of await Promise.all(tries)) {
        expect(r.status, JSON.stringify(r.body)).toBe(409);
        expect(typeof r.body.error).toBe('string');
      }
      expect(await getGame(eventId, gameId)).toEqual(before);
      expect((await people.owner.del(gamePath(eventId, gameId))).status).toBe(200);
      expect(await eventGameId(eventId)).toBeNull();
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('reset and delete', () => {
    it('reset clears positions, histories, reverts, winners and the log, sets READY and keeps the board', async () => {
      const { eventId, gameId, teamIds } = await newGame({ teams: 2 });
      const path = gamePath(eventId, gameId);
      expect((await people.owner.put(`${path}/status`, { status: 'in-progress' })).status).toBe(200);
      expect((await people.owner.put(`${path}/status`, { status: 'paused' })).status).toBe(200);
      for (const teamId of teamIds) {
        await dbh.db.updateTable('team_states').set({ current_position: 20 + teamId % 7, position_history: JSON.stringify([1, 4, 20 + teamId % 7]), revert_count: 2 })
          .where('game_id', '=', gameId).where('team_id', '=', teamId).execute();
      }
      await dbh.db.updateTable('games').set({ winners: JSON.stringify([{ name: 'x', color: '#000000' }]) }).where('id', '=', gameId).execute();
      await bumpVersion(gameId);
      const before = await getGame(eventId, gameId);
      const seedBefore = await dbh.db.selectFrom('games').select('dice_seed').where('id', '=', gameId).executeTakeFirstOrThrow();

      const r = await people.admin.put(`${path}/reset`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({ ok: true, message: GAME_MESSAGES.reset });
      const after = await getGame(eventId, gameId);
      expect(after.status).toBe('READY');
      expect(after.winners).toBeNull();
      expect(after.team_states.map((t) => [t.current_position, t.position_history, t.revert_count])).toEqual([[1, [1], 0], [1, [1], 0]]);
      // Newest first: the reset, then the previous round's dice seed revealed (docs/game-rules.md §9).
      expect(after.log_entries.map((e) => [e.team_name, e.message])).toEqual([
        ['Server', `Dice seed of the previous round: ${seedBefore.dice_seed} (commitment ${before.dice_commitment}).`],
        ['Server', 'Game reset.'],
      ]);
      expect(after.dice_commitment).not.toBe(before.dice_commitment);
      expect(after.board_connections).toEqual(before.board_connections);
      expect(after.board_squares).toEqual(before.board_squares);
      expect(after.version).toBeGreaterThan(before.version);
    });

    it('delete removes the game: game_id null in the events list, 404 afterwards, and a new game can be created', async () => {
      const { eventId, gameId } = await newGame({ teams: 2 });
      const r = await people.owner.del(gamePath(eventId, gameId));
      expect(r.status).toBe(200);
      expect(r.body.ok).toBe(true);
      expect(await eventGameId(eventId)).toBeNull();
      const gone = await people.owner.get(gamePath(eventId, gameId));
      expect(gone.status).toBe(404);
      expect(gone.body.error).toBe('Game not found.');
      expect((await people.owner.del(gamePath(eventId, gameId))).status).toBe(404);
      for (const table of ['board_squares', 'team_states', 'game_log'] as const) {
        expect(await dbh.db.selectFrom(table).select('id').where('game_id', '=', gameId).execute()).toEqual([]);
      }
      const again = await people.owner.post(gamePath(eventId), settings());
      expect(again.status).toBe(200);
      expect(await eventGameId(eventId)).toBe(again.body.game.id);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('bad ids and foreign objects', () => {
    it('answers 400 for malformed ids and 404 for missing clans, events and games, on every route', async () => {
      const { eventId, gameId } = await newGame();
      const other = await newGame();
      const o = people.owner;
      const calls = (clan: string | number, event: string | number, game: string | number): (() => Promise<Answer>)[] => {
        const base = `/api/clan/${clan}/events/${event}/game/${game}`;
        return [
          () => o.get(base),
          () => o.put(base, settings()),
          () => o.put(`${base}/board`, { snakes_config: [], ladders_config: [] }),
          () => o.put(`${base}/status`, { status: 'in-progress' }),
          () => o.put(`${base}/reset`),
          () => o.del(base),
        ];
      };
      for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
        for (const call of [...calls(bad, eventId, gameId), ...calls(clanId, bad, gameId), ...calls(clanId, eventId, bad)]) {
          const r = await call();
          expect(r.status, JSON.stringify(r.body)).toBe(400);
        }
        const r = await o.post(`/api/clan/${clanId}/events/${bad}/game/`, settings());
        expect(r.status).toBe(400);
      }
      for (const call of calls(999999, eventId, gameId)) {
        const r = await call();
        expect(r.status).toBe(404);
        expect(r.body.error).toBe('Clan ID 999999 not found.');
      }
      for (const call of [...calls(clanId, eventId, other.gameId), ...calls(clanId, eventId, 999999)]) {
        const r = await call();
        expect(r.status).toBe(404);
        expect(r.body.error).toBe('Game not found.');
      }
      for (const call of calls(clanId, 999999, gameId)) expect((await call()).status).toBe(404);

      // Another clan's event and game, reached through this clan's path.
      const stranger = await client().devLogin('game-stranger');
      const c2 = (await stranger.post('/api/clans', { clan_name: `Other Clan ${backend}` })).body.clan_id;
      const e2 = (await stranger.post(`/api/clan/${c2}/events/`, { name: 'Other', start_datetime: '2031-06-01T18:00Z' })).body.event.id;
      const g2 = (await stranger.post(`/api/clan/${c2}/events/${e2}/game/`, settings(25))).body.game.id;
      for (const call of calls(clanId, e2, g2)) expect((await call()).status).toBe(404);
      for (const call of calls(clanId, eventId, g2)) {
        const r = await call();
        expect(r.status).toBe(404);
        expect(r.body.error).toBe('Game not found.');
      }
      expect((await o.post(`/api/clan/${clanId}/events/${e2}/game/`, settings())).status).toBe(404);
      expect((await stranger.get(`/api/clan/${c2}/events/${e2}/game/${g2}`)).status).toBe(200);
      expect(await getGame(eventId, gameId)).toBeTruthy();
    });
  });
});
