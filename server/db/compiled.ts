import { createQueryId, type Compilable, type CompiledQuery, type DialectAdapter, type Kysely, type QueryResult } from 'kysely';
import type { Database, Db } from './schema';

/**
 * The SQL texts of every compiled statement (compiledQuery): on PostgreSQL each runs as a named
 * prepared statement of its connection (connect.ts), so the server parses and plans it once per
 * connection instead of on every call (planning took about 1 ms of the 1.3 ms of a roll's reads).
 */
export const PREPARED_SQL = new Set<string>();

/** Marks a sentinel parameter value; a NUL byte never occurs in the app's SQL or values. */
const MARK = '\u0000compiled-param:';

/** The statement as compiled for one dialect: its SQL, its parameters, and where each named value goes. */
interface Template {
  compiled: CompiledQuery;
  slots: { index: number; name: string }[];
}

/** A statement built and compiled once per dialect, executed with new values (compiledQuery). */
export interface CompiledStatement<P, O> {
  /** The builder it was made from: with real values it gives the dynamic query (tests compare the two). */
  build: (db: Kysely<Database>, p: P) => Compilable<O>;
  /**
   * The compiled query with `values` in place of the sentinels, for `db`'s dialect (compiled on
   * the first call per dialect, throwing there as compiledQuery says). Throws when a value is
   * undefined or an array (a list changes the SQL), or when `db` has Kysely plugins (their
   * transformQuery would be skipped; the app's databases have none).
   */
  compile(db: Db, values: P): CompiledQuery<O>;
  /**
   * Runs compile's query on `db` (the Kysely instance or a transaction of it) through
   * `db.executeQuery`: the same rows and numAffectedRows as executing the builder with the values.
   */
  execute(db: Db, values: P): Promise<QueryResult<O>>;
}

/**
 * A hot statement compiled once instead of on every call (a roll's statements, docs/server.md §5;
 * Kysely's building and compiling cost about as much CPU as SQLite running them). `build` receives
 * a query creator and `p`, whose properties are sentinel values standing for the parameters
 * (annotate it: `(db, p: { gameId: number }) => db.selectFrom('games')...where('id', '=', p.gameId)`).
 * It runs once per dialect (per Kysely instance: a transaction shares its instance's), on the
 * first execute; the sentinels' positions in the compiled parameters are recorded, and each
 * execute copies the parameters with the real values put in. Only for statements whose SQL does
 * not depend on the values: `build` must not branch on them, use them in `sql.lit`, `is null`,
 * an `in` list or a varying number of rows. The first compile throws when a sentinel was inlined
 * into the SQL text, transformed (e.g. concatenated) or dropped.
 */
export function compiledQuery<P extends object, O>(build: (db: Kysely<Database>, p: P) => Compilable<O>): CompiledStatement<P, O> {
  const templates = new WeakMap<DialectAdapter, Template>();
  /** Builds and compiles with sentinels, and finds where each lands (throws as said above). */
  const compile = (db: Db): Template => {
    const used = new Set<string>();
    const p = new Proxy({}, {
      get: (_, name) => {
        used.add(String(name));
        return MARK + String(name);
      },
    }) as P;
    const compiled = build(db, p).compile();
    if (compiled.sql.includes(MARK)) throw new Error('compiledQuery: a parameter was inlined into the SQL text');
    const slots: Template['slots'] = [];
    compiled.parameters.forEach((value, index) => {
      if (typeof value !== 'string' || !value.includes(MARK)) return;
      const name = value.slice(MARK.length);
      if (!value.startsWith(MARK) || !used.has(name)) throw new Error(`compiledQuery: parameter ${index + 1} was transformed from a sentinel`);
      slots.push({ index, name });
    });
    for (const name of used) {
      if (!slots.some((s) => s.name === name)) throw new Error(`compiledQuery: parameter "${name}" does not reach the compiled parameters`);
    }
    PREPARED_SQL.add(compiled.sql);
    return { compiled, slots };
  };
  const compileWith = (db: Db, values: P): CompiledQuery<O> => {
    const executor = db.getExecutor();
    if (executor.plugins.length > 0) throw new Error('compiledQuery: a database with Kysely plugins is not supported');
    let template = templates.get(executor.adapter);
    if (!template) {
      template = compile(db);
      templates.set(executor.adapter, template);
    }
    const parameters = template.compiled.parameters.slice();
    for (const { index, name } of template.slots) {
      const value = (values as Record<string, unknown>)[name];
      if (value === undefined || Array.isArray(value)) throw new Error(`compiledQuery: parameter "${name}" is ${value === undefined ? 'missing' : 'a list'}`);
      parameters[index] = value;
    }
    return { sql: template.compiled.sql, query: template.compiled.query, parameters, queryId: createQueryId() };
  };
  return { build, compile: compileWith, execute: (db, values) => db.executeQuery(compileWith(db, values)) };
}

/**
 * Statements whose text depends on a count (the rows of a multi-row insert, a roll's log entries),
 * each built by `build(count)` on first use and kept, so each count is compiled (and, on
 * PostgreSQL, prepared) once.
 */
export function compiledPerCount<S>(build: (count: number) => S): (count: number) => S {
  const made = new Map<number, S>();
  return (count) => {
    let statement = made.get(count);
    if (!statement) {
      statement = build(count);
      made.set(count, statement);
    }
    return statement;
  };
}
