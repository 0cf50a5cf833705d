import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CamelCasePlugin, sql } from 'kysely';
import { backends, createTestDatabase, type TestDatabase } from '../support/server';
import { openDirectDb } from '../support/fixtures';
import type { DbHandle } from '../../server/db/connect';
import { compiledQuery, type CompiledStatement } from '../../server/db/compiled';
import { CLAIM, INSERT_MOVE, LOCKED_VERSION, PRECHECK, READ_HELD, SQUARE, VERSION, WRITE_TEAM_STATE } from '../../server/games/play';
import { INSERT_ANNOUNCEMENT } from '../../server/discord/repository';
import { logInsert } from '../../server/games/repository';

/**
 * Statements compiled once (server/db/compiled.ts; a roll's statements, docs/server.md §5), on
 * SQLite and, with TEST_DATABASE_URL, PostgreSQL:
 * - each compiled roll statement, with the values put in, is the SQL and parameters Kysely builds
 *   from the same builder with those values, for several values, also inside a transaction;
 * - executed, it gives the rows and affected-row counts the dynamic query gives;
 * - the helper refuses a parameter inlined into the SQL, transformed, or not reaching the
 *   parameters, a list or missing value, and a database with plugins.
 */

/** A statement with the value sets it is checked with. */
interface Case {
  name: string;
  statement: CompiledStatement<never, unknown>;
  values: Record<string, unknown>[];
}

const logValues = (n: number, seed: number) => {
  const v: Record<string, unknown> = { gameId: seed, timestamp: `2026-01-0${seed}T00:00:00.000Z` };
  for (let i = 0; i < n; i += 1) {
    Object.assign(v, {
      [`name${i}`]: `Team ${seed}-${i}`, [`color${i}`]: i === 1 ? null : '#ff0000', [`message${i}`]: `m'${i}`,
      [`rollIndex${i}`]: i === 0 ? seed : null, [`die${i}`]: i === 0 ? 1 + (seed % 6) : null,
    });
  }
  return v;
};

const CASES: Case[] = [
  {
    name: 'precheck', statement: PRECHECK as never, values: [
      { gameId: 1, teamId: 2, ignId: 3, sessionHash: 'abc', now: '2026-01-01T00:00:00.000Z' },
      { gameId: 99, teamId: 7, ignId: 7, sessionHash: "x'; drop table games; --", now: '2030-12-31T23:59:59.999Z' },
    ],
  },
  { name: 'claim', statement: CLAIM as never, values: [{ gameId: 1, version: 0, now: 'a' }, { gameId: 5, version: 41, now: 'b' }] },
  { name: 'version', statement: VERSION as never, values: [{ gameId: 1 }, { gameId: 8 }] },
  { name: 'locked version', statement: LOCKED_VERSION as never, values: [{ gameId: 3 }] },
  {
    name: 'read under claim', statement: READ_HELD as never, values: [
      { gameId: 1, teamId: 2, ignId: 3, userId: 4, square: 5 },
      { gameId: 10, teamId: 10, ignId: 0, userId: 10, square: 0 },
    ],
  },
  {
    name: 'team state', statement: WRITE_TEAM_STATE as never, values: [
      { id: 1, position: 7, reverts: 0, history: '[1,7]', taskState: 'open', since: 't1', progress: null },
      { id: 2, position: 1, reverts: 3, history: '[1]', taskState: 'none', since: 't2', progress: '{"have":0}' },
    ],
  },
  {
    name: 'move', statement: INSERT_MOVE as never, values: [
      { gameId: 1, at: 't', teamId: 2, kind: 'roll', from: 1, to: 14, rollIndex: 1, die: 3, landing: 4, via: 'ladder' },
      { gameId: 1, at: 't', teamId: 2, kind: 'revert', from: 14, to: 1, rollIndex: null, die: null, landing: null, via: null },
    ],
  },
  { name: 'square', statement: SQUARE as never, values: [{ gameId: 1, index: 3 }, { gameId: 2, index: 0 }] },
  {
    name: 'announcement', statement: INSERT_ANNOUNCEMENT as never, values: [
      { webhookId: 1, gameId: 2, kind: 'roll', payload: '{"kind":"roll"}', createdAt: 't' },
      { webhookId: 3, gameId: null, kind: 'signups', payload: '{}', createdAt: 'u' },
    ],
  },
  ...[1, 2, 3].map((n) => ({ name: `log of ${n}`, statement: logInsert(n) as never, values: [logValues(n, 1), logValues(n, 2)] })),
];

