import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ApiClient } from '../support/api';
import { backends, createTestDatabase, startServer, type TestDatabase, type TestServer } from '../support/server';

/**
 * "No bad input ever causes a 500" (docs/server.md §1), checked by
 * throwing generated junk at every route of the API as a clan Owner: random JSON values, objects
 * mixing every field name the API knows with values of the wrong type or range, text that is not
 * JSON, and ids that are malformed, out of range or of nothing. Every answer must be below 500,
 * and every 4xx must be `{"error": "<text>"}`.
 *
 * The text rule (docs/server.md §8): junk strings also mix control (C0, C1, NUL),
 * zero-width and bidi characters, and every typed-text field is also sent such text inside an
 * otherwise valid body (and in CSV rows), so the text reaches the database unless the rule stops
 * it: still no 5xx, on PostgreSQL too.
 */

const FIELDS = [
  'username', 'igns', 'clan_setup', 'role', 'clan_name', 'clan_id', 'ign', 'user_id', 'new_name', 'name', 'type',
  'start_datetime', 'end_datetime', 'color', 'osrs_ign_id', 'description', 'difficulty', 'board_size', 'num_snakes',
  'num_ladders', 'max_reverts_allowed', 'num_easy_tasks', 'num_medium_tasks', 'num_hard_tasks', 'num_elite_tasks',
  'num_master_tasks', 'snakes_config', 'ladders_config', 'status', 'square1_id', 'square2_id', 'task_id', 'squares', 'id', 'square_index',
  'proof_required', 'decision', 'reason', 'note', 'team_id',
  'wants_leader', 'score', 'metric', 'team_count', 'proposal', 'signups_open', 'signups_close_at',
];

/** Characters the text rule refuses or removes, mixed with ordinary and combining ones. */
const TEXT_UNITS = [
  '\u0000', '\u0007', '\t', '\n', '\r', '\u001B', '\u007F', '\u0085', '\u009B', // C0, DEL, C1
  '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u180E', // zero-width
  '\u061C', '\u200E', '\u200F', '\u202A', '\u202E', '\u2066', '\u2069', // bidi controls
  'a', 'Z', '7', ' ', 'e', '\u0301', '\uFF29', 'ß', '\uFB01', '\uD800', // text, combining, full-width, lone surrogate
];
const nastyText = fc.string({ unit: fc.constantFrom(...TEXT_UNITS), maxLength: 16 });

const junkValue = fc.oneof(
  fc.integer(),
  nastyText,
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, 1e308, -0.5, 3.7, Number.MAX_SAFE_INTEGER),
  fc.string({ maxLength: 20 }),
  fc.constantFrom('', ' ', 'x'.repeat(5000), '2026-13-45T99:99', 'in-progress', 'Owner', 'EASY', '#zzzzzz', '<script>alert(1)</script>', "'; DROP TABLE users; --"),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.tuple(fc.integer(), fc.integer())), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 3 }),
);

const junkBody = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.dictionary(fc.constantFrom(...FIELDS), junkValue, { maxKeys: 8 }),
);

const junkText = fc.constantFrom('{', 'not json', '[1,2', '{"a":}', '\u0000', 'null');

const BAD_IDS = ['abc', '0', '-1', '1e3', '99999999999', '2147483648', '9999', '1.5', '%20'];

