import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, startServer, type TestDatabase, type TestServer } from '../support/server';
import { ApiClient } from '../support/api';

/** Sign-in is rate limited per client IP: past the limit, 429 with an {"error"} body. */
describe('sign-in rate limit', () => {
  let db: TestDatabase;
  let server: TestServer;
  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    server = await startServer({ ...db.env, AUTH_RATE_LIMIT: '5' });
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it('answers 429 after 5 attempts a minute and still serves other routes', async () => {
    const client = new ApiClient(server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await client.post('/api/auth/dev', { username: `u${i}` })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const refused = await client.post('/api/auth/dev', { username: 'late' });
    expect(refused.body).toEqual({ error: 'Too many sign-in attempts. Please wait a minute and try again.' });
    expect((await client.get('/api/games/auth/status')).status).toBe(200);
    expect((await client.get('/api/user/me')).status).toBe(200);
  });
});