describe.each(backends())('compiled statements (%s)', (backend) => {
  let database: TestDatabase;
  let handle: DbHandle;
  beforeAll(async () => {
    database = await createTestDatabase(backend);
    handle = await openDirectDb(database.env);
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  /** The compiled query of `c` with `values` against the dynamic one, on `db`. */
  const expectSame = (c: Case, db: DbHandle['db'], values: Record<string, unknown>) => {
    const compiled = c.statement.compile(db, values as never);
    const dynamic = c.statement.build(db, values as never).compile();
    expect(compiled.sql, c.name).toBe(dynamic.sql);
    expect(compiled.parameters, c.name).toStrictEqual(dynamic.parameters);
  };

  it.each(CASES)('$name: the same SQL and parameters as the builder with the values', (c) => {
    for (const values of c.values) expectSame(c, handle.db, values);
    expect(c.statement.compile(handle.db, c.values[0] as never).sql).toContain(backend === 'postgres' ? '$1' : '?');
  });

  it.skipIf(backend !== 'postgres')('on PostgreSQL a compiled statement is a prepared statement of its connection, planned once; other SQL is not', async () => {
    await handle.db.connection().execute(async (conn) => {
      const prepared = async () => (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(conn)).rows.map((r) => r.statement);
      expect(await prepared()).not.toContain(VERSION.compile(conn, { gameId: 1 }).sql);
      for (const gameId of [1, 2, 3]) await VERSION.execute(conn, { gameId });
      const after = await prepared();
      expect(after.filter((text) => text === VERSION.compile(conn, { gameId: 1 }).sql)).toHaveLength(1);
      await conn.selectFrom('games').select('id').where('id', '=', 1).execute();
      expect(await prepared()).toHaveLength(after.length);
    });
  });

  it('the same inside a transaction, which shares its database\'s compiled statements', async () => {
    await handle.db.transaction().execute(async (trx) => {
      for (const c of CASES) for (const values of c.values) expectSame(c, trx, values);
    });
  });

  /** A game in progress with two teams, a Leader (user, IGN, session) and a board square; answers the ids. */
  const seed = async () => {
    const db = handle.db;
    const t = '2026-01-01T00:00:00.000Z';
    const id = async (q: { executeTakeFirstOrThrow(): Promise<{ id: number }> }) => (await q.executeTakeFirstOrThrow()).id;
    const user = await id(db.insertInto('users').values({ username: 'u', avatar_url: null, created_at: t, last_login: null }).returning('id'));
    const ign = await id(db.insertInto('igns').values({ user_id: user, ign: 'Ign', created_at: t }).returning('id'));
    await db.insertInto('sessions').values({ id: 'hash', user_id: user, data: '{}', created_at: t, expires_at: '2099-01-01T00:00:00.000Z' }).execute();
    const clan = await id(db.insertInto('clans').values({ name: 'C', name_key: 'c', created_at: t }).returning('id'));
    const event = await id(db.insertInto('events').values({ clan_id: clan, name: 'E', type: 't', start_datetime: t, end_datetime: null, created_at: t, signups_close_at: null }).returning('id'));
    const game = await id(db.insertInto('games').values({
      event_id: event, clan_id: clan, status: 'in-progress', board_size: 25, num_snakes: 0, num_ladders: 0, max_reverts_allowed: 3,
      num_easy_tasks: 5, num_medium_tasks: 5, num_hard_tasks: 5, num_elite_tasks: 4, num_master_tasks: 4, board_connections: '[]',
      winners: null, version: 4, relief_after_hours: null, created_at: t, updated_at: t,
    }).returning('id'));
    const teams: number[] = [];
    for (const name of ['B', 'A']) {
      const team = await id(db.insertInto('teams').values({ event_id: event, name, color: '#00ff00', created_at: t }).returning('id'));
      await db.insertInto('team_states').values({ game_id: game, team_id: team, current_position: 3, revert_count: 1, position_history: '[1,3]' }).execute();
      teams.push(team);
    }
    await db.insertInto('team_members').values({ team_id: teams[0], event_id: event, ign_id: ign, role: 'Leader', created_at: t }).execute();
    await db.insertInto('board_squares').values({ game_id: game, square_index: 3, task_id: null, task_description: 'Task', task_difficulty: 'easy' }).execute();
    await db.insertInto('game_moves').values({ game_id: game, at: t, team_id: teams[0], kind: 'roll', roll_index: 2, die: 2, from_square: 1, landing: 3, to_square: 3, via: null }).execute();
    return { user, ign, game, teams };
  };

  it('executed: the rows and counts of the dynamic query', async () => {
    const { user, ign, game, teams } = await seed();
    const same = async (statement: CompiledStatement<never, unknown>, values: Record<string, unknown>, db: DbHandle['db'] = handle.db) => {
      const compiled = await statement.execute(db, values as never);
      expect(compiled).toStrictEqual(await db.executeQuery(statement.build(db, values as never)));
      return compiled;
    };
    const pre = await same(PRECHECK as never, { gameId: game, teamId: teams[0], ignId: ign, sessionHash: 'hash', now: '2026-06-01T00:00:00.000Z' });
    expect(pre.rows).toMatchObject([{ user_id: user, id: game, version: 4, leader: 1, last_roll: 2, team_name: 'B', current_position: 3 }]);
    expect((await same(PRECHECK as never, { gameId: game, teamId: teams[1], ignId: ign, sessionHash: 'hash', now: '2026-06-01T00:00:00.000Z' })).rows)
      .toMatchObject([{ leader: 0, team_name: 'A' }]);
    expect((await same(VERSION as never, { gameId: game })).rows).toStrictEqual([{ version: 4 }]);
    expect((await same(SQUARE as never, { gameId: game, index: 3 })).rows).toStrictEqual([{ task_description: 'Task', task_difficulty: 'easy', task_rule: null }]);
    expect((await same(SQUARE as never, { gameId: game, index: 4 })).rows).toStrictEqual([]);
    await handle.db.transaction().execute(async (trx) => {
      const held = await same(READ_HELD as never, { gameId: game, teamId: teams[0], ignId: ign, userId: user, square: 3 }, trx);
      expect(held.rows).toMatchObject([{ team_id: teams[0], task_description: 'Task', leader: 1 }, { team_id: teams[1], task_description: 'Task' }]);
      if (backend === 'postgres') expect((await same(LOCKED_VERSION as never, { gameId: game }, trx)).rows).toStrictEqual([{ version: 4 }]);
      const claimed = await CLAIM.execute(trx, { gameId: game, version: 4, now: 'n' });
      expect(claimed.numAffectedRows).toBe(1n);
      expect((await same(CLAIM as never, { gameId: game, version: 4, now: 'n' }, trx)).numAffectedRows).toBe(0n);
      const written = await WRITE_TEAM_STATE.execute(trx, { id: Number(held.rows[0] && (held.rows[0] as { state_id: number }).state_id), position: 9, reverts: 1, history: '[1,3,9]', taskState: 'none', since: 's', progress: null });
      expect(written.numAffectedRows).toBe(1n);
      const move = { gameId: game, at: 't', teamId: teams[0], kind: 'roll', from: 3, to: 9, rollIndex: 3, die: 6, landing: 9, via: null } as const;
      const inserted = await INSERT_MOVE.execute(trx, move);
      const again = await trx.executeQuery(INSERT_MOVE.build(trx, move));
      expect(inserted.numAffectedRows).toBe(1n);
      expect(again.numAffectedRows).toBe(1n);
      const logs = await logInsert(2).execute(trx, { ...logValues(2, 1), gameId: game } as never);
      const dynamicLogs = await trx.executeQuery(logInsert(2).build(trx, { ...logValues(2, 1), gameId: game } as never));
      const noIds = (rows: unknown[]) => rows.map((r) => ({ ...(r as object), id: typeof (r as { id: unknown }).id }));
      expect(noIds(logs.rows)).toStrictEqual(noIds(dynamicLogs.rows));
      expect(logs.rows).toMatchObject([{ message: "m'0", roll_index: 1, die: 2, team_color: '#ff0000' }, { message: "m'1", roll_index: null, team_color: null }]);
      throw new Error('rolled back');
    }).catch((err: Error) => expect(err.message).toBe('rolled back'));
  });

  it('refuses a parameter inlined into the SQL, transformed, or dropped', () => {
    const inlined = compiledQuery((db, p: { id: number }) => db.selectFrom('games').select('id').where('id', '=', sql.lit(p.id)));
    expect(() => inlined.compile(handle.db, { id: 1 })).toThrow('inlined into the SQL text');
    const transformed = compiledQuery((db, p: { q: string }) => db.selectFrom('games').select('id').where('status', 'like', `%${p.q}%`));
    expect(() => transformed.compile(handle.db, { q: 'x' })).toThrow('transformed from a sentinel');
    const dropped = compiledQuery((db, p: { id: number }) => {
      void p.id;
      return db.selectFrom('games').select('id');
    });
    expect(() => dropped.compile(handle.db, { id: 1 })).toThrow('"id" does not reach the compiled parameters');
  });

  it('refuses a list or a missing value, and a database with plugins', () => {
    expect(() => VERSION.compile(handle.db, { gameId: [1, 2] as never })).toThrow('"gameId" is a list');
    expect(() => VERSION.compile(handle.db, {} as never)).toThrow('"gameId" is missing');
    expect(() => VERSION.compile(handle.db.withPlugin(new CamelCasePlugin()), { gameId: 1 })).toThrow('Kysely plugins');
  });
});
