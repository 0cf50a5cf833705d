import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as v from 'valibot';
import { backends } from '../support/server';
import { ApiClient, type Answer } from '../support/api';
import { useServerSuite } from '../support/suite';
import { actorClient, clanWithRoles, importTasksCsv, matrixRows, openDirectDb, PERMISSION_TEXT, READ, WRITE as CHANGE, type Actor, type Row } from '../support/fixtures';
import type { DbHandle } from '../../server/db/connect';
import { autoSplit, countsToSettings, TIERS, type GameSettings } from '../../contract/game';
import { AvailableTasksAnswerSchema, GAME_MESSAGES, GAME_TASK_MESSAGES, SquaresAnswerSchema, type BoardSquare } from '../../contract/gameApi';

/**
 * Game-task calls over real HTTP (docs/client.md §7, §11; docs/game-rules.md §6, §13; docs/server.md
 * §3; docs/server.md §5): the permission matrix of every call ×
 * {signed out, non-member, Guest, Member, Admin, Owner}, swap and reorder inside one tier only and
 * never with Start, Finish, Snake or Ladder squares, and assigning pool tasks on a 225-square board
 * that the 144-task pool cannot fill.
 */

function settings(n = 100, over: Partial<GameSettings> = {}): GameSettings {
  return { board_size: n, num_snakes: 5, num_ladders: 5, max_reverts_allowed: 3, ...countsToSettings(autoSplit(n)), ...over };
}


