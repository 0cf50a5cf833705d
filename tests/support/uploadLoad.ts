import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { ApiClient } from './api';
import { directSql as sql } from './sql';
import { autoSplit, countsToSettings } from '../../contract/game';

// A load of large Dink posts that all decode (docs/server.md §8, §13), written once for the upload
// gate's API test (tests/server/upload-gate.api.test.ts) and its benchmark (bench/uploads.bench.ts).
// Nothing here imports vitest, so the benchmark can use it.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A game of `players` teams, each on a task square with a LOOT rule that its player's posts satisfy. */
export interface DinkLoad {
  /** The Dink receiver URL of the game's event. */
  dinkUrl: string;
  /** The IGN of each team's one player, in team order. */
  players: string[];
  /** Another user of the clan (a Member on no team) and a call of theirs to time: the game's REST read. */
  other: ApiClient;
  gamePath: string;
  /** The managers' list of the event's recent posts (read with `owner`). */
  recentPath: string;
  owner: ApiClient;
}


/** Throws with `what` unless the answer is 200; its body otherwise. */
function ok(r: { status: number; body: any }, what: string): any {
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The clan of a load: its owner (with the players' IGNs, ids by IGN) and a plain member. */
interface LoadClan {
  clanId: number;
  owner: ApiClient;
  ignIds: Map<string, number>;
  other: ApiClient;
}

/** One clan per server and tag: made once (owner, `maxPlayers` IGNs, a plain member, a pool of 50 tasks). */
const clans = new Map<string, Promise<LoadClan>>();
function clanOf(url: string, tag: string, maxPlayers: number): Promise<LoadClan> {
  const key = `${url} ${tag}`;
  let clan = clans.get(key);
  if (!clan) {
    clan = (async () => {
      const owner = new ApiClient(url);
      const igns = Array.from({ length: maxPlayers }, (_, i) => `Player ${i + 1}`);
      // Onboarding takes at most 20 IGNs; the rest are linked one by one.
      const me = await owner.onboard(`up-owner-${tag}`, igns.slice(0, 20), { role: 'Owner', clan_name: `Upload Clan ${tag}` });
      const clanId = me.clan_memberships_list[0].clan_id as number;
      for (const ign of igns.slice(20)) me.igns.push(ok(await owner.post('/api/user/igns', { ign }), 'IGN').ign);
      const other = new ApiClient(url);
      await other.onboard(`up-member-${tag}`, ['Onlooker'], { role: 'Member', clan_id: clanId });
      const rows = ['description,difficulty', ...['EASY', 'MEDIUM', 'HARD', 'ELITE', 'MASTER'].flatMap((t) => Array.from({ length: 10 }, (_, i) => `${t} upload task ${i + 1},${t}`))];
      const pool = new FormData();
      pool.append('file', new Blob([rows.join('\n')], { type: 'text/csv' }), 'pool.csv');
      ok(await owner.call('POST', `/api/clan/${clanId}/tasks/upload_csv`, pool), 'task pool');
      const ignIds = new Map<string, number>(me.igns.map((i: { ign: string; id: number }) => [i.ign, i.id]));
      return { clanId, owner, ignIds, other };
    })();
    clans.set(key, clan);
  }
  return clan;
}

/**
 * Seeds (once per server and `tag`) a clan whose owner holds the IGNs 'Player 1'…'Player
 * {maxPlayers}' and a plain member; then a new event whose `players` teams each have one of those
 * IGNs as Leader, a started 25-square proof game and its Dink link; by direct SQL on `dbEnv`, every
 * team moved onto the first task square (state open since 2000), whose task gets the rule LOOT
 * 'Dragon warhammer' through the task API. Every post of postDink by a different player then
 * counts, so the server decodes each screenshot (a second post by the same player finds the
 * square submitted). A new event each time: a fresh Dink link, whose rate limit is 60 posts a minute.
 */
export async function seedDinkLoad(url: string, dbEnv: Record<string, string>, tag: string, players: number, maxPlayers = players): Promise<DinkLoad> {
  const { clanId, owner, ignIds, other } = await clanOf(url, tag, maxPlayers);
  const eventId = ok(await owner.post(`/api/clan/${clanId}/events/`, { name: `Uploads ${tag} ${crypto.randomBytes(3).toString('hex')}`, start_datetime: '2031-06-01T18:00Z' }), 'event').event.id as number;
  const names = Array.from({ length: players }, (_, i) => `Player ${i + 1}`);
  for (const [i, ign] of names.entries()) {
    const team = ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name: `Team ${i + 1}`, color: '#aa0000' }), 'team').team.id as number;
    ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/${team}/members`, { osrs_ign_id: ignIds.get(ign), role: 'Leader' }), 'team member');
  }
  const size = 25;
  const game = ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/game/`, {
    board_size: size, num_snakes: 0, num_ladders: 0, max_reverts_allowed: 3, ...countsToSettings(autoSplit(size)), proof_required: true,
  }), 'game').game;
  const gamePath = `/api/clan/${clanId}/events/${eventId}/game/${game.id}`;
  ok(await owner.put(`${gamePath}/status`, { status: 'in-progress' }), 'start');
  const link = ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/dink`), 'dink link').dink;
  const [square] = await sql(dbEnv, 'SELECT square_index, task_id FROM board_squares WHERE game_id = ? AND task_id IS NOT NULL ORDER BY square_index LIMIT 1', [game.id]);
  await sql(dbEnv, "UPDATE team_states SET current_position = ?, task_state = 'open', square_since = ? WHERE game_id = ?", [square.square_index, '2000-01-01T00:00:00.000Z', game.id]);
  const [task] = await sql(dbEnv, 'SELECT description, difficulty FROM tasks WHERE id = ?', [square.task_id]);
  ok(await owner.put(`/api/clan/${clanId}/tasks/${square.task_id}`, { description: task.description, difficulty: task.difficulty, auto_rule: { type: 'LOOT', names: ['Dragon warhammer'], min: 1 } }), 'rule');
  return {
    dinkUrl: (link.url as string).replace(/^https?:\/\/[^/]+/, url),
    players: names,
    other,
    gamePath,
    recentPath: `/api/clan/${clanId}/events/${eventId}/dink/recent`,
    owner,
  };
}

/**
 * A PNG of random pixels (so it does not compress) of at most `maxBytes` bytes and at least 99 % of
 * it, stored without compression: sharp decodes and re-encodes it like any screenshot.
 */
export async function noisePng(maxBytes: number): Promise<Buffer> {
  const width = 1920;
  // Each row is 3 bytes a pixel plus its filter byte; the stored deflate blocks and chunks add ~0.1 %.
  const height = Math.floor((maxBytes * 0.998) / (width * 3 + 1));
  const png = await sharp(crypto.randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
  if (png.length > maxBytes || png.length < maxBytes * 0.99) throw new Error(`noisePng: ${png.length} bytes for at most ${maxBytes}`);
  return png;
}

/** The LOOT post of the recorded fixture by `player`, made unique by its content line. */
function lootPost(player: string): string {
  const payload = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/fixtures/dink/loot.json'), 'utf8'));
  return JSON.stringify({ ...payload, playerName: player, content: `${payload.content} #${crypto.randomBytes(6).toString('hex')}` });
}

