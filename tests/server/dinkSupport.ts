import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import sharp from 'sharp';
import { ApiClient, type Answer } from '../support/api';
import * as v from 'valibot';
import type { Backend } from '../support/server';
import { useServerSuite, type ServerSuite } from '../support/suite';
import { act, castOf, newGame, stored, watchersOf, type Cast, type TestGame, type Watcher } from '../support/liveSocket';
import { DinkRecentAnswerSchema, type DinkOutcome, type DinkPost, type DinkType } from '../../contract/dink';
import { SubmissionListSchema, type Submission } from '../../contract/submission';
import type { Game } from '../../contract/gameApi';

// Helpers of the Dink API tests (dink.api.test.ts, dink-totals.api.test.ts, dink-accounts.api.test.ts, dink-live.api.test.ts; docs/server.md §13, §17).

/** Socket limits raised so a suite's many rolls and joins are never refused (the limits have their own tests). */
export const FAST = { ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000', JOINS_PER_SOCKET: '1000', JOINS_PER_ADDRESS: '1000' };

/** Expects an answer of `status`, and when `error` is given exactly the body `{error}`. */
export const expectError = (r: Answer, status: number, error?: string): void => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  if (error !== undefined) expect(r.body).toEqual({ error });
};

/** The recorded-shape fixture of one Dink type (tests/fixtures/dink/), as a fresh object. */
export function fixture(type: DinkType): Record<string, any> {
  return JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/dink', `${type.toLowerCase()}.json`), 'utf8'));
}

/** Every post differs (its content line), so none is taken as a duplicate unless meant; posted as `player`. */
let nonce = 0;
export const fresh = (payload: Record<string, any>, player = 'iron_bob') => ({ ...payload, playerName: player, content: `${payload.content} #${++nonce}` });

/** A small PNG screenshot stand-in. */
export const png = () => sharp({ create: { width: 64, height: 48, channels: 3, background: '#c83232' } }).png().toBuffer();

