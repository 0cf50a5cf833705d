import { describe, it, expect, beforeAll } from 'vitest';
import * as v from 'valibot';
import { backends } from '../support/server';
import type { ApiClient } from '../support/api';
import { useServerSuite } from '../support/suite';
import { actorClient, clanWithRoles, directSql as sql, importTasksCsv, matrixRows, okBody, PERMISSION_TEXT, type Person, type Row } from '../support/fixtures';
import { EVENT_BAD_START, EVENT_END_BEFORE_START, EVENT_NAME_TOO_LONG, EVENT_REQUIRED, EVENT_START_IN_PAST } from '../../contract/event';
import { autoSplit, countsToSettings, type GameSettings } from '../../contract/game';
import { BOARD_FILE_MESSAGES, BoardFileSchema, type BoardFile } from '../../contract/game/boardFile';
import { GameAnswerSchema, type Game } from '../../contract/gameApi';

/**
 * The next event over real HTTP (docs/server.md §18 "The next event"), on SQLite and PostgreSQL:
 * POST .../events/{eventId}/copy with and without teams (the same board, settings and rules, the
 * same task on every square, no progress, its own dice seed, READY or PENDING), who may copy, the
 * event form's refusals; GET .../game/{gameId}/board.json's shape and attachment; a game created
 * from a downloaded board file (the same board, missing tasks added to another clan's pool) and
 * every reason a board file is refused.
 */

const DAY = 24 * 3600_000;
const iso = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();

/** Settings of a board of `n` squares: 5 snakes, 5 ladders, 3 reverts, the auto split. */
function settings(n = 100, over: Partial<GameSettings> = {}): GameSettings {
  return { board_size: n, num_snakes: 5, num_ladders: 5, max_reverts_allowed: 3, ...countsToSettings(autoSplit(n)), ...over };
}

/** What makes two boards the same: settings, connections and each square's task and tier. */
function boardOf(game: Game) {
  return {
    settings: [game.board_size, game.num_snakes, game.num_ladders, game.max_reverts_allowed, game.num_easy_tasks, game.num_medium_tasks, game.num_hard_tasks, game.num_elite_tasks, game.num_master_tasks],
    rules: [game.proof_required, game.relief_after_hours, game.relief_max_per_team],
    connections: game.board_connections,
    squares: game.board_squares.map((s) => [s.square_index, s.task_description, s.task_difficulty]),
  };
}