/** One post's answer: its status, its Retry-After header (or null) and how long it took, in ms. */
export interface PostAnswer {
  status: number;
  retryAfter: string | null;
  ms: number;
}

/**
 * POSTs like Dink (multipart payload_json and the `png` as `file`) a unique LOOT post by
 * `player`; a status of 0 when the connection failed (the error's message in `error`).
 */
export async function postDink(dinkUrl: string, png: Buffer, player: string): Promise<PostAnswer & { error?: string }> {
  const form = new FormData();
  form.append('payload_json', lootPost(player));
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'image.png');
  const t0 = performance.now();
  try {
    const res = await fetch(dinkUrl, { method: 'POST', body: form });
    await res.arrayBuffer();
    return { status: res.status, retryAfter: res.headers.get('retry-after'), ms: performance.now() - t0 };
  } catch (err) {
    return { status: 0, retryAfter: null, ms: performance.now() - t0, error: (err as Error).message };
  }
}

/**
 * A Dink post sent slowly: its headers and the first 64 KiB of its body go out at once, then, with
 * `trickleMs`, 1 KiB every `trickleMs` (a slow client, never idle), and the rest only on
 * `finish()`, so it holds an upload slot (docs/server.md §8) as long as the test wants. Without
 * `trickleMs` it sends nothing more until then (a stalled client). `answer` settles with the
 * status once the server answers, or 0 when the connection is closed first.
 */
