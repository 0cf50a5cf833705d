/**
 * The API document (docs/server.md §14) against the real server, on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL:
 * - GET /api/openapi.json is a valid OpenAPI 3.1 document (@readme/openapi-parser);
 * - it is generated from the app's own routes, so it holds every route the app registers (Hono's
 *   app.routes; the SPA fallback and static files apart) and no route the app lacks: a route that
 *   does not describe itself (server/http/route.ts) fails here;
 * - its schemas accept the real answers of the running server to a live game's calls (checked
 *   with Ajv's JSON Schema 2020-12 validator, which @readme/openapi-parser brings, against the
 *   document's own schemas, and with the contract schemas they were generated from), and its
 *   schemas are the conversion of those contract schemas;
 * - GET /api/docs is an HTML page whose viewer files, all served by this site, answer 200, with
 *   no inline script.
 */
import fs from 'node:fs';
import os from 'node:os';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { validate } from '@readme/openapi-parser';
import { toJsonSchema } from '@valibot/to-json-schema';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import type { ApiClient } from '../support/api';
import { SAMPLE_TASKS_CSV } from '../support/e2e';
import { castOf, connect, newGame, type Cast, type TestGame } from '../support/liveSocket';
import { createApp } from '../../server/app';
import { ROUTE_MODULES } from '../../server/modules';
import { loadConfig } from '../../server/config';
import type { Deps } from '../../server/http/context';
import { apiDocument } from '../../server/openapi/document';
import { namedAnswer } from '../../server/http/route';
import * as v from 'valibot';
import { GameSchema, PublicGameSchema } from '../../contract/gameApi';
import { AuthStatusSchema, UserSchema } from '../../contract/user';

/** What the document is, as far as these tests read it. */
interface Doc {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
  components: { schemas: Record<string, object> };
}

/** The app as the server builds it; building it reads only the configuration, and no route runs here. */
const testApp = () => createApp({ config: loadConfig({ CLIENT_DIR: os.tmpdir() }) } as Deps, ROUTE_MODULES);