describe.each(backends())('every route survives junk (%s)', (backend) => {
  let db: TestDatabase;
  let server: TestServer;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    // Wise Old Man look-ups go to a closed local port: refused at once, never the real site.
    server = await startServer({ ...db.env, BOARD_SEED: '3', WOM_API_URL: 'http://127.0.0.1:9' });
    const owner = new ApiClient(server.url);
    const me = await owner.onboard('FuzzOwner', ['Fuzzer'], { role: 'Owner', clan_name: 'Fuzz Clan' });
    const clanId = me.clan_memberships_list[0].clan_id;
    const start = new Date(Date.now() + 86_400_000).toISOString();
    const event = (await owner.post(`/api/clan/${clanId}/events/`, { name: 'Fuzz Event', type: 'Snakes and Ladders', start_datetime: start, end_datetime: null, signups_open: true })).body.event;
    const spare = (await owner.post('/api/user/igns', { ign: 'FuzzSpare' })).body.ign;
    const signup = (await owner.post(`/api/clan/${clanId}/events/${event.id}/signups`, { osrs_ign_id: spare.id, wants_leader: true, note: 'fuzz' })).body.signup;
    const team = (await owner.post(`/api/clan/${clanId}/events/${event.id}/teams/`, { name: 'Fuzz Team', color: '#112233' })).body.team;
    const member = (await owner.post(`/api/clan/${clanId}/events/${event.id}/teams/${team.id}/members`, { osrs_ign_id: me.igns[0].id, role: 'Leader' })).body.member;
    const task = (await owner.post(`/api/clan/${clanId}/tasks`, { description: 'Fuzz a goblin', difficulty: 'EASY' })).body.task;
    const game = (await owner.post(`/api/clan/${clanId}/events/${event.id}/game/`, { board_size: 25, num_snakes: 1, num_ladders: 1, max_reverts_allowed: 1, num_easy_tasks: 5, num_medium_tasks: 5, num_hard_tasks: 5, num_elite_tasks: 4, num_master_tasks: 4 })).body.game;
    const squares = (await owner.get(`/api/clan/${clanId}/events/${event.id}/game/${game.id}/tasks`)).body.squares;
    Object.assign(ids, {
      clanId: String(clanId), eventId: String(event.id), teamId: String(team.id), memberId: String(member.id),
      taskId: String(task.id), gameId: String(game.id), squareId: String(squares[3].id), ignId: String(me.igns[0].id), userMemberId: String(me.id),
      // No proof is sent in this suite: the submission routes meet an unknown id (404) besides the bad ones.
      submissionId: '1',
      signupId: String(signup.id),
    });
    (globalThis as { fuzzOwner?: ApiClient }).fuzzOwner = owner;
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  const G = '/api/clan/:clanId/events/:eventId/game/:gameId';
  // Deletes come last so the others meet live objects.
  const ROUTES: [string, string][] = [
    ['POST', '/api/auth/dev'], ['POST', '/api/user/setup'], ['POST', '/api/user/igns'], ['PUT', '/api/user/igns/:ignId'],
    ['POST', '/api/clans'], ['GET', '/api/clan/:clanId/members'], ['GET', '/api/clan/:clanId/available_members'],
    ['POST', '/api/clan/:clanId/members'], ['PUT', '/api/clan/:clanId/members/:userMemberId/role'], ['PUT', '/api/clan/:clanId/name'],
    ['GET', '/api/clan/:clanId/events/'], ['POST', '/api/clan/:clanId/events/'], ['PUT', '/api/clan/:clanId/events/:eventId'],
    ['GET', '/api/clan/:clanId/events/:eventId/teams/'], ['POST', '/api/clan/:clanId/events/:eventId/teams/'],
    ['PUT', '/api/clan/:clanId/events/:eventId/teams/:teamId'], ['GET', '/api/clan/:clanId/events/:eventId/teams/:teamId/members'],
    ['POST', '/api/clan/:clanId/events/:eventId/teams/:teamId/members'], ['PUT', '/api/clan/:clanId/events/:eventId/teams/:teamId/members/:memberId'],
    ['GET', '/api/clan/:clanId/tasks/'], ['GET', '/api/tasks/'], ['POST', '/api/clan/:clanId/tasks'], ['PUT', '/api/clan/:clanId/tasks/:taskId'],
    ['POST', '/api/clan/:clanId/tasks/upload_csv'],
    ['GET', G], ['PUT', G], ['PUT', `${G}/board`], ['PUT', `${G}/status`], ['GET', `${G}/tasks`], ['POST', `${G}/tasks/reorder`],
    ['POST', `${G}/tasks/swap`], ['PUT', `${G}/tasks/:squareId`], ['GET', `${G}/tasks/:squareId/available`],
    ['GET', '/api/games'], ['GET', '/api/games/spectate'], ['GET', '/api/public/game/:gameId'], ['POST', '/api/clan/:clanId/events/:eventId/game/'],
    ['PUT', `${G}/rules`], ['POST', `${G}/submissions`], ['GET', `${G}/submissions`], ['GET', '/api/clan/:clanId/submissions'],
    ['PUT', `${G}/submissions/:submissionId/review`], ['PUT', '/api/clan/:clanId/submissions/:submissionId/review'],
    ['GET', '/api/submissions/:submissionId/image'], ['GET', '/api/submissions/:submissionId/thumb'],
    ['DELETE', `${G}/submissions/:submissionId/review`], ['DELETE', '/api/clan/:clanId/submissions/:submissionId/review'],
    ['PUT', `${G}/reset`],
    ['GET', '/api/clan/:clanId/events/:eventId/signups'], ['POST', '/api/clan/:clanId/events/:eventId/signups'],
    ['PUT', '/api/clan/:clanId/events/:eventId/signups/:signupId'], ['POST', '/api/clan/:clanId/events/:eventId/signups/scores'],
    ['POST', '/api/clan/:clanId/events/:eventId/signups/scores/wom'], ['GET', '/api/clan/:clanId/events/:eventId/signups/scores/wom'],
    ['POST', '/api/clan/:clanId/events/:eventId/teams/balance'], ['POST', '/api/clan/:clanId/events/:eventId/teams/balance/apply'],
    ['DELETE', '/api/clan/:clanId/events/:eventId/signups/:signupId'],
    ['DELETE', '/api/clan/:clanId/events/:eventId/teams/:teamId/members/:memberId'], ['DELETE', '/api/clan/:clanId/tasks/:taskId'],
    ['DELETE', `${G}`], ['DELETE', '/api/clan/:clanId/events/:eventId/teams/:teamId'], ['DELETE', '/api/clan/:clanId/events/:eventId'],
    ['DELETE', '/api/clan/:clanId/tasks/'], ['DELETE', '/api/clan/:clanId/members/:userMemberId'], ['DELETE', '/api/user/igns/:ignId'],
    ['DELETE', '/api/clan/:clanId'],
  ];

  const fill = (template: string, bad?: { param: string; value: string }) =>
    template.replace(/:(\w+)/g, (_, name: string) => (bad && bad.param === name ? bad.value : ids[name]));

  const check = (route: string, what: string, status: number, body: unknown) => {
    const where = `${route} with ${what}`;
    expect(status, `${where} → ${status} ${JSON.stringify(body).slice(0, 200)}`).toBeLessThan(500);
    if (status >= 400) {
      expect(typeof (body as { error?: unknown })?.error, `${where} → ${status} without an error text`).toBe('string');
    }
  };

  /**
   * Every typed-text field in an otherwise valid body, `who` the client that sends it ('owner', or
   * 'fresh' for a new signed-in user not set up, or 'anon' for a new signed-out client).
   */
  const TEXT_ROUTES: { method: string; template: string; who: 'owner' | 'fresh' | 'anon'; body: (t: string) => unknown }[] = [
    { method: 'POST', template: '/api/auth/dev', who: 'anon', body: (t) => ({ username: t }) },
    { method: 'POST', template: '/api/user/setup', who: 'fresh', body: (t) => ({ igns: [t], clan_setup: { role: 'None' } }) },
    { method: 'POST', template: '/api/user/setup', who: 'fresh', body: (t) => ({ igns: ['Fine'], clan_setup: { role: 'Owner', clan_name: t } }) },
    { method: 'POST', template: '/api/user/igns', who: 'owner', body: (t) => ({ ign: t }) },
    { method: 'PUT', template: '/api/user/igns/:ignId', who: 'owner', body: (t) => ({ ign: t }) },
    { method: 'POST', template: '/api/clans', who: 'fresh', body: (t) => ({ clan_name: t }) },
    { method: 'PUT', template: '/api/clan/:clanId/name', who: 'owner', body: (t) => ({ new_name: t }) },
    { method: 'POST', template: '/api/clan/:clanId/events/', who: 'owner', body: (t) => ({ name: t, start_datetime: new Date(Date.now() + 86_400_000).toISOString() }) },
    { method: 'PUT', template: '/api/clan/:clanId/events/:eventId', who: 'owner', body: (t) => ({ name: t, start_datetime: new Date(Date.now() + 86_400_000).toISOString() }) },
    { method: 'POST', template: '/api/clan/:clanId/events/:eventId/teams/', who: 'owner', body: (t) => ({ name: t, color: '#123456' }) },
    { method: 'PUT', template: '/api/clan/:clanId/events/:eventId/teams/:teamId', who: 'owner', body: (t) => ({ name: t, color: '#123456' }) },
    { method: 'POST', template: '/api/clan/:clanId/tasks', who: 'owner', body: (t) => ({ description: t, difficulty: 'EASY' }) },
    { method: 'PUT', template: '/api/clan/:clanId/tasks/:taskId', who: 'owner', body: (t) => ({ description: t, difficulty: 'HARD' }) },
    { method: 'PUT', template: '/api/clan/:clanId/submissions/:submissionId/review', who: 'owner', body: (t) => ({ decision: 'deny', reason: t }) },
    { method: 'POST', template: '/api/clan/:clanId/events/:eventId/signups', who: 'owner', body: (t) => ({ osrs_ign_id: Number(ids.ignId), note: t }) },
  ];

  it('answers control, zero-width and bidi text in every typed-text field below 500, in JSON and CSV', async () => {
    const owner = (globalThis as { fuzzOwner?: ApiClient }).fuzzOwner!;
    let calls = 0;
    let fresh = 0;
    for (const r of TEXT_ROUTES) {
      const route = `${r.method} ${r.template}`;
      for (const text of fc.sample(nastyText, { seed: 9 + calls, numRuns: 30 })) {
        const api = r.who === 'owner' ? owner : r.who === 'anon' ? new ApiClient(server.url) : await new ApiClient(server.url).devLogin(`fuzz-fresh-${++fresh}`);
        const body = r.body(text);
        const res = await api.call(r.method, fill(r.template), body);
        calls++;
        check(route, `text ${JSON.stringify(text)}`, res.status, res.body);
      }
    }
    const cell = (t: string) => `"${t.replace(/"/g, '""')}"`;
    for (const [i, rows] of fc.sample(fc.array(nastyText, { minLength: 1, maxLength: 8 }), { seed: 11, numRuns: 10 }).entries()) {
      const csv = ['description,difficulty', ...rows.map((t, j) => `${cell(`${i}-${j} ${t}`)},${['EASY', 'HARD'][j % 2]}`)].join('\n');
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'fuzz.csv');
      const res = await owner.call('POST', fill('/api/clan/:clanId/tasks/upload_csv'), form);
      calls++;
      check('POST upload_csv', `rows ${JSON.stringify(rows)}`, res.status, res.body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // Score CSVs (docs/server.md §16) naming junk IGNs with junk scores: row errors, never a 5xx.
    for (const [i, rows] of fc.sample(fc.array(fc.tuple(nastyText, fc.oneof(nastyText, fc.double())), { minLength: 1, maxLength: 8 }), { seed: 12, numRuns: 10 }).entries()) {
      const csv = ['ign,score', ...rows.map(([t, n]) => `${cell(`${i} ${t}`)},${cell(String(n))}`)].join('\n');
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'scores.csv');
      const res = await owner.call('POST', fill('/api/clan/:clanId/events/:eventId/signups/scores'), form);
      calls++;
      check('POST signups/scores', `rows ${JSON.stringify(rows)}`, res.status, res.body);
    }
    // The proof upload's note (multipart) and junk in its other fields.
    for (const [i, text] of fc.sample(nastyText, { seed: 13, numRuns: 10 }).entries()) {
      const form = new FormData();
      form.append('team_id', i % 2 ? ids.teamId : text);
      form.append('note', text);
      form.append('image', new Blob([text]), `${text}.png`);
      const res = await owner.call('POST', fill('/api/clan/:clanId/events/:eventId/game/:gameId/submissions'), form);
      calls++;
      check('POST submissions', `note ${JSON.stringify(text)}`, res.status, res.body);
    }
    expect(calls).toBeGreaterThan(300);
    expect(server.output()).not.toMatch(/unexpected error/);
  }, 120_000);

  it('answers a JSON array or a primitive where an object is expected as it answers null (a 4xx with an error), nothing changed', async () => {
    const owner = (globalThis as { fuzzOwner?: ApiClient }).fuzzOwner!;
    // Multipart uploads, and the reset, which reads no body.
    const NOT_JSON = new Set(['/api/clan/:clanId/tasks/upload_csv', `${G}/submissions`, '/api/clan/:clanId/events/:eventId/signups/scores', `${G}/reset`]);
    const jsonRoutes = ROUTES.filter(([method, template]) => (method === 'POST' || method === 'PUT') && !NOT_JSON.has(template));
    expect(jsonRoutes.length).toBeGreaterThan(25);
    const game = async () => (await owner.get(fill(G))).body.game;
    const before = await game();
    for (const [method, template] of jsonRoutes) {
      const asNull = await owner.call(method, fill(template), 'null', { 'content-type': 'application/json' });
      expect(asNull.status, `${method} ${template} with null`).toBeGreaterThanOrEqual(400);
      expect(asNull.status, `${method} ${template} with null`).toBeLessThan(500);
      expect(typeof asNull.body.error, `${method} ${template} with null`).toBe('string');
      for (const text of ['[]', '[{}]', '[{"proof_required": true, "relief_max_per_team": 3}]', '7', '"text"', 'true']) {
        const r = await owner.call(method, fill(template), text, { 'content-type': 'application/json' });
        expect({ status: r.status, body: r.body }, `${method} ${template} with ${text}`).toEqual({ status: asNull.status, body: asNull.body });
      }
    }
    // The rules of a game, the route that took an array as "change nothing" and answered 200.
    const rules = await owner.call('PUT', fill(`${G}/rules`), '[]', { 'content-type': 'application/json' });
    expect(rules).toMatchObject({ status: 400, body: { error: 'Request body must be a JSON object with any of proof_required, relief_after_hours and relief_max_per_team.' } });
    const after = await game();
    expect(typeof before.proof_required).toBe('boolean');
    expect([after.proof_required, after.relief_after_hours, after.relief_max_per_team]).toEqual([before.proof_required, before.relief_after_hours, before.relief_max_per_team]);
  }, 120_000);

  it('answers every junk body, non-JSON text and bad id with a 4xx error, never a 5xx', async () => {
    const owner = (globalThis as { fuzzOwner?: ApiClient }).fuzzOwner!;
    let calls = 0;
    for (const [method, template] of ROUTES) {
      const route = `${method} ${template}`;
      const bodies = fc.sample(junkBody, { seed: 42 + calls, numRuns: method === 'GET' ? 2 : 25 });
      for (const body of bodies) {
        const r = await owner.call(method, fill(template), method === 'GET' ? undefined : body);
        calls++;
        check(route, `body ${JSON.stringify(body).slice(0, 120)}`, r.status, r.body);
      }
      if (method !== 'GET') {
        for (const text of fc.sample(junkText, { seed: 7, numRuns: 3 })) {
          const r = await owner.call(method, fill(template), text, { 'content-type': 'application/json' });
          calls++;
          check(route, `text ${JSON.stringify(text)}`, r.status, r.body);
        }
      }
      for (const param of template.match(/:(\w+)/g)?.map((p) => p.slice(1)) ?? []) {
        for (const value of BAD_IDS) {
          const r = await owner.call(method, fill(template, { param, value }), method === 'GET' ? undefined : {});
          calls++;
          check(route, `${param}=${value}`, r.status, r.body);
        }
      }
    }
    expect(calls).toBeGreaterThan(1000);
    expect(server.output()).not.toMatch(/unexpected error/);
  }, 240_000);
});