export function stalledDink(dinkUrl: string, png: Buffer, player: string, trickleMs?: number): { finish: () => void; answer: Promise<number> } {
  const boundary = `----stalled${crypto.randomBytes(8).toString('hex')}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n${lootPost(player)}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="image.png"\r\nContent-Type: image/png\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Buffer.concat([head, png, tail]);
  const url = new URL(dinkUrl);
  const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length } });
  let sent = 64 * 1024;
  let trickle: NodeJS.Timeout | undefined;
  const answer = new Promise<number>((resolve) => {
    req.on('response', (res) => {
      clearInterval(trickle);
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => {
      clearInterval(trickle);
      resolve(0);
    });
  });
  req.write(body.subarray(0, sent));
  if (trickleMs) {
    trickle = setInterval(() => {
      req.write(body.subarray(sent, sent + 1024));
      sent += 1024;
    }, trickleMs);
  }
  return {
    finish: () => {
      clearInterval(trickle);
      req.end(body.subarray(sent));
    },
    answer,
  };
}

/** VmRSS (resident set) of a process in kB, from /proc/<pid>/status. */
export function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]);
}

/**
 * The highest VmRSS of a process while `work` runs, in kB, sampled every 10 ms (and VmHWM, the
 * kernel's own peak, when resetting it through /proc/<pid>/clear_refs is allowed).
 */
export async function peakRssDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakKb: number }> {
  let hwm = true;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    hwm = false;
  }
  let peak = rssKb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssKb(pid));
  }, 10);
  try {
    const result = await work();
    peak = Math.max(peak, rssKb(pid));
    if (hwm) {
      const m = /VmHWM:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]));
    }
    return { result, peakKb: peak };
  } finally {
    clearInterval(timer);
  }
}

/** The loop of timeCalls, run in a worker thread of its own (plain JavaScript: workers get no tsx). */
const CALL_LOOP = `
const { parentPort, workerData } = require('node:worker_threads');
let stop = false;
parentPort.on('message', () => { stop = true; });
(async () => {
  const ms = [];
  const statuses = [];
  const call = async () => {
    try {
      const r = await fetch(workerData.url, { headers: { cookie: workerData.cookie } });
      await r.arrayBuffer();
      return r.status;
    } catch {
      return 0;
    }
  };
  // The first call also starts fetch and opens the connection: not timed.
  await call();
  while (!stop) {
    const t0 = performance.now();
    statuses.push(await call());
    ms.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, workerData.gapMs));
  }
  parentPort.postMessage({ ms, statuses });
  parentPort.close();
})();
`;

/**
 * Times `client`'s GET of `path` over and over (one at a time, `gapMs` apart) until `until`
 * settles: the durations in ms and the statuses seen (0 for a failed call), the first call (which
 * starts fetch and connects) left out. The calls run in a worker thread, so the caller's own work
 * (sending large posts) does not delay them.
 */
export async function timeCalls(client: ApiClient, path: string, until: Promise<unknown>, gapMs = 50): Promise<{ ms: number[]; statuses: number[] }> {
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const worker = new Worker(CALL_LOOP, { eval: true, workerData: { url: client.base + path, cookie, gapMs } });
  const answer = new Promise<{ ms: number[]; statuses: number[] }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const stop = () => worker.postMessage('stop');
  until.then(stop, stop);
  try {
    return await answer;
  } finally {
    await worker.terminate();
  }
}

/** The p-th percentile (0..100) of `values`, nearest rank; NaN when empty. */
export function percentileOf(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