describe.each(backends())('game tasks API (%s)', (backend) => {
  const suite = useServerSuite(backend, { BOARD_SEED: '7' });
  let dbh: DbHandle;
  let clanId: number;
  let otherClanTaskId: number;
  const people = {} as Record<'anon' | 'outsider' | 'guest' | 'member' | 'admin' | 'owner', ApiClient>;
  let serial = 0;
  const pool = new Map<number, { description: string; difficulty: string }>();

  const gamePath = (eventId: number, gameId?: number, rest = '') =>
    `/api/clan/${clanId}/events/${eventId}/game${gameId === undefined ? '/' : `/${gameId}${rest}`}`;

  async function newGame(body: GameSettings = settings()): Promise<{ eventId: number; gameId: number }> {
    const e = await people.owner.post(`/api/clan/${clanId}/events/`, { name: `Event ${++serial}`, start_datetime: '2031-06-01T18:00Z' });
    expect(e.status, JSON.stringify(e.body)).toBe(200);
    const eventId = e.body.event.id;
    expect((await people.owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name: 'Team', color: '#abcdef' })).status).toBe(200);
    const g = await people.owner.post(gamePath(eventId), body);
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    return { eventId, gameId: g.body.game.id };
  }

  async function squaresOf(eventId: number, gameId: number): Promise<BoardSquare[]> {
    const r = await people.owner.get(gamePath(eventId, gameId, '/tasks'));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return v.parse(SquaresAnswerSchema, r.body).squares;
  }

  async function version(eventId: number, gameId: number): Promise<number> {
    return (await people.owner.get(gamePath(eventId, gameId))).body.game.version;
  }

  /** Squares of a tier that carry a task. */
  const ofTier = (squares: BoardSquare[], tier: string) => squares.filter((s) => s.task_difficulty === tier && s.task_id !== null);

  beforeAll(async () => {
    dbh = await openDirectDb(suite.env);
    const c = await clanWithRoles(suite.url, { prefix: 'tasks', clanName: `Task Clan ${backend}` });
    Object.assign(people, c.people);
    clanId = c.clanId;
    for (const [id, task] of await importTasksCsv(people.owner, clanId)) pool.set(id, task);
    // An EASY task of another clan (the outsider's).
    const other = (await people.outsider.post('/api/clans', { clan_name: `Outsider Clan ${backend}` })).body.clan_id;
    const t = await people.outsider.post(`/api/clan/${other}/tasks`, { description: 'Foreign easy task', difficulty: 'EASY' });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    otherClanTaskId = t.body.task.id;
  }, 60_000);

  afterAll(() => dbh?.close());

  const actor = (a: Actor): ApiClient => actorClient(people, a);

  // -------------------------------------------------------------------------------------------
  describe('permission matrix', () => {
    interface Ctx { eventId: number; gameId: number; squares: BoardSquare[] }
    const prepare = async (): Promise<Ctx> => {
      const { eventId, gameId } = await newGame();
      return { eventId, gameId, squares: await squaresOf(eventId, gameId) };
    };
    const easy = (x: Ctx) => ofTier(x.squares, 'EASY');
    const freeEasy = (x: Ctx) => {
      const on = new Set(x.squares.map((s) => s.task_id));
      return [...pool].find(([id, t]) => t.difficulty === 'EASY' && !on.has(id))![0];
    };
    const MATRIX: { call: string; expect: Row; send: (as: ApiClient, x: Ctx) => Promise<Answer> }[] = [
      { call: 'GET tasks', expect: READ, send: (as, x) => as.get(gamePath(x.eventId, x.gameId, '/tasks')) },
      {
        call: 'POST reorder', expect: CHANGE, send: (as, x) => {
          const [a, b] = easy(x);
          return as.post(gamePath(x.eventId, x.gameId, '/tasks/reorder'), { squares: [{ id: a.id, square_index: b.square_index }, { id: b.id, square_index: a.square_index }] });
        },
      },
      { call: 'POST swap', expect: CHANGE, send: (as, x) => as.post(gamePath(x.eventId, x.gameId, '/tasks/swap'), { square1_id: easy(x)[0].id, square2_id: easy(x)[1].id }) },
      { call: 'PUT assign', expect: CHANGE, send: (as, x) => as.put(gamePath(x.eventId, x.gameId, `/tasks/${easy(x)[0].id}`), { task_id: freeEasy(x) }) },
      { call: 'GET available', expect: READ, send: (as, x) => as.get(gamePath(x.eventId, x.gameId, `/tasks/${easy(x)[0].id}/available`)) },
    ];
    const ROWS = matrixRows(MATRIX);

    it.each(ROWS)('$call as $actor → $status', async ({ call, actor: a, status, send }) => {
      const ctx = await prepare();
      const v0 = await version(ctx.eventId, ctx.gameId);
      const r = await send(actor(a), ctx);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      const after = await squaresOf(ctx.eventId, ctx.gameId);
      if (status !== 200) {
        expect(r.body.error).toBe(a === 'signed out' ? 'You must be signed in.' : PERMISSION_TEXT);
        expect(after).toEqual(ctx.squares);
        expect(await version(ctx.eventId, ctx.gameId)).toBe(v0);
        return;
      }
      if (call.startsWith('GET')) {
        expect(await version(ctx.eventId, ctx.gameId)).toBe(v0);
        if (call === 'GET tasks') expect(r.body.squares).toEqual(ctx.squares);
        else expect(v.parse(AvailableTasksAnswerSchema, r.body).available_tasks.every((t) => t.difficulty === 'EASY')).toBe(true);
      } else {
        expect(await version(ctx.eventId, ctx.gameId)).toBe(v0 + 1);
        expect(after).not.toEqual(ctx.squares);
      }
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('swap', () => {
    it('swaps the tasks of two squares of one tier, and refuses special squares, other tiers and other games', async () => {
      const { eventId, gameId } = await newGame();
      const swap = (square1_id: unknown, square2_id: unknown) => people.owner.post(gamePath(eventId, gameId, '/tasks/swap'), { square1_id, square2_id });
      const before = await squaresOf(eventId, gameId);
      const [a, b] = ofTier(before, 'EASY');
      const r = await swap(a.id, b.id);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({ ok: true, message: GAME_MESSAGES.swapped });
      const after = await squaresOf(eventId, gameId);
      const at = (id: number) => after.find((s) => s.id === id)!;
      expect(at(a.id)).toEqual({ ...a, task_id: b.task_id, task_description: b.task_description });
      expect(at(b.id)).toEqual({ ...b, task_id: a.task_id, task_description: a.task_description });
      expect(after.filter((s) => s.id !== a.id && s.id !== b.id)).toEqual(before.filter((s) => s.id !== a.id && s.id !== b.id));

      const start = after[0];
      const finish = after[after.length - 1];
      const snake = after.find((s) => s.task_description === 'Snake')!;
      const ladder = after.find((s) => s.task_description === 'Ladder')!;
      const medium = ofTier(after, 'MEDIUM')[0];
      const other = await newGame();
      const foreign = (await squaresOf(other.eventId, other.gameId))[5];
      const REFUSED: [unknown, unknown, number, string | null][] = [
        [a.id, start.id, 400, GAME_TASK_MESSAGES.special],
        [finish.id, a.id, 400, GAME_TASK_MESSAGES.special],
        [a.id, snake.id, 400, GAME_TASK_MESSAGES.special],
        [ladder.id, a.id, 400, GAME_TASK_MESSAGES.special],
        [a.id, medium.id, 400, GAME_TASK_MESSAGES.acrossTiers],
        [a.id, a.id, 400, null],
        [a.id, foreign.id, 404, null],
        [a.id, 99999999, 404, null],
        [a.id, 'x', 400, null],
        [a.id, 0, 400, null],
        [a.id, 1e12, 400, null],
        [a.id, undefined, 400, null],
      ];
      const v1 = await version(eventId, gameId);
      for (const [s1, s2, status, error] of REFUSED) {
        const x = await swap(s1, s2);
        expect(x.status, `${s1} ${s2}: ${JSON.stringify(x.body)}`).toBe(status);
        if (error) expect(x.body.error).toBe(error);
        else expect(typeof x.body.error).toBe('string');
      }
      expect(await squaresOf(eventId, gameId)).toEqual(after);
      expect(await version(eventId, gameId)).toBe(v1);
      expect(await squaresOf(other.eventId, other.gameId)).toContainEqual(foreign);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('reorder', () => {
    it('moves tasks inside one tier, and refuses moves across tiers, of special squares, and lists that are no permutation', async () => {
      const { eventId, gameId } = await newGame();
      const reorder = (squares: unknown) => people.owner.post(gamePath(eventId, gameId, '/tasks/reorder'), { squares });
      const before = await squaresOf(eventId, gameId);
      const [a, b, c] = ofTier(before, 'HARD');
      // Rotate three HARD tasks: a's task to b's square, b's to c's, c's to a's.
      const r = await reorder([{ id: a.id, square_index: b.square_index }, { id: b.id, square_index: c.square_index }, { id: c.id, square_index: a.square_index }]);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toEqual({ ok: true, message: GAME_MESSAGES.reordered });
      const after = await squaresOf(eventId, gameId);
      const at = (idx: number) => after.find((s) => s.square_index === idx)!;
      expect(at(b.square_index)).toMatchObject({ task_id: a.task_id, task_description: a.task_description, task_difficulty: 'HARD' });
      expect(at(c.square_index)).toMatchObject({ task_id: b.task_id, task_description: b.task_description });
      expect(at(a.square_index)).toMatchObject({ task_id: c.task_id, task_description: c.task_description });

      const start = after[0];
      const snake = after.find((s) => s.task_description === 'Snake')!;
      const easy = ofTier(after, 'EASY')[0];
      const [h1, h2] = ofTier(after, 'HARD');
      const other = await newGame();
      const foreign = ofTier(await squaresOf(other.eventId, other.gameId), 'HARD')[0];
      const REFUSED: [unknown, string | null][] = [
        [[{ id: h1.id, square_index: easy.square_index }, { id: easy.id, square_index: h1.square_index }], GAME_TASK_MESSAGES.acrossTiers],
        [[{ id: h1.id, square_index: start.square_index }, { id: start.id, square_index: h1.square_index }], GAME_TASK_MESSAGES.special],
        [[{ id: h1.id, square_index: snake.square_index }, { id: snake.id, square_index: h1.square_index }], GAME_TASK_MESSAGES.special],
        [[{ id: h1.id, square_index: h2.square_index }], null],
        [[{ id: h1.id, square_index: h2.square_index }, { id: h1.id, square_index: h1.square_index }], null],
        [[{ id: h1.id, square_index: h2.square_index }, { id: h2.id, square_index: 9999 }], null],
        [[{ id: h1.id, square_index: foreign.square_index }, { id: foreign.id, square_index: h1.square_index }], null],
        [[], null],
        ['x', null],
        [[{ id: 'x', square_index: 3 }], null],
        [Array.from({ length: 300 }, (_, i) => ({ id: i + 1, square_index: i + 1 })), null],
      ];
      const v1 = await version(eventId, gameId);
      for (const [squares, error] of REFUSED) {
        const x = await reorder(squares);
        expect(x.status, `${JSON.stringify(squares).slice(0, 80)}: ${JSON.stringify(x.body)}`).toBe(400);
        if (error) expect(x.body.error).toBe(error);
        else expect(typeof x.body.error).toBe('string');
      }
      expect(await squaresOf(eventId, gameId)).toEqual(after);
      expect(await version(eventId, gameId)).toBe(v1);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('assign on a 225-square board the pool cannot fill', () => {
    it('leaves Unassigned squares, lists free tasks of the tier, assigns one, and refuses taken, wrong-tier, foreign and special cases', async () => {
      const s = settings(225, { num_snakes: 0, num_ladders: 0 });
      const { eventId, gameId } = await newGame(s);
      const squares = await squaresOf(eventId, gameId);
      expect(squares).toHaveLength(225);
      // Every tier is short: its squares beyond the pool stay Unassigned.
      const counts = { EASY: s.num_easy_tasks, MEDIUM: s.num_medium_tasks, HARD: s.num_hard_tasks, ELITE: s.num_elite_tasks, MASTER: s.num_master_tasks };
      for (const tier of TIERS) {
        const inPool = [...pool.values()].filter((t) => t.difficulty === tier).length;
        const tierSquares = squares.filter((x) => x.task_difficulty === tier);
        expect(tierSquares).toHaveLength(counts[tier]);
        const unassigned = tierSquares.filter((x) => x.task_id === null);
        expect(unassigned).toHaveLength(counts[tier] - inPool);
        expect(unassigned.every((x) => x.task_description === '')).toBe(true);
      }
      const path = (squareId: number, rest = '') => gamePath(eventId, gameId, `/tasks/${squareId}${rest}`);
      const [u1, u2] = squares.filter((x) => x.task_difficulty === 'EASY' && x.task_id === null);
      const available = async (id: number) => {
        const r = await people.member.get(path(id, '/available'));
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return v.parse(AvailableTasksAnswerSchema, r.body).available_tasks;
      };
      expect(await available(u1.id)).toEqual([]);

      // New pool tasks: one EASY and one HARD, free on this board.
      const addTask = async (description: string, difficulty: string) => {
        const r = await people.owner.post(`/api/clan/${clanId}/tasks`, { description, difficulty });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return r.body.task.id as number;
      };
      const easyTask = await addTask('Zz fresh easy task', 'EASY');
      const easyTask2 = await addTask('Aa another easy task', 'EASY');
      const hardTask = await addTask('Fresh hard task', 'HARD');
      expect(await available(u1.id)).toEqual([
        { id: easyTask2, description: 'Aa another easy task', difficulty: 'EASY' },
        { id: easyTask, description: 'Zz fresh easy task', difficulty: 'EASY' },
      ]);

      const v0 = await version(eventId, gameId);
      const ok = await people.admin.put(path(u1.id), { task_id: easyTask });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body).toEqual({ ok: true, message: GAME_MESSAGES.assigned(u1.square_index) });
      let now = await squaresOf(eventId, gameId);
      expect(now.find((x) => x.id === u1.id)).toEqual({ ...u1, task_id: easyTask, task_description: 'Zz fresh easy task' });
      expect(await version(eventId, gameId)).toBe(v0 + 1);
      expect(await available(u2.id)).toEqual([{ id: easyTask2, description: 'Aa another easy task', difficulty: 'EASY' }]);

      const start = now[0];
      const finish = now[now.length - 1];
      const other = await newGame();
      const foreignSquare = (await squaresOf(other.eventId, other.gameId))[3];
      const REFUSED: [number, unknown, number, string | null][] = [
        [u2.id, easyTask, 409, null], // already on the board
        [u2.id, hardTask, 400, null], // wrong tier
        [u2.id, otherClanTaskId, 400, null], // another clan's task
        [u2.id, 99999999, 400, null], // no such task
        [u2.id, 'x', 400, null],
        [u2.id, null, 400, null],
        [start.id, easyTask2, 400, GAME_TASK_MESSAGES.cannotAssign],
        [finish.id, easyTask2, 400, GAME_TASK_MESSAGES.cannotAssign],
        [foreignSquare.id, easyTask2, 404, null],
        [99999999, easyTask2, 404, null],
      ];
      const v1 = await version(eventId, gameId);
      for (const [squareId, taskId, status, error] of REFUSED) {
        const x = await people.owner.put(path(squareId), { task_id: taskId });
        expect(x.status, `${squareId} ${taskId}: ${JSON.stringify(x.body)}`).toBe(status);
        if (error) expect(x.body.error).toBe(error);
        else expect(typeof x.body.error).toBe('string');
      }
      const bad = await people.owner.put(gamePath(eventId, gameId, '/tasks/abc'), { task_id: easyTask2 });
      expect(bad.status).toBe(400);
      now = await squaresOf(eventId, gameId);
      expect(await version(eventId, gameId)).toBe(v1);

      // Available on squares without a tier, or of another game.
      const special = await people.owner.get(path(start.id, '/available'));
      expect(special.status).toBe(400);
      expect(special.body.error).toBe(GAME_TASK_MESSAGES.cannotAssign);
      expect((await people.owner.get(path(foreignSquare.id, '/available'))).status).toBe(404);

      // Replacing an assigned square's task frees the old one.
      const assigned = ofTier(now, 'MEDIUM')[0];
      const mediumTask = await addTask('Fresh medium task', 'MEDIUM');
      const rep = await people.owner.put(path(assigned.id), { task_id: mediumTask });
      expect(rep.status).toBe(200);
      const freed = await available(ofTier(now, 'MEDIUM')[1].id);
      expect(freed.map((t) => t.id)).toContain(assigned.task_id);
      expect(freed.map((t) => t.id)).not.toContain(mediumTask);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('finished games and bad ids', () => {
    it('a finished game refuses swap, reorder and assign with 409 but still lists its tasks, saying it is finished', async () => {
      const { eventId, gameId } = await newGame();
      const squares = await squaresOf(eventId, gameId);
      const [a, b] = ofTier(squares, 'EASY');
      expect((await people.owner.get(gamePath(eventId, gameId, '/tasks'))).body.finished).toBe(false);
      await dbh.db.updateTable('games').set((eb) => ({ status: 'finished', version: eb('version', '+', 1) })).where('id', '=', gameId).execute();
      // The list says so, so the Game Tasks screen shows it read-only.
      expect((await people.owner.get(gamePath(eventId, gameId, '/tasks'))).body.finished).toBe(true);
      const tries = [
        await people.owner.post(gamePath(eventId, gameId, '/tasks/swap'), { square1_id: a.id, square2_id: b.id }),
        await people.owner.post(gamePath(eventId, gameId, '/tasks/reorder'), { squares: [{ id: a.id, square_index: b.square_index }, { id: b.id, square_index: a.square_index }] }),
        await people.owner.put(gamePath(eventId, gameId, `/tasks/${a.id}`), { task_id: [...pool.keys()][0] }),
      ];
      for (const r of tries) expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(await squaresOf(eventId, gameId)).toEqual(squares);
    });

    it('answers 400 for malformed ids and 404 for a game of another event', async () => {
      const { eventId, gameId } = await newGame();
      const other = await newGame();
      const sq = (await squaresOf(eventId, gameId))[2];
      for (const bad of ['abc', '0', '99999999999']) {
        expect((await people.owner.get(`/api/clan/${clanId}/events/${eventId}/game/${bad}/tasks`)).status).toBe(400);
        expect((await people.owner.get(gamePath(eventId, gameId, `/tasks/${bad}/available`))).status).toBe(400);
        expect((await people.owner.put(gamePath(eventId, gameId, `/tasks/${bad}`), { task_id: 1 })).status).toBe(400);
      }
      const wrong = await people.owner.get(gamePath(eventId, other.gameId, '/tasks'));
      expect(wrong.status).toBe(404);
      expect(wrong.body.error).toBe('Game not found.');
      expect((await people.owner.get(gamePath(other.eventId, other.gameId, `/tasks/${sq.id}/available`))).status).toBe(404);
    });
  });
});
