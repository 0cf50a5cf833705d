import { describe, expect, it } from 'vitest';
import { backends, createTestDatabase, startServer, type Backend } from '../support/server';

/**
 * Processes started together on one new database (docs/server.md §14: a rolling deploy or
 * several processes behind one proxy): each runs the migrations on start, and every one of them
 * must come up on the same, fully migrated schema (server/db/connect.ts migrateToLatest).
 */
describe.each(backends())('three processes started at once on a new database (%s)', (backend: Backend) => {
  it('all start, each ready, on one migrated schema', async () => {
    const db = await createTestDatabase(backend, { empty: true });
    const servers = await Promise.allSettled([startServer(db.env), startServer(db.env), startServer(db.env)]);
    try {
      const failed = servers.flatMap((s) => (s.status === 'rejected' ? [String(s.reason).slice(0, 400)] : []));
      expect(failed).toEqual([]);
      for (const s of servers) {
        if (s.status !== 'fulfilled') continue;
        const ready = await fetch(`${s.value.url}/readyz`);
        expect(ready.status).toBe(200);
      }
    } finally {
      await Promise.all(servers.map((s) => (s.status === 'fulfilled' ? s.value.stop() : undefined)));
      await db.drop();
    }
  }, 90_000);
});