describe.each(backends())('event copy and board files (%s)', (backend) => {
  const suite = useServerSuite(backend, { BOARD_SEED: '5150' });
  const people = {} as Record<Person, ApiClient>;
  let clanId: number;
  let ignIds: { owner: number; member: number; admin: number };
  let otherOwner: ApiClient;
  let otherClanId: number;
  let serial = 0;

  const eventsPath = (clan = clanId) => `/api/clan/${clan}/events`;
  const gamePath = (eventId: number, gameId?: number, rest = '', clan = clanId) =>
    `/api/clan/${clan}/events/${eventId}/game${gameId === undefined ? '/' : `/${gameId}${rest}`}`;

  async function newEvent(api = people.owner, clan = clanId): Promise<number> {
    const r = await api.post(`${eventsPath(clan)}/`, { name: `Source ${++serial}`, start_datetime: iso(DAY), end_datetime: iso(2 * DAY) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.event.id;
  }

  /** A source event with two teams (a Leader and a Member, one Leader), a game with rules set and some progress. */
  async function sourceWithGame(): Promise<{ eventId: number; gameId: number }> {
    const eventId = await newEvent();
    const red = (await okBody(people.owner.post(`${eventsPath()}/${eventId}/teams/`, { name: 'Red Dragons', color: '#aa0000' }))).team.id;
    const blue = (await okBody(people.owner.post(`${eventsPath()}/${eventId}/teams/`, { name: 'Blue Moons', color: '#0000bb' }))).team.id;
    await okBody(people.owner.post(`${eventsPath()}/${eventId}/teams/${red}/members`, { osrs_ign_id: ignIds.owner, role: 'Leader' }));
    await okBody(people.owner.post(`${eventsPath()}/${eventId}/teams/${red}/members`, { osrs_ign_id: ignIds.member, role: 'Member' }));
    await okBody(people.owner.post(`${eventsPath()}/${eventId}/teams/${blue}/members`, { osrs_ign_id: ignIds.admin, role: 'Leader' }));
    const gameId = (await okBody(people.owner.post(gamePath(eventId), { ...settings(), proof_required: false, relief_after_hours: 6, relief_max_per_team: 4 }))).game.id;
    // Progress: Red has moved and reverted; the game is under way.
    await sql(suite.env, `UPDATE team_states SET current_position = 17, position_history = '[1,5,17]', revert_count = 1 WHERE team_id = ?`, [red]);
    await sql(suite.env, `UPDATE games SET status = 'in-progress', version = version + 1 WHERE id = ?`, [gameId]);
    return { eventId, gameId };
  }

  async function getGame(eventId: number, gameId: number, api = people.owner, clan = clanId): Promise<Game> {
    return v.parse(GameAnswerSchema, await okBody(api.get(gamePath(eventId, gameId, '', clan)))).game;
  }

  const teamsOf = async (eventId: number) => (await okBody(people.owner.get(`${eventsPath()}/${eventId}/teams/`))).teams as { id: number; name: string; color: string }[];
  const membersOf = async (eventId: number, teamId: number) =>
    ((await okBody(people.owner.get(`${eventsPath()}/${eventId}/teams/${teamId}/members`))).team_members as { osrs_ign_id: number; role: string }[])
      .map((m) => [m.osrs_ign_id, m.role])
      .sort();
  const copyBody = (over: Record<string, unknown> = {}) => ({ name: `Copy ${++serial}`, start_datetime: iso(3 * DAY), end_datetime: iso(4 * DAY), teams: false, ...over });
  const allEvents = async () => (await okBody(people.owner.get(`${eventsPath()}/`))).events as { id: number; name: string }[];

  beforeAll(async () => {
    const c = await clanWithRoles(suite.url, {
      prefix: 'copy',
      clanName: `Copy Clan ${backend}`,
      signIn: async (name) => {
        const api = suite.client();
        const me = ['copy-owner', 'copy-member', 'copy-admin'].includes(name) ? await api.onboard(name, [`${name.slice(5)}Ign`]) : (await (await api.devLogin(name)).get('/api/user/me')).body;
        return { api, id: me.id, me };
      },
      into: people,
    });
    clanId = c.clanId;
    ignIds = { owner: c.me.owner.igns[0].id, member: c.me.member.igns[0].id, admin: c.me.admin.igns[0].id };
    await importTasksCsv(people.owner, clanId);
    otherOwner = await suite.client().devLogin('copy-other-owner');
    otherClanId = (await okBody(otherOwner.post('/api/clans', { clan_name: `Other Copy Clan ${backend}` }))).clan_id;
  }, 120_000);

  describe('POST .../events/{eventId}/copy', () => {
    it('copies the board, rules and teams into a READY game with no progress and its own dice seed', async () => {
      const src = await sourceWithGame();
      const before = await getGame(src.eventId, src.gameId);
      const body = copyBody({ teams: true });
      const r = await people.admin.post(`${eventsPath()}/${src.eventId}/copy`, body);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.event).toEqual({
        id: expect.any(Number),
        name: body.name,
        type: 'Snakes and Ladders',
        start_datetime: body.start_datetime,
        end_datetime: body.end_datetime,
        game_id: expect.any(Number),
        team_count: 2,
        game_finished: false,
        signups_open: false,
        signups_close_at: null,
        game_status: 'READY',
        draft_status: null,
      });
      const copy = await getGame(r.body.event.id, r.body.event.game_id);
      expect(copy.status).toBe('READY');
      expect(boardOf(copy)).toEqual(boardOf(before));
      expect(copy.board_squares.map((s) => s.task_id)).toEqual(before.board_squares.map((s) => s.task_id));
      expect([copy.proof_required, copy.relief_after_hours, copy.relief_max_per_team]).toEqual([false, 6, 4]);
      expect(copy.dice_commitment).toMatch(/^[0-9a-f]{64}$/);
      expect(copy.dice_commitment).not.toBe(before.dice_commitment);
      expect(copy.team_states.map((t) => [t.team_name, t.team_color, t.current_position, t.position_history, t.revert_count, t.task_state])).toEqual([
        ['Red Dragons', '#aa0000', 1, [1], 0, 'none'],
        ['Blue Moons', '#0000bb', 1, [1], 0, 'none'],
      ]);
      expect(copy.log_entries.map((e) => e.message)).toEqual(['Game created: 100 squares, 5 snakes, 5 ladders.']);
      expect(copy.winners).toBeNull();
      const [fromTeams, toTeams] = [await teamsOf(src.eventId), await teamsOf(r.body.event.id)];
      expect(toTeams.map((t) => [t.name, t.color])).toEqual(fromTeams.map((t) => [t.name, t.color]));
      for (const [i, t] of toTeams.entries()) expect(await membersOf(r.body.event.id, t.id)).toEqual(await membersOf(src.eventId, fromTeams[i].id));
      // The source is untouched.
      expect((await getGame(src.eventId, src.gameId)).team_states.find((t) => t.team_name === 'Red Dragons')?.current_position).toBe(17);
    });

    it('without teams gives a PENDING game on the same board and no teams', async () => {
      const src = await sourceWithGame();
      const before = await getGame(src.eventId, src.gameId);
      const r = await people.owner.post(`${eventsPath()}/${src.eventId}/copy`, copyBody({ teams: undefined, end_datetime: null }));
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.event).toMatchObject({ team_count: 0, game_status: 'PENDING', end_datetime: null });
      const copy = await getGame(r.body.event.id, r.body.event.game_id);
      expect(copy.status).toBe('PENDING');
      expect(boardOf(copy)).toEqual(boardOf(before));
      expect(copy.team_states).toEqual([]);
      expect(copy.dice_commitment).not.toBe(before.dice_commitment);
      expect(await teamsOf(r.body.event.id)).toEqual([]);
    });

    it('copies an event without a game as an event without a game', async () => {
      const eventId = await newEvent();
      const r = await people.owner.post(`${eventsPath()}/${eventId}/copy`, copyBody({ teams: true }));
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.event).toMatchObject({ game_id: null, team_count: 0, game_status: null });
    });

    it('lets managers copy and refuses everyone else, creating nothing', async () => {
      const eventId = await newEvent();
      const expected: Row = [401, 403, 403, 403, 201, 201];
      for (const { actor, status } of matrixRows([{ expect: expected }])) {
        const body = copyBody();
        const r = await actorClient(people, actor).post(`${eventsPath()}/${eventId}/copy`, body);
        expect(r.status, `${actor}: ${JSON.stringify(r.body)}`).toBe(status);
        if (status === 401) expect(r.body).toEqual({ error: 'You must be signed in.' });
        if (status === 403) expect(r.body).toEqual({ error: PERMISSION_TEXT });
        expect((await allEvents()).some((e) => e.name === body.name), actor).toBe(status === 201);
      }
    });

    it('refuses bad names, times and bodies with the event form texts, creating nothing', async () => {
      const eventId = await newEvent();
      const path = `${eventsPath()}/${eventId}/copy`;
      const cases: [unknown, string][] = [
        [copyBody({ name: '' }), EVENT_REQUIRED],
        [copyBody({ name: undefined }), EVENT_REQUIRED],
        [copyBody({ start_datetime: undefined }), EVENT_REQUIRED],
        [copyBody({ name: 'x'.repeat(101) }), EVENT_NAME_TOO_LONG],
        [copyBody({ start_datetime: 'next week' }), EVENT_BAD_START],
        [copyBody({ start_datetime: iso(-DAY), end_datetime: null }), EVENT_START_IN_PAST],
        [copyBody({ end_datetime: iso(2 * DAY) }), EVENT_END_BEFORE_START],
        [copyBody({ teams: 'yes' }), 'teams must be true or false.'],
        [[1, 2], 'Request body must be a JSON object.'],
      ];
      const count = (await allEvents()).length;
      for (const [body, error] of cases) {
        const r = await people.owner.post(path, body);
        expect(r, JSON.stringify(body)).toMatchObject({ status: 400, body: { error } });
      }
      expect((await allEvents()).length).toBe(count);
    });

    it('answers 404 for another clan\'s event and 400 for bad ids', async () => {
      const eventId = await newEvent();
      expect(await otherOwner.post(`${eventsPath(otherClanId)}/${eventId}/copy`, copyBody())).toMatchObject({ status: 404, body: { error: `Event ID ${eventId} not found.` } });
      expect((await people.owner.post(`${eventsPath()}/987654/copy`, copyBody())).status).toBe(404);
      for (const bad of ['abc', '0', '-1', '99999999999']) expect((await people.owner.post(`${eventsPath()}/${bad}/copy`, copyBody())).status, bad).toBe(400);
    });
  });

  describe('board.json and games built from it', () => {
    let src: { eventId: number; gameId: number };
    let file: BoardFile;

    beforeAll(async () => {
      src = await sourceWithGame();
      const r = await people.guest.get(gamePath(src.eventId, src.gameId, '/board.json'));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      file = r.body;
    });

    const createFrom = (eventId: number, board: unknown, over: Partial<GameSettings> = {}, api = people.owner, clan = clanId) =>
      api.post(gamePath(eventId, undefined, '', clan), { ...settings(), ...over, board });

    it('answers the board file as a JSON attachment to members, with every square in order', async () => {
      const r = await people.member.get(gamePath(src.eventId, src.gameId, '/board.json'));
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="source-\d+-board\.json"$/);
      expect(Object.keys(r.body).sort()).toEqual(['connections', 'settings', 'squares', 'version']);
      expect(r.body.version).toBe(1);
      expect(v.safeParse(BoardFileSchema, r.body).success).toBe(true);
      const game = await getGame(src.eventId, src.gameId);
      expect(r.body.settings).toEqual({ ...settings(), proof_required: false, relief_after_hours: 6, relief_max_per_team: 4 });
      expect(r.body.connections).toEqual(game.board_connections.map(({ type, start, end }) => ({ type, start, end })));
      expect(r.body.squares.map((s: { square_index: number }) => s.square_index)).toEqual(game.board_squares.map((s) => s.square_index));
      for (const [i, square] of game.board_squares.entries()) {
        const task = r.body.squares[i].task;
        if (square.task_difficulty === null || square.task_description === '') expect(task).toBeNull();
        else expect(task).toEqual({ description: square.task_description, difficulty: square.task_difficulty, auto_rule: square.auto_rule ?? null });
      }
      expect(r.body.squares.some((s: { task: { auto_rule: unknown } | null }) => s.task?.auto_rule)).toBe(true);
      expect((await people.outsider.get(gamePath(src.eventId, src.gameId, '/board.json'))).status).toBe(403);
      expect((await people.anon.get(gamePath(src.eventId, src.gameId, '/board.json'))).status).toBe(401);
      expect((await people.member.get(gamePath(src.eventId, 987654, '/board.json'))).status).toBe(404);
    });

    it('builds a game from a downloaded board file: the same board, with the same pool tasks', async () => {
      const eventId = await newEvent();
      const r = await createFrom(eventId, file, { proof_required: false, relief_after_hours: 6, relief_max_per_team: 4 } as Partial<GameSettings>);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const made = await getGame(eventId, r.body.game.id);
      const before = await getGame(src.eventId, src.gameId);
      expect(boardOf(made)).toEqual(boardOf(before));
      expect(made.board_squares.map((s) => s.task_id)).toEqual(before.board_squares.map((s) => s.task_id));
      // Downloaded again, the file is the same.
      expect((await okBody(people.owner.get(gamePath(eventId, made.id, '/board.json'))))).toEqual(file);
    });

    it('adds the file\'s missing tasks to another clan\'s pool, once, with their rules', async () => {
      const poolOf = async () => (await okBody(otherOwner.get(`/api/clan/${otherClanId}/tasks/`))).tasks as { description: string; difficulty: string; auto_rule: unknown }[];
      expect(await poolOf()).toEqual([]);
      const tasks = file.squares.flatMap((s) => (s.task ? [s.task] : []));
      const first = await newEvent(otherOwner, otherClanId);
      const r = await createFrom(first, file, {}, otherOwner, otherClanId);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const pool = await poolOf();
      expect(pool.map((t) => [t.description, t.difficulty, t.auto_rule]).sort()).toEqual(tasks.map((t) => [t.description, t.difficulty, t.auto_rule]).sort());
      const made = await getGame(first, r.body.game.id, otherOwner, otherClanId);
      expect(boardOf(made).squares).toEqual(boardOf(await getGame(src.eventId, src.gameId)).squares);
      const second = await newEvent(otherOwner, otherClanId);
      expect((await createFrom(second, file, {}, otherOwner, otherClanId)).status).toBe(200);
      expect((await poolOf()).length).toBe(pool.length);
    });

    it('refuses a board file that does not fit the settings, saying why, and creates no game', async () => {
      const eventId = await newEvent();
      const snakes = file.connections.filter((c) => c.type === 'snake');
      const ladders = file.connections.filter((c) => c.type === 'ladder');
      const taskSquare = file.squares.find((s) => s.task !== null)!;
      const startSquare = snakes[0].start;
      const emptySquares = file.squares.map((s) => ({ ...s, task: null }));
      const withTaskAt = (index: number, task: BoardFile['squares'][number]['task']) => ({ ...file, squares: emptySquares.map((s) => (s.square_index === index ? { ...s, task } : s)) });
      // The EASY squares are 2 .. 1 + easy (the tiers are laid in order from square 2); two of them hold no connection start.
      const lastEasy = 1 + autoSplit(100).easy;
      const [easyIndex, nextEasy] = file.squares.filter((s) => s.square_index > 1 && s.square_index <= lastEasy && !file.connections.some((c) => c.start === s.square_index)).map((s) => s.square_index);
      const easyTask = { description: 'Bake a cake', difficulty: 'EASY' as const, auto_rule: null };
      const cases: [unknown, Partial<GameSettings>, string][] = [
        [{ ...file, version: 2 }, {}, BOARD_FILE_MESSAGES.version],
        ['a board', {}, BOARD_FILE_MESSAGES.notObject],
        [{ ...file, squares: file.squares.slice(1) }, {}, BOARD_FILE_MESSAGES.squareCount(99, 100)],
        [{ ...file, squares: [file.squares[1], file.squares[0], ...file.squares.slice(2)] }, {}, BOARD_FILE_MESSAGES.squareOrder(1)],
        [file, { board_size: 81, ...countsToSettings(autoSplit(81)) }, BOARD_FILE_MESSAGES.setting('board_size', 100, 81)],
        [{ ...file, settings: { ...file.settings, num_ladders: 4 } }, {}, BOARD_FILE_MESSAGES.setting('num_ladders', 4, 5)],
        [{ ...file, connections: [...snakes.slice(1), ...ladders] }, {}, BOARD_FILE_MESSAGES.connectionCount('snakes', 4, 5)],
        [{ ...file, connections: [{ type: 'snake', start: 150, end: 40 }, ...snakes.slice(1), ...ladders] }, {}, 'Snake [150, 40]: squares must be between 1 and 100.'],
        [
          { ...file, connections: [snakes[0], snakes[0], ...snakes.slice(2), ...ladders] },
          {},
          `Square ${snakes[0].start} is used by two connections (Snake [${snakes[0].start}, ${snakes[0].end}] and Snake [${snakes[0].start}, ${snakes[0].end}]).`,
        ],
        [withTaskAt(startSquare, easyTask), {}, BOARD_FILE_MESSAGES.noTaskHere(startSquare, 'where a snake starts')],
        [withTaskAt(1, easyTask), {}, BOARD_FILE_MESSAGES.noTaskHere(1, 'Start')],
        [withTaskAt(easyIndex, { ...easyTask, difficulty: 'MASTER' }), {}, BOARD_FILE_MESSAGES.wrongTier(easyIndex, 'EASY', 'Bake a cake', 'MASTER')],
        [
          { ...file, squares: emptySquares.map((s) => (s.square_index === easyIndex || s.square_index === nextEasy ? { ...s, task: easyTask } : s)) },
          {},
          BOARD_FILE_MESSAGES.repeated(nextEasy, easyIndex, 'Bake a cake'),
        ],
        [{ ...file, squares: file.squares.map((s) => (s === taskSquare ? { ...s, task: { ...s.task, difficulty: 'LEGENDARY' } } : s)) }, {}, 'Difficulty must be one of EASY, MEDIUM, HARD, ELITE, MASTER.'],
        [{ ...file, connections: 'none' }, {}, BOARD_FILE_MESSAGES.connections],
      ];
      for (const [board, over, error] of cases) {
        const r = await createFrom(eventId, board, over);
        expect(r, error).toMatchObject({ status: 400, body: { error } });
      }
      expect((await allEvents()).find((e) => e.id === eventId)).toMatchObject({ game_id: null });
    });
  });
});
