import Database from 'better-sqlite3';
import pg from 'pg';

/**
 * Runs SQL on a suite's database from the test process, bypassing the server ('?' placeholders on
 * both backends). `env` is the database env (SQLITE_FILE or DATABASE_URL); answers the rows read.
 */
export async function directSql(env: Record<string, string>, text: string, params: unknown[] = []): Promise<any[]> {
  if (env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      let i = 0;
      return (await client.query(text.replace(/\?/g, () => `$${++i}`), params)).rows;
    } finally {
      await client.end();
    }
  }
  const db = new Database(env.SQLITE_FILE);
  try {
    const st = db.prepare(text);
    if (st.reader) return st.all(...params);
    st.run(...params);
    return [];
  } finally {
    db.close();
  }
}
