/**
 * The game cache and the weight of what HTTP answers, over real HTTP against the real server, on SQLite
 * and (with TEST_DATABASE_URL) PostgreSQL:
 * - after each kind of change (roll, revert, status, board change, task swap, reset, team rename,
 *   proof submission and review) the public game and the members' game answer the new state,
 *   checked against the database itself;
 * - both game routes carry an ETag and answer 304 to a matching If-None-Match, a new ETag after a
 *   change; the public game goes out brotli or gzip compressed when accepted;
 * - built assets: brotli/gzip by Accept-Encoding with the same bytes as the build,
 *   `public, max-age=31536000, immutable`; index.html `no-cache` (needs `npx vite build`);
 * - with TEST_REDIS_URL and TEST_DATABASE_URL, two processes: a change made through one is what
 *   the other serves within 1 s (polled, no fixed sleep).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import sharp from 'sharp';
import { backends } from '../support/server';
import { useServerSuite, useTwoProcesses } from '../support/suite';
import { ApiClient } from '../support/api';
import { directSql } from '../support/fixtures';
import { castOf, newGame, noReverts, watchersOf, type Cast, type TestGame, type Watcher } from '../support/liveSocket';
import { REPO_ROOT } from '../support/e2e';
import type { Game, PublicGame } from '../../contract/gameApi';

const TIERS = ['EASY', 'MEDIUM', 'HARD', 'ELITE', 'MASTER'];
/** These suites roll as fast as they like (the limits of docs/server.md §8 are tested elsewhere). */
const FAST = { ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000', JOINS_PER_SOCKET: '1000', JOINS_PER_ADDRESS: '1000' };
/**
 * The suites here trust the cache for a minute without asking the database (the test servers
 * otherwise ask on every read), so only the invalidations of each change can make them pass.
 */
const TRUST_CACHE = { GAME_CACHE_CHECK_MS: '60000' };

/** One raw HTTP answer: status, headers and the body bytes as sent (not decompressed). */
interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** GET `url` with exactly `headers` (node:http, so nothing is added or decoded). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** The body of `raw` decoded by its Content-Encoding. */
function decoded(raw: Raw): Buffer {
  const enc = raw.headers['content-encoding'];
  if (enc === 'br') return zlib.brotliDecompressSync(raw.body);
  if (enc === 'gzip') return zlib.gunzipSync(raw.body);
  return raw.body;
}

/** Fills the clan's pool with 60 tasks a tier, so every task square gets one (swaps need tasks). */
async function fillPool(owner: ApiClient, clanId: number): Promise<void> {
  const rows = ['description,difficulty', ...TIERS.flatMap((t) => Array.from({ length: 60 }, (_, i) => `${t} cache task ${i + 1},${t}`))];
  const form = new FormData();
  form.append('file', new Blob([rows.join('\n')], { type: 'text/csv' }), 'pool.csv');
  const r = await owner.call('POST', `/api/clan/${clanId}/tasks/upload_csv`, form);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** The database's own view of a game: version, status, team rows, square tasks. */
async function truthOf(env: Record<string, string>, gameId: number) {
  const [game] = await directSql(env, 'SELECT version, status FROM games WHERE id = ?', [gameId]);
  const teams = await directSql(
    env,
    'SELECT ts.team_id, t.name, ts.current_position, ts.task_state FROM team_states ts JOIN teams t ON t.id = ts.team_id WHERE ts.game_id = ? ORDER BY ts.team_id',
    [gameId],
  );
  const squares = await directSql(env, 'SELECT square_index, task_description FROM board_squares WHERE game_id = ? ORDER BY square_index', [gameId]);
  return {
    version: Number(game.version),
    status: game.status as string,
    teams: teams.map((t: any) => [Number(t.team_id), t.name, Number(t.current_position), t.task_state]),
    squares: squares.map((s: any) => [Number(s.square_index), s.task_description]),
  };
}

/** The same fields of a served game. */
const servedOf = (g: Game | PublicGame) => ({
  version: g.version,
  status: g.status,
  teams: g.team_states.map((t) => [t.team_id, t.team_name, t.current_position, t.task_state]),
  squares: g.board_squares.map((s) => [s.square_index, s.task_description]),
});

describe.each(backends())('game cache and HTTP weight (%s)', (backend) => {
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-cache-'));
  const suite = useServerSuite(backend, { ...FAST, ...TRUST_CACHE, UPLOAD_DIR: uploads });
  let cast: Cast;
  let admin: ApiClient;
  const { open, watcher } = watchersOf(() => suite.url);

  beforeAll(async () => {
    cast = await castOf(suite.url, `cache-${backend}`);
    await fillPool(cast.owner, cast.clanId);
    admin = new ApiClient(suite.url);
    const adminId = (await admin.onboard(`cache-admin-${backend}`, ['CacheRef'], { role: 'Member', clan_id: cast.clanId })).id;
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/members/${adminId}/role`, { role: 'Admin' })).status).toBe(200);
  });

  afterAll(() => {
    for (const w of open) w.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  /** The public game as served now, with its ETag. */
  async function publicNow(game: TestGame): Promise<{ game: PublicGame; etag: string }> {
    const r = await rawGet(`${suite.url}/api/public/game/${game.gameId}`);
    expect(r.status).toBe(200);
    return { game: JSON.parse(r.body.toString('utf8')).game as PublicGame, etag: String(r.headers.etag) };
  }

  /** Both shapes served now equal the database (the members' one also has its revert counts and user_teams). */
  async function expectServedCurrent(game: TestGame, what: string): Promise<void> {
    const truth = await truthOf(suite.env, game.gameId);
    const pub = (await publicNow(game)).game;
    expect(servedOf(pub), `${what}: public`).toEqual(truth);
    expect(pub, what).not.toHaveProperty('user_teams');
    const members = await cast.owner.get(game.path);
    expect(members.status).toBe(200);
    expect(servedOf(members.body.game), `${what}: members`).toEqual(truth);
    expect(members.body.game.user_teams.length, what).toBeGreaterThan(0);
  }

  /** Sends `kind` from `w` and waits for the progress it caused. */
  async function act(w: Watcher, kind: 'roll_dice' | 'revert_roll', game: TestGame, teamId: number, ign: number): Promise<Game> {
    const mark = w.got.length;
    const version = w.held?.version ?? 0;
    w.socket.emit(kind, { game_id: game.gameId, team_id: teamId, performer_ign_id: ign });
    const r = await w.next((x) => x.event === 'action_error' || (x.event === 'game_state_update' && x.payload.game_state.version > version), 5000, mark);
    expect(r.event, JSON.stringify(r.payload)).toBe('game_state_update');
    return (r.payload as { game_state: Game }).game_state;
  }

  it('serves the new state after every kind of change: roll, revert, status, board, task swap, team rename, reset', async () => {
    const game = await newGame(cast);
    const leader = await watcher('leader', cast.owner);
    await leader.join(game.gameId);
    await expectServedCurrent(game, 'start');

    const rolled = await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA);
    const afterRoll = await publicNow(game);
    expect(afterRoll.game.version).toBe(rolled.version);
    expect(noReverts(afterRoll.game.team_states)).toEqual(noReverts(rolled.team_states));
    await expectServedCurrent(game, 'roll');

    await act(leader, 'revert_roll', game, game.team1, cast.ign.ownerA);
    await expectServedCurrent(game, 'revert');

    expect((await cast.owner.put(`${game.path}/status`, { status: 'paused' })).status).toBe(200);
    await expectServedCurrent(game, 'status');
    expect((await publicNow(game)).game.status).toBe('paused');

    const board = await cast.owner.put(`${game.path}/board`, { snakes_config: [[100, 50]], ladders_config: [[10, 60]] });
    expect(board.status, JSON.stringify(board.body)).toBe(200);
    await expectServedCurrent(game, 'board');
    expect((await publicNow(game)).game.board_connections.map((c) => [c.start, c.end]).sort()).toEqual([[10, 60], [100, 50]].sort());

    const squares = (await publicNow(game)).game.board_squares.filter((s) => s.task_difficulty === 'EASY' && s.task_id !== null);
    const [a, b] = squares;
    const swap = await cast.owner.post(`${game.path}/tasks/swap`, { square1_id: a.id, square2_id: b.id });
    expect(swap.status, JSON.stringify(swap.body)).toBe(200);
    await expectServedCurrent(game, 'swap');
    const swapped = (await publicNow(game)).game.board_squares;
    expect(swapped.find((s) => s.id === a.id)!.task_description).toBe(b.task_description);

    // A rename does not bump the version: the cache is dropped by the broadcast of the change.
    const rename = await cast.owner.put(`/api/clan/${cast.clanId}/events/${game.eventId}/teams/${game.team2}`, { name: 'Renamed Team', color: '#00aa00' });
    expect(rename.status, JSON.stringify(rename.body)).toBe(200);
    await expectServedCurrent(game, 'team rename');
    expect((await publicNow(game)).game.team_states.map((t) => t.team_name)).toContain('Renamed Team');

    expect((await cast.owner.put(`${game.path}/reset`)).status).toBe(200);
    await expectServedCurrent(game, 'reset');
    expect((await publicNow(game)).game.team_states.every((t) => t.current_position === 1)).toBe(true);
  });

  it('serves the task state after a proof is sent and after its review', async () => {
    const game = await newGame(cast, { proof: true });
    const leader = await watcher('proof-leader', cast.owner);
    await leader.join(game.gameId);
    await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA);
    await expectServedCurrent(game, 'roll with proof');
    const form = new FormData();
    form.append('team_id', String(game.team1));
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c83232' } }).png().toBuffer();
    form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'proof.png');
    const sent = await cast.owner.call('POST', `${game.path}/submissions`, form);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    await expectServedCurrent(game, 'proof sent');
    expect((await publicNow(game)).game.team_states.find((t) => t.team_id === game.team1)!.task_state).toBe('submitted');
    const approved = await admin.put(`/api/clan/${cast.clanId}/submissions/${sent.body.submission.id}/review`, { decision: 'approve' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    await expectServedCurrent(game, 'proof approved');
    expect((await publicNow(game)).game.team_states.find((t) => t.team_id === game.team1)!.task_state).toBe('approved');
  });

  it('ETag and 304 on both game routes; a new ETag after a change; the public game compressed when accepted', async () => {
    const game = await newGame(cast);
    const url = `${suite.url}/api/public/game/${game.gameId}`;
    const first = await rawGet(url);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    const again = await rawGet(url, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);

    for (const enc of ['br', 'gzip'] as const) {
      const r = await rawGet(url, { 'accept-encoding': enc === 'br' ? 'gzip, deflate, br' : 'gzip' });
      expect(r.status).toBe(200);
      expect(r.headers['content-encoding']).toBe(enc);
      expect(r.headers.vary).toMatch(/Accept-Encoding/i);
      expect(r.body.length).toBeLessThan(first.body.length / 3);
      expect(decoded(r).equals(first.body)).toBe(true);
    }

    const members = await cast.owner.call('GET', game.path);
    const membersTag = members.headers.get('etag')!;
    expect(membersTag).toMatch(/^"[^"]+"$/);
    expect((await cast.owner.call('GET', game.path, undefined, { 'if-none-match': membersTag })).status).toBe(304);
    // Another member's user_teams differ, so their ETag does too.
    const other = await cast.member.call('GET', game.path);
    expect(other.headers.get('etag')).not.toBe(membersTag);

    expect((await cast.owner.put(`${game.path}/status`, { status: 'paused' })).status).toBe(200);
    const changed = await rawGet(url, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(JSON.parse(changed.body.toString('utf8')).game.status).toBe('paused');
    expect((await cast.owner.call('GET', game.path, undefined, { 'if-none-match': membersTag })).status).toBe(200);
  });

  it('every answer of the public game (200 plain and compressed, 304, 400, 404) carries the security headers of any API answer; its CSP is the same without the style nonce', async () => {
    const game = await newGame(cast);
    const url = `${suite.url}/api/public/game/${game.gameId}`;
    // An answer made by the whole middleware chain (securityHeaders with its per-answer nonce).
    const chain = await rawGet(`${suite.url}/api/games/spectate`);
    expect(chain.status).toBe(200);
    const perAnswer = new Set(['date', 'connection', 'keep-alive', 'content-type', 'content-length', 'content-encoding', 'etag', 'vary', 'cache-control', 'content-security-policy', 'transfer-encoding', 'x-request-id']);
    const security = (h: http.IncomingHttpHeaders) => Object.fromEntries(Object.entries(h).filter(([k]) => !perAnswer.has(k)).sort(([a], [b]) => a.localeCompare(b)));
    const chainCsp = String(chain.headers['content-security-policy']);
    expect(chainCsp).toMatch(/ 'nonce-[A-Za-z0-9+/]{22}=='/);
    const jsonCsp = chainCsp.replace(/ 'nonce-[A-Za-z0-9+/]{22}=='/, '');
    expect(security(chain.headers)).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'strict-origin-when-cross-origin', 'x-frame-options': 'DENY' });

    const first = await rawGet(url);
    const answers: [string, number, Raw][] = [
      ['200', 200, first],
      ['200 again (from memory)', 200, await rawGet(url)],
      ['200 brotli', 200, await rawGet(url, { 'accept-encoding': 'br' })],
      ['200 gzip', 200, await rawGet(url, { 'accept-encoding': 'gzip' })],
      ['304', 304, await rawGet(url, { 'if-none-match': String(first.headers.etag) })],
      ['400', 400, await rawGet(`${suite.url}/api/public/game/abc`)],
      ['404', 404, await rawGet(`${suite.url}/api/public/game/999999`)],
    ];
    for (const [what, status, r] of answers) {
      expect(r.status, what).toBe(status);
      expect(security(r.headers), what).toEqual(security(chain.headers));
      // A body of known size goes out with its Content-Length, not chunked.
      if (status === 200) {
        expect(r.headers['content-length'], what).toBe(String(r.body.length));
        expect(r.headers['transfer-encoding'], what).toBeUndefined();
      }
      expect(r.headers['x-request-id'], what).toMatch(/^[0-9a-f-]{36}$/);
      if (status < 400) expect(r.headers['content-security-policy'], what).toBe(jsonCsp);
      else expect(r.headers['content-security-policy'], what).toMatch(/ 'nonce-[A-Za-z0-9+/]{22}=='/);
    }
  });

  it('a deleted game is gone from both routes at once', async () => {
    const game = await newGame(cast);
    expect((await publicNow(game)).game.id).toBe(game.gameId);
    expect((await cast.owner.del(game.path)).status).toBe(200);
    expect((await rawGet(`${suite.url}/api/public/game/${game.gameId}`)).status).toBe(404);
    expect((await cast.owner.get(game.path)).status).toBe(404);
  });
});

describe('built assets: compressed, cached for a year; index.html revalidated', () => {
  const suite = useServerSuite('sqlite');
  const dist = path.join(REPO_ROOT, 'dist');

  it('serves each hashed asset brotli, gzip or plain by Accept-Encoding, the same bytes as the build, immutable', async () => {
    const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css'))).toBe(true);
    // The main chunk and the styles are well over 1 KiB: compressed below.
    expect(assets.filter((a) => fs.statSync(path.join(dist, a)).size >= 1024).length).toBeGreaterThanOrEqual(2);
    for (const a of assets) {
      const bytes = fs.readFileSync(path.join(dist, a));
      // The build compresses what is 1 KiB or more (vite.config.ts precompress); a smaller chunk,
      // such as the bundler's runtime, goes out as it is.
      const compressed = bytes.length >= 1024;
      for (const [accept, enc] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip'], ['', undefined]] as const) {
        const r = await rawGet(suite.url + a, accept ? { 'accept-encoding': accept } : {});
        expect(r.status, a).toBe(200);
        expect(r.headers['content-encoding'], `${a} ${accept}`).toBe(compressed ? enc : undefined);
        expect(r.headers['cache-control'], a).toBe('public, max-age=31536000, immutable');
        expect(decoded(r).equals(bytes), `${a} ${accept}`).toBe(true);
        if (enc && compressed) expect(r.body.length, a).toBeLessThan(bytes.length / 2);
      }
    }
    for (const p of ['/', '/index.html', '/games/spectate/1']) {
      const r = await rawGet(suite.url + p);
      expect(r.status, p).toBe(200);
      expect(r.headers['cache-control'], p).toBe('no-cache');
    }
    expect((await rawGet(`${suite.url}/assets/missing-abc.js`)).headers['cache-control']).not.toMatch(/immutable/);
    // The build manifest the server reads for its preload links is not served.
    expect(fs.existsSync(path.join(dist, '.vite', 'manifest.json'))).toBe(true);
    const manifest = await rawGet(`${suite.url}/.vite/manifest.json`);
    expect(manifest.status).toBe(404);
    expect(JSON.parse(decoded(manifest).toString('utf8'))).toEqual({ error: 'Not found.' });
  });
});

describe('two server processes sharing PostgreSQL and Redis: the game cache', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!redisUrl || !databaseUrl) {
    it.skip('skipped: set TEST_REDIS_URL and TEST_DATABASE_URL to run it', () => {});
    return;
  }
  const site = useTwoProcesses(redisUrl, { ...FAST, ...TRUST_CACHE });

  /** Polls `read` until `ok` holds; answers the milliseconds it took, or fails after 1 s. */
  async function within1s<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<number> {
    const t0 = performance.now();
    for (;;) {
      const value = await read();
      if (ok(value)) return performance.now() - t0;
      if (performance.now() - t0 > 1000) throw new Error(`not served within 1 s: ${JSON.stringify(value).slice(0, 300)}`);
    }
  }

  it('a change made on one process is what the other serves within 1 s (status, team rename, the members route)', async () => {
    const { a, b } = site;
    const cast = await castOf(a.url, 'cache-two');
    const game = await newGame(cast);
    const onB = async () => JSON.parse((await rawGet(`${b.url}/api/public/game/${game.gameId}`)).body.toString('utf8')).game as PublicGame;
    expect((await onB()).status).toBe('in-progress'); // cached on b now

    expect((await cast.owner.put(`${game.path}/status`, { status: 'paused' })).status).toBe(200);
    expect(await within1s(onB, (g) => g.status === 'paused')).toBeLessThan(1000);

    const rename = await cast.owner.put(`/api/clan/${cast.clanId}/events/${game.eventId}/teams/${game.team1}`, { name: 'Far Renamed', color: '#123456' });
    expect(rename.status, JSON.stringify(rename.body)).toBe(200);
    expect(await within1s(onB, (g) => g.team_states.some((t) => t.team_name === 'Far Renamed'))).toBeLessThan(1000);

    // And the members' route on b, for a member whose session lives in the shared database.
    const bOwner = new ApiClient(b.url);
    bOwner.cookies = cast.owner.cookies;
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    expect(await within1s(async () => (await bOwner.get(game.path)).body.game as Game, (g) => g.status === 'in-progress')).toBeLessThan(1000);
  });
});