/** The app's own routes as `METHOD /path/{param}`: middleware (ALL), the SPA fallback and the static files left out. */
function appRoutes(app = testApp()): Set<string> {
  const out = new Set<string>();
  for (const r of app.routes) {
    if (r.method === 'ALL' || r.path.endsWith('*') || r.path === '/' || r.path === '/index.html') continue;
    out.add(`${r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
  }
  return out;
}

/** The `METHOD /path` of each operation of a document. */
const operationsOf = (doc: Pick<Doc, 'paths'>) => Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));

describe('the routes describe themselves (docs/server.md §14)', () => {
  it("the document generated from the app lists every route of the app, and none the app lacks", async () => {
    const app = testApp();
    const documented = new Set(operationsOf((await apiDocument(app)) as unknown as Doc));
    const registered = appRoutes(app);
    expect([...registered].filter((r) => !documented.has(r)), 'routes of the app missing from the document').toEqual([]);
    expect([...documented].filter((r) => !registered.has(r)), 'documented routes the app lacks').toEqual([]);
  });
});

describe.each(backends())('API document (%s)', (backend) => {
  const suite = useServerSuite(backend);
  let doc: Doc;
  let ajv: Ajv2020;
  let cast: Cast;
  let game: TestGame;

  /** The document's JSON schema of `method path` answering `status` (path as the document writes it). */
  function answerSchema(method: string, path: string, status = '200'): object {
    const schema = doc.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`no JSON answer for ${method.toUpperCase()} ${path} ${status} in the document`);
    return schema;
  }

  /** `schema` with its references into the document, compiled once under the id `doc` (see beforeAll). */
  const inDoc = (schema: object): object => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));

  /** Calls GET `url` as `who` and checks the answer against the document's schema of `path`; the body. */
  async function checkGet(who: ApiClient, path: string, url: string): Promise<unknown> {
    const r = await who.get(url);
    expect({ url, status: r.status }).toEqual({ url, status: 200 });
    const check = ajv.compile(inDoc(answerSchema('get', path)));
    expect({ url, errors: check(r.body) ? null : check.errors }).toEqual({ url, errors: null });
    // The contract schema the document was generated from accepts it as well.
    const ref = (answerSchema('get', path) as { $ref?: string }).$ref;
    const contract = ref ? namedAnswer(ref.slice('#/components/schemas/'.length)) : undefined;
    if (contract) expect({ url, issues: v.safeParse(contract, r.body).issues ?? null }).toEqual({ url, issues: null });
    return r.body;
  }

  beforeAll(async () => {
    // The routes name their answers' contract schemas as they are built (namedAnswer reads them).
    testApp();
    const r = await fetch(`${suite.url}/api/openapi.json`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    doc = (await r.json()) as Doc;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: doc.components });

    // A live game with tasks, teams, a roll and Discord settings, so the answers carry real data.
    cast = await castOf(suite.url, `doc-${backend}`);
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(SAMPLE_TASKS_CSV)], { type: 'text/csv' }), 'osrs-tasks.csv');
    expect((await cast.owner.call('POST', `/api/clan/${cast.clanId}/tasks/upload_csv`, form)).status).toBe(200);
    game = await newGame(cast);
    const leader = await connect(suite.url, 'leader', cast.owner);
    try {
      await leader.join(game.gameId);
      const since = leader.got.length;
      leader.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
      await leader.next((x) => x.event === 'new_log_entry', 10_000, since);
    } finally {
      leader.close();
    }
    const discord = await cast.owner.put(`/api/clan/${cast.clanId}/events/${game.eventId}/discord`, {
      webhook_url: 'https://discord.com/api/webhooks/123456789/doc-test-token',
      announce: { status: false, rolls: false, reviews: false, results: false },
    });
    expect(discord.status, JSON.stringify(discord.body)).toBe(200);
  });

  it("holds every route of the server's app as a path and method", () => {
    expect(operationsOf(doc).sort()).toEqual([...appRoutes()].sort());
  });

  it("its schemas are the contract's schemas, converted", () => {
    for (const [name, schema] of [['Game', GameSchema], ['PublicGame', PublicGameSchema], ['User', UserSchema], ['AuthStatus', AuthStatusSchema]] as const) {
      const { $schema: _dialect, ...converted } = toJsonSchema(schema, { target: 'draft-2020-12', typeMode: 'output', errorMode: 'ignore' }) as Record<string, unknown>;
      expect({ name, schema: doc.components.schemas[name] }).toEqual({ name, schema: converted });
    }
    expect(answerSchema('get', '/api/clan/{clanId}/events/{eventId}/game/{gameId}')).toEqual({ $ref: '#/components/schemas/GameAnswer' });
  });

  it('accepts the real answers of the running server', async () => {
    const { owner, clanId } = cast;
    const c = `/api/clan/${clanId}`;
    const e = `${c}/events/${game.eventId}`;
    const g = `${e}/game/${game.gameId}`;
    const C = '/api/clan/{clanId}';
    const E = `${C}/events/{eventId}`;
    const G = `${E}/game/{gameId}`;
    await checkGet(suite.client(), '/api/games/auth/status', '/api/games/auth/status');
    await checkGet(owner, '/api/games/auth/status', '/api/games/auth/status');
    await checkGet(owner, '/api/user/me', '/api/user/me');
    await checkGet(owner, '/api/clans', '/api/clans');
    await checkGet(owner, `${C}/members`, `${c}/members`);
    await checkGet(owner, `${C}/available_members`, `${c}/available_members`);
    await checkGet(owner, `${C}/events`, `${c}/events/`);
    await checkGet(owner, `${E}/teams`, `${e}/teams/`);
    await checkGet(owner, `${E}/teams/{teamId}/members`, `${e}/teams/${game.team1}/members`);
    const tasks = (await checkGet(owner, `${C}/tasks`, `${c}/tasks/`)) as { tasks: unknown[] };
    expect(tasks.tasks.length).toBeGreaterThan(0);
    await checkGet(owner, '/api/tasks', '/api/tasks/?limit=20&q=kill');
    const played = (await checkGet(owner, G, g)) as { game: { log_entries: unknown[] } };
    expect(played.game.log_entries.length).toBeGreaterThan(1);
    const squares = (await checkGet(owner, `${G}/tasks`, `${g}/tasks`)) as { squares: { id: number; task_id: number | null }[] };
    const taskSquare = squares.squares.find((s) => s.task_id !== null)!;
    await checkGet(owner, `${G}/tasks/{squareId}/available`, `${g}/tasks/${taskSquare.id}/available`);
    await checkGet(owner, '/api/games', '/api/games');
    await checkGet(owner, `${C}/games/live`, `${c}/games/live`);
    await checkGet(suite.client(), '/api/games/spectate', '/api/games/spectate');
    await checkGet(suite.client(), '/api/public/game/{gameId}', `/api/public/game/${game.gameId}`);
    await checkGet(suite.client(), '/api/public/game/{gameId}/history', `/api/public/game/${game.gameId}/history`);
    await checkGet(owner, `${G}/submissions`, `${g}/submissions`);
    await checkGet(owner, `${C}/submissions`, `${c}/submissions?status=pending`);
    const discord = (await checkGet(owner, `${E}/discord`, `${e}/discord`)) as { discord: unknown };
    expect(discord.discord).not.toBeNull();
    for (const root of ['/healthz', '/readyz']) {
      const r = await suite.client().get(root);
      // Where the health routes are served (else the client's page fallback answers), their JSON must fit too.
      if (!r.headers.get('content-type')?.startsWith('application/json')) continue;
      const check = ajv.compile(inDoc(answerSchema('get', root, String(r.status))));
      expect({ root, errors: check(r.body) ? null : check.errors }).toEqual({ root, errors: null });
    }
  });

  it('GET /api/docs is an HTML page whose viewer files all come from this site and answer 200; no inline script', async () => {
    const page = await fetch(`${suite.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<div id="swagger-ui"></div>');
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter(([, attrs, body]) => !/\ssrc="/.test(attrs) || body.trim() !== '')).toEqual([]);
    const files = [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map(([, url]) => url);
    expect(files.every((f) => f.startsWith('/api/docs/'))).toBe(true);
    const answers = await Promise.all(files.map(async (f) => {
      const r = await fetch(suite.url + f);
      return { f, status: r.status, type: r.headers.get('content-type'), size: (await r.arrayBuffer()).byteLength > 0 };
    }));
    expect(answers.map(({ f, status, size }) => ({ f, status, size }))).toEqual(files.map((f) => ({ f, status: 200, size: true })));
    expect(answers.find((a) => a.f.endsWith('swagger-ui-bundle.js'))?.type).toMatch(/javascript/);
    expect(answers.find((a) => a.f.endsWith('.css'))?.type).toMatch(/^text\/css/);
    const init = await (await fetch(`${suite.url}/api/docs/docs-init.js`)).text();
    expect(init).toContain('/api/openapi.json');
    expect((await fetch(`${suite.url}/api/docs/package.json`)).status).toBe(404);
    // The viewer is loaded by that page only: the app's own page does not carry it.
    const app = await fetch(`${suite.url}/`);
    if (app.status === 200) expect(await app.text()).not.toContain('swagger-ui');
  });

  // Last: the validation keeps this process busy for seconds, long enough for the server to drop
  // idle keep-alive connections the client would still try to reuse.
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.specification).toBe('OpenAPI');
  });
});