/** POSTs like Dink: multipart payload_json (a string as is, anything else as JSON) and an optional file part; no cookie, no Origin. */
export async function dink(url: string, payload: unknown, file?: { bytes: Buffer; name?: string; type?: string }): Promise<Answer> {
  const form = new FormData();
  if (payload !== undefined) form.append('payload_json', typeof payload === 'string' ? payload : JSON.stringify(payload));
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/png' }), file.name ?? 'image.png');
  const res = await fetch(url, { method: 'POST', body: form });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

/** Fills the clan's pool with 60 tasks a tier, so every task square gets one. */
export async function fillPool(owner: ApiClient, clanId: number): Promise<void> {
  const rows = ['description,difficulty', ...['EASY', 'MEDIUM', 'HARD', 'ELITE', 'MASTER'].flatMap((t) => Array.from({ length: 60 }, (_, i) => `${t} dink task ${i + 1},${t}`))];
  const form = new FormData();
  form.append('file', new Blob([rows.join('\n')], { type: 'text/csv' }), 'pool.csv');
  const r = await owner.call('POST', `/api/clan/${clanId}/tasks/upload_csv`, form);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** The event's recent posts as the owner reads them (GET `{dinkApi}/recent`, docs/server.md §13), newest first. */
export async function recentPosts(owner: ApiClient, dinkApi: string): Promise<DinkPost[]> {
  const r = await owner.get(`${dinkApi}/recent`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return v.parse(DinkRecentAnswerSchema, r.body).posts;
}

/** Posts to `url` like Dink and answers the recorded outcome (waits until the recent list has grown by one; the 204 may come first). */
export async function postOutcome(owner: ApiClient, dinkApi: string, url: string, payload: unknown, file?: Buffer): Promise<DinkOutcome> {
  const before = (await recentPosts(owner, dinkApi)).length;
  const r = await dink(url, payload, file ? { bytes: file } : undefined);
  expect(r.status, r.body).toBe(204);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const posts = await recentPosts(owner, dinkApi);
    if (posts.length > before) return posts[0].outcome;
    if (Date.now() > deadline) throw new Error('the post was never recorded');
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** A Dink suite's running site and people (useDinkSuite); `cast`, `bob` and `bobIgn` are read inside hooks and tests only. */
export interface DinkSuite {
  readonly suite: ServerSuite;
  /** The server's UPLOAD_DIR (a fresh folder, removed after the suite). */
  readonly uploads: string;
  readonly cast: Cast;
  /** Iron Bob, a member of the cast's clan (not on a team until a game puts him there). */
  readonly bob: ApiClient;
  /** Iron Bob's IGN id. */
  readonly bobIgn: number;
  /** Opens a socket of the suite's server as `name` (closed after the suite). */
  watcher(name: string, api?: ApiClient): Promise<Watcher>;
  /** The event's Dink API path, /api/clan/{clanId}/events/{eventId}/dink. */
  dinkPath(game: TestGame): string;
  /**
   * A proof game (started unless `start` is false) with Iron Bob on team 1 (OwnerA leads it), its
   * Dink link (auto-approve when asked) at the suite's URL, and the owner's socket joined.
   */
  dinkGame(opts?: { auto?: boolean; start?: boolean }): Promise<{ game: TestGame; url: string; w: Watcher }>;
  /** Posts to `url` like Dink and answers the recorded outcome (postOutcome). */
  outcome(game: TestGame, url: string, payload: unknown, file?: Buffer): Promise<DinkOutcome>;
  /** Puts `rule` on the task of team 1's current square (through the task API) and answers the square. */
  ruleHere(game: TestGame, rule: unknown): Promise<number>;
  /** The game's submissions as the owner reads them. */
  submissions(game: TestGame): Promise<Submission[]>;
  /** Team 1's stored state. */
  stateOf(game: TestGame): Promise<Game['team_states'][number]>;
  /** OwnerA rolls for team 1 over `w`: null, or the refusal's message. */
  roll(w: Watcher, game: TestGame): Promise<string | null>;
}

/**
 * Registers, in the calling `describe`, a Dink API suite on `backend`: the server (FAST limits,
 * uploads in a fresh folder), a cast tagged `${tag}-${backend}` with a pool of 60 tasks a tier, and
 * Iron Bob as a member of its clan (user `${tag}-bob-${backend}`); afterAll closes the sockets of
 * `watcher` and removes the uploads. `env` adds settings (e.g. a small CLAN_UPLOAD_QUOTA_MB). Call
 * it before the suite's own hooks (see useServerSuite).
 */
export function useDinkSuite(backend: Backend, tag: string, env: Record<string, string> = {}): DinkSuite {
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), `csl-${tag}-`));
  const suite = useServerSuite(backend, { UPLOAD_DIR: uploads, ...FAST, ...env });
  let people: { cast: Cast; bob: ApiClient; bobIgn: number } | undefined;
  const { open, watcher } = watchersOf(() => suite.url);

  beforeAll(async () => {
    const cast = await castOf(suite.url, `${tag}-${backend}`);
    await fillPool(cast.owner, cast.clanId);
    const bob = new ApiClient(suite.url);
    const me = await bob.onboard(`${tag}-bob-${backend}`, ['Iron Bob'], { role: 'Member', clan_id: cast.clanId });
    people = { cast, bob, bobIgn: me.igns[0].id };
  });
  afterAll(() => {
    for (const w of open) w.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  const running = () => {
    if (!people) throw new Error('useDinkSuite: the suite is not set up (use it inside hooks and tests)');
    return people;
  };
  const cast = () => running().cast;
  const dinkPath = (game: TestGame) => `/api/clan/${cast().clanId}/events/${game.eventId}/dink`;
  return {
    suite,
    uploads,
    get cast() {
      return cast();
    },
    get bob() {
      return running().bob;
    },
    get bobIgn() {
      return running().bobIgn;
    },
    watcher,
    dinkPath,
    async dinkGame(opts = {}) {
      const { owner, clanId } = cast();
      const game = await newGame(cast(), { proof: true, start: opts.start ?? true });
      expect((await owner.post(`/api/clan/${clanId}/events/${game.eventId}/teams/${game.team1}/members`, { osrs_ign_id: running().bobIgn, role: 'Member' })).status).toBe(200);
      const made = await owner.post(dinkPath(game));
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      if (opts.auto) expect((await owner.put(dinkPath(game), { auto_approve: true })).body.dink.auto_approve).toBe(true);
      const url = (made.body.dink.url as string).replace(/^https?:\/\/[^/]+/, suite.url);
      const w = await watcher('owner', owner);
      await w.join(game.gameId);
      return { game, url, w };
    },
    outcome: (game, url, payload, file) => postOutcome(cast().owner, dinkPath(game), url, payload, file),
    async ruleHere(game, rule) {
      const g = await stored(cast(), game);
      const at = g.team_states.find((t) => t.team_id === game.team1)!.current_position;
      const square = g.board_squares.find((sq) => sq.square_index === at)!;
      expect(square.task_id).not.toBeNull();
      const r = await cast().owner.put(`/api/clan/${cast().clanId}/tasks/${square.task_id}`, { description: square.task_description, difficulty: square.task_difficulty, auto_rule: rule });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return at;
    },
    submissions: async (game) => v.parse(SubmissionListSchema, (await cast().owner.get(`${game.path}/submissions`)).body).submissions,
    stateOf: async (game) => (await stored(cast(), game)).team_states.find((t) => t.team_id === game.team1)!,
    roll: (w, game) => act(w, 'roll_dice', game, game.team1, cast().ign.ownerA),
  };
}
