import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, SLOW_START_MS, startServer, type TestServer } from '../support/server';
import { ApiClient } from '../support/api';
import { castOf, connect, newGame, stored, type Cast, type Client, type TestGame, type Watcher } from '../support/liveSocket';
import { DiscordWebhookStandIn } from '../support/discordWebhookStandIn';
import { CLIENT_ID, CLIENT_SECRET, DiscordStandIn } from '../support/discordStandIn';
import { WomStandIn } from '../support/womStandIn';
import { SIGNUP_MESSAGES } from '../../contract/signupApi';
import { DATABASE_AWAY } from '../../server/db/unreachable';
import type { GameProgress } from '../../contract/socket';
import type { Game, PublicGame } from '../../contract/gameApi';

/**
 * Faults survived (docs/server.md §14 "Faults"): two server processes on a PostgreSQL cluster and
 * a Redis server of the test's own (a throwaway cluster made with initdb and pg_ctl, a
 * redis-server on a free port; never the machine's shared ones), a roll stream from two Leaders
 * (one on each process), spectators and members watching on both, and HTTP probes of both
 * processes all along. On one time line:
 * - 0-30 s: Redis stopped (30 s), started again;
 * - 0-60 s: the Discord webhook stand-in hangs (first half) and answers 500 (second half), the
 *   Wise Old Man and Discord OAuth stand-ins answer 500 then hang: a minute each of the outside
 *   services failing;
 * - after the Wise Old Man fetch in the hang has ended: PostgreSQL restarted (stopped until each
 *   Leader has had rolls refused, then started).
 * Checked: the site keeps answering (/healthz always 200; /readyz 503 only while a dependency is
 * down, naming it; other calls 200, or 503 `{error}` while the database is down, never a 500 or
 * no answer within 5 s); every roll gets exactly one answer; no acknowledged roll is lost or
 * doubled (each team's stored position history is exactly the one its Leader was acknowledged,
 * one square per acknowledged roll); rolls refused while the database is away get the
 * database's `action_error` and no refusal happens otherwise; every client holds the rolls made
 * on both processes within 5 s of Redis's and of PostgreSQL's return; Discord announcements held
 * back by the outage are posted once it answers again, Wise Old Man's look-ups report the 500
 * and the timeout and succeed again afterwards, and a Discord sign-in fails with its reason (at once
 * on a 500, after 10 s on a hang) rather than holding the page, and works again afterwards.
 * Needs PostgreSQL's initdb/pg_ctl (PG_BIN, default /usr/lib/postgresql/15/bin), redis-server and,
 * as root, runuser and a postgres user: skipped with a notice without them, an error under CI=true.
 */

const PG_BIN = process.env.PG_BIN || '/usr/lib/postgresql/15/bin';
const REDIS_SERVER = process.env.REDIS_SERVER || '/usr/bin/redis-server';
const AS_ROOT = process.getuid?.() === 0;
/** The deliberate Redis outage of the spec. */
const REDIS_DOWN_MS = 30_000;
/** How long each outside service (Discord, Wise Old Man) fails: half answering 500, half hanging. */
const OUTSIDE_DOWN_MS = 60_000;
/** A client must hold the rolls of both processes within this long of a service's return. */
const LIVE_AGAIN_MS = 5000;
/** Each probe must be answered within this long. */
const PROBE_ANSWER_MS = 5000;
/** Pause between a Leader's answered roll and the next: a steady stream of about 3 rolls a second each. */
const ROLL_GAP_MS = 300;
/** A roll not answered within this long counts as unanswered. */
const ROLL_ANSWER_MS = 20_000;

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function faultToolsAvailable(): boolean {
  const missing: string[] = [];
  for (const tool of ['initdb', 'pg_ctl']) if (!fs.existsSync(path.join(PG_BIN, tool))) missing.push(`${PG_BIN}/${tool} (apt-get install -y postgresql)`);
  if (!fs.existsSync(REDIS_SERVER)) missing.push(`${REDIS_SERVER} (apt-get install -y redis-server)`);
  if (AS_ROOT) {
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
      execFileSync('runuser', ['--help'], { stdio: 'ignore' });
    } catch {
      missing.push('runuser and a postgres user (running as root, the cluster needs another user)');
    }
  }
  if (missing.length === 0) return true;
  if (process.env.CI === 'true') throw new Error(`CI=true but the fault test lacks: ${missing.join(', ')}`);
  console.warn(`\n!!! FAULT TEST SKIPPED: missing ${missing.join(', ')} !!!\n`);
  return false;
}

/**
 * A PostgreSQL cluster of this test only, in a temp folder, on a free port of 127.0.0.1 with its
 * socket in its own folder (trust authentication, no fsync: nothing here must survive a power
 * cut). Run as the postgres user when the test runs as root.
 */
class ThrowawayPostgres {
  dir = '';
  port = 0;

  private tool(name: string, args: string[]) {
    const bin = path.join(PG_BIN, name);
    return AS_ROOT ? run('runuser', ['-u', 'postgres', '--', bin, ...args]) : run(bin, args);
  }

  async init(): Promise<void> {
    // Made here, not when the suite is collected (a skipped suite is collected too). Under root the
    // postgres user must reach the folder: /tmp is open to all (a TMPDIR may not be).
    this.dir = fs.mkdtempSync(path.join(AS_ROOT ? '/tmp' : os.tmpdir(), 'csl-faults-pg-'));
    if (AS_ROOT) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
      fs.chownSync(this.dir, uid, gid);
    }
    this.port = await freePort();
    await this.tool('initdb', ['-D', this.dir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  }

  /** Starts the cluster; resolves once it accepts connections. */
  async start(): Promise<void> {
    await this.tool('pg_ctl', ['-D', this.dir, '-l', path.join(this.dir, 'server.log'), '-w', '-t', '60', '-o', `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  }

  /** Stops it (fast: open sessions are ended, their transactions rolled back); resolves once it is down. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.tool('pg_ctl', ['-D', this.dir, '-m', mode, '-w', '-t', '60', 'stop']);
  }

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async destroy(): Promise<void> {
    if (!this.dir) return;
    await this.stop('immediate').catch(() => {});
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** True when a Redis server on 127.0.0.1:`port` answers PING. */
function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.on('error', () => done(false));
    s.on('connect', () => s.write('PING\r\n'));
    s.on('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

/** A redis-server of this test only (nothing kept on disk), stopped and started at will on one port. */
class ThrowawayRedis {
  port = 0;
  private proc: ChildProcess | null = null;

  /** Starts it; resolves once it answers PING. */
  async start(): Promise<void> {
    this.port ||= await freePort();
    this.proc = spawn(REDIS_SERVER, ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', os.tmpdir()], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (!(await redisAnswers(this.port))) {
      if (this.proc.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server on port ${this.port} did not answer`);
      await sleep(20);
    }
  }

  /** Stops it; resolves once the process has exited. */
  async stop(): Promise<void> {
    const proc = this.proc;
    this.proc = null;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
    });
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }
}

/** One roll of a Leader and how it was answered. */
interface RollAnswer {
  sentAt: number;
  answeredAt: number;
  outcome: 'acknowledged' | 'refused' | 'unanswered';
  message?: string;
}

/**
 * A Leader's socket rolling for its team again and again, each roll after the previous one's
 * answer: acknowledged (a game_state_update whose team history is one square longer: the roll is
 * stored, docs/server.md §5) or refused (action_error). A history growing by more than one, or
 * while no roll waits, is recorded as an anomaly (a doubled or late-applied roll).
 */
class Leader {
  history: number[] = [];
  readonly answers: RollAnswer[] = [];
  readonly anomalies: string[] = [];
  private waiter: ((answer: { refused?: string }) => void) | null = null;
  private stopping = false;
  private loop: Promise<void> | null = null;

  constructor(readonly socket: Client, readonly name: string, readonly game: TestGame, readonly teamId: number, readonly ign: number) {
    socket.on('game_state_update', ({ game_state }) => this.update(game_state as Game | PublicGame | GameProgress));
    socket.on('action_error', ({ message }) => {
      if (this.waiter) this.waiter({ refused: message });
      else this.anomalies.push(`action_error with no roll waiting: ${message}`);
    });
  }

  private update(state: Game | PublicGame | GameProgress): void {
    const team = state.team_states.find((t) => t.team_id === this.teamId);
    if (!team || team.position_history.length <= this.history.length) return;
    const grew = team.position_history.length - this.history.length;
    if (this.history.length > 0 && grew !== 1) this.anomalies.push(`history grew by ${grew} at version ${state.version}`);
    if (this.history.length > 0 && !this.waiter) this.anomalies.push(`history grew with no roll waiting at version ${state.version}`);
    this.history = [...team.position_history];
    this.waiter?.({});
  }

  /** Joins the game (compact) and resolves with the team's history as stored now. */
  async join(): Promise<void> {
    this.socket.emit('join_game', { game_id: this.game.gameId, compact: true });
    const deadline = Date.now() + 10_000;
    while (this.history.length === 0) {
      if (Date.now() > deadline) throw new Error(`${this.name}: no game after join_game`);
      await sleep(10);
    }
  }

  private async rollOnce(): Promise<void> {
    const sentAt = Date.now();
    const answer = await new Promise<{ refused?: string } | null>((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        resolve(null);
      }, ROLL_ANSWER_MS);
      this.waiter = (a) => {
        clearTimeout(timer);
        this.waiter = null;
        resolve(a);
      };
      this.socket.emit('roll_dice', { game_id: this.game.gameId, team_id: this.teamId, performer_ign_id: this.ign });
    });
    const answeredAt = Date.now();
    if (answer === null) this.answers.push({ sentAt, answeredAt, outcome: 'unanswered' });
    else if (answer.refused !== undefined) this.answers.push({ sentAt, answeredAt, outcome: 'refused', message: answer.refused });
    else this.answers.push({ sentAt, answeredAt, outcome: 'acknowledged' });
  }

  start(): void {
    this.loop = (async () => {
      while (!this.stopping) {
        await this.rollOnce();
        await sleep(ROLL_GAP_MS);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop;
  }

  /** Answers of rolls sent at or after `since` (ms). */
  after(since: number, outcome?: RollAnswer['outcome']): RollAnswer[] {
    return this.answers.filter((a) => a.sentAt >= since && (outcome === undefined || a.outcome === outcome));
  }
}

/** One HTTP probe: which process, what was asked, the status (0: no answer within PROBE_ANSWER_MS) and the body. */
interface Probe {
  /** When it was sent and when its answer (or failure) came, in ms. */
  at: number;
  answeredAt: number;
  process: 'a' | 'b';
  what: 'healthz' | 'readyz' | 'public game' | 'members game' | 'sign-in';
  status: number;
  body: any;
}

/** Asks both processes the probes of `Probe['what']` every 250 ms until stopped, recording every answer. */
class Prober {
  readonly probes: Probe[] = [];
  private stopping = false;
  private loop: Promise<void> | null = null;

  constructor(private readonly servers: { a: TestServer; b: TestServer }, private readonly cast: Cast, private readonly game: TestGame) {}

  private async ask(process: 'a' | 'b', what: Probe['what'], url: string, cookie?: string): Promise<void> {
    const at = Date.now();
    let status = 0;
    let body: any = null;
    const signIn = what === 'sign-in';
    try {
      // Process a signs in for development; b has Discord sign-in, whose first step is a redirect to Discord.
      const post = signIn && process === 'a';
      const res = await fetch(url, {
        method: post ? 'POST' : 'GET',
        headers: post ? { 'content-type': 'application/json', origin: new URL(url).origin } : cookie ? { cookie } : {},
        body: post ? JSON.stringify({ username: `faults-prober-${process}` }) : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(PROBE_ANSWER_MS),
      });
      status = res.status;
      const text = await res.text();
      try {
        body = JSON.parse(text);
      } catch {
        body = text.slice(0, 200);
      }
    } catch (err) {
      body = String(err);
    }
    this.probes.push({ at, answeredAt: Date.now(), process, what, status, body });
  }

  start(): void {
    const cookie = [...this.cast.owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    this.loop = (async () => {
      while (!this.stopping) {
        const asked: Promise<void>[] = [];
        for (const [name, server] of [['a', this.servers.a], ['b', this.servers.b]] as const) {
          asked.push(
            this.ask(name, 'healthz', `${server.url}/healthz`),
            this.ask(name, 'readyz', `${server.url}/readyz`),
            this.ask(name, 'public game', `${server.url}/api/public/game/${this.game.gameId}`),
            this.ask(name, 'members game', `${server.url}${this.game.path}`, cookie),
            this.ask(name, 'sign-in', name === 'a' ? `${server.url}/api/auth/dev` : `${server.url}/api/auth/discord?path=%2Fdashboard`),
          );
        }
        await Promise.all(asked);
        await sleep(250);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop;
  }
}

/** The status a probe answers when all is well: 200, and 302 for b's Discord sign-in (a redirect to Discord). */
const healthy = (p: Probe) => (p.what === 'sign-in' && p.process === 'b' ? 302 : 200);

/** A time window [from, to] in ms. */
interface Window {
  from: number;
  to: number;
}
const within = (at: number, w: Window) => at >= w.from && at <= w.to;
/** True when probe `p` was in flight at some time in `w`: a request sent just before an outage began can be answered during it. */
const inFlightWithin = (p: Probe, w: Window) => p.at <= w.to && p.answeredAt >= w.from;

describe.runIf(faultToolsAvailable())('faults survived: Redis stopped, PostgreSQL restarted, Discord and Wise Old Man failing (two processes)', () => {
  const cluster = new ThrowawayPostgres();
  const redis = new ThrowawayRedis();
  const discord = new DiscordWebhookStandIn();
  const wom = new WomStandIn();
  const oauth = new DiscordStandIn();
  let a: TestServer;
  let b: TestServer;
  let direct: pg.Pool;

  beforeAll(async () => {
    await Promise.all([cluster.init(), redis.start(), discord.start(), wom.start(), oauth.start()]);
    await cluster.start();
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE faults');
    await admin.end();
    direct = new pg.Pool({ connectionString: cluster.url('faults'), max: 1 });
    direct.on('error', () => {});
    const env = {
      DATABASE_URL: cluster.url('faults'),
      REDIS_URL: redis.url,
      // The game cache as in production: each process trusts its copy for 250 ms.
      GAME_CACHE_CHECK_MS: '',
      WOM_API_URL: wom.url,
      ...discord.serverEnv({ DISCORD_ROLL_WINDOW_MS: '1000', DISCORD_BACKOFF_MS: '200' }),
    };
    // Process b has Discord sign-in (against the OAuth stand-in); a keeps development sign-in for the cast.
    const portB = await freePort();
    const signInEnv = {
      DISCORD_CLIENT_ID: CLIENT_ID,
      DISCORD_CLIENT_SECRET: CLIENT_SECRET,
      DISCORD_REDIRECT_URI: `http://127.0.0.1:${portB}/api/auth/discord/callback`,
      DISCORD_AUTHORIZE_URL: `${oauth.url}/oauth2/authorize`,
      DISCORD_TOKEN_URL: `${oauth.url}/api/oauth2/token`,
      DISCORD_USER_URL: `${oauth.url}/api/users/@me`,
    };
    // One at a time: both would migrate the new database at once.
    a = await startServer(env, undefined, SLOW_START_MS);
    b = await startServer({ ...env, ...signInEnv }, portB, SLOW_START_MS);
  }, 240_000);

  afterAll(async () => {
    for (const s of [a, b]) if (s && s.proc.exitCode !== null) console.log(`[faults] a server process exited ${s.proc.exitCode}:\n${s.output().slice(-4000)}`);
    await Promise.all([a?.stop(), b?.stop()]);
    await direct?.end().catch(() => {});
    await Promise.all([cluster.destroy(), redis.stop(), discord.stop(), wom.stop(), oauth.stop()]);
  });

  it('keeps answering, loses and doubles no acknowledged roll, refuses rolls clearly while the database is away, and is live again within 5 s of each return', { timeout: 300_000 }, async () => {
    const servers = { a, b };
    const cast = await castOf(a.url, 'faults');
    const game = await newGame(cast);
    const base = `/api/clan/${cast.clanId}/events`;
    // The event's announcements go to the Discord stand-in.
    expect((await cast.owner.put(`${base}/${game.eventId}/discord`, { webhook_url: discord.webhook('4242') })).status).toBe(200);
    // A sign-up event of two players Wise Old Man knows.
    const signupEvent = (await cast.owner.post(`${base}/`, { name: 'Faults sign-ups', start_datetime: '2031-06-01T18:00Z', signups_open: true })).body.event.id as number;
    for (const [i, name] of ['Fault Alpha', 'Fault Beta'].entries()) {
      const player = new ApiClient(a.url);
      const me = await player.onboard(`faults-player-${i}`, [name], { role: 'Member', clan_id: cast.clanId });
      expect((await player.post(`${base}/${signupEvent}/signups`, { osrs_ign_id: me.igns[0].id })).status).toBe(201);
      wom.add(name, { ehb: 10 + i, ehp: 20 + i, level: 1500 });
    }
    const womPath = `${base}/${signupEvent}/signups/scores/wom`;
    /** Starts a Wise Old Man fetch and resolves with its progress once both look-ups are done. */
    const womFetch = async (ms: number) => {
      expect((await cast.owner.post(womPath, { metric: 'ehb' })).status).toBe(202);
      const deadline = Date.now() + ms;
      for (;;) {
        const progress = (await cast.owner.get(womPath)).body;
        if (progress.done === 2) return progress as { total: number; done: number; errors: { ign: string; error: string }[] };
        if (Date.now() > deadline) throw new Error(`Wise Old Man fetch not done within ${ms} ms: ${JSON.stringify(progress)}`);
        await sleep(200);
      }
    };

    /** A Discord sign-in on b up to its callback: the callback's time (ms) and the sign-in's error (null: signed in). */
    const discordSignIn = async (): Promise<{ ms: number; error: string | null }> => {
      const person = new ApiClient(b.url);
      const started = await person.get('/api/auth/discord?path=%2Fdashboard');
      expect(started.status).toBe(302);
      const authorized = await fetch(started.headers.get('location')!, { redirect: 'manual' });
      const callback = new URL(authorized.headers.get('location')!);
      const at = Date.now();
      // A callback held past 20 s (Discord's hang passed on to the person) counts as no answer.
      const answer = await Promise.race([person.get(callback.pathname + callback.search), sleep(20_000).then(() => null)]);
      const ms = Date.now() - at;
      if (answer === null) return { ms, error: 'no answer within 20 s' };
      expect(answer.status).toBe(302);
      const back = new URL(answer.headers.get('location')!, b.url);
      expect(back.pathname).toBe('/auth-callback');
      return { ms, error: back.searchParams.get('error') };
    };

    // The clients: a Leader rolling on each process, and spectators and members watching on both.
    const sockets: { close(): void }[] = [];
    const leaderSocket = async (url: string, api: ApiClient): Promise<Client> => {
      const socket: Client = connectSocket(url, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false, extraHeaders: { cookie: [...api.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      sockets.push({ close: () => socket.disconnect() });
      return socket;
    };
    const leaders = [
      new Leader(await leaderSocket(a.url, cast.owner), 'Leader of Red on a', game, game.team1, cast.ign.ownerA),
      new Leader(await leaderSocket(b.url, cast.leader2), 'Leader of Blue on b', game, game.team2, cast.ign.leader2),
    ];
    const watchers: Watcher[] = [
      await connect(a.url, 'spectator on a (compact)'),
      await connect(b.url, 'spectator on b'),
      await connect(a.url, 'member on a', cast.member),
      await connect(b.url, 'Leader of Blue screen on b', cast.leader2),
    ];
    sockets.push(...watchers);
    const prober = new Prober(servers, cast, game);
    try {
      await Promise.all(watchers.map((w, i) => w.join(game.gameId, i % 2 === 0)));
      for (const l of leaders) await l.join();
      const start = await stored(cast, game);
      const startHistories = leaders.map((l) => [...l.history]);
      prober.start();
      for (const l of leaders) l.start();
      // The stream is going: each Leader has a roll acknowledged.
      await until(() => leaders.every((l) => l.after(0, 'acknowledged').length >= 2), 15_000, 'first rolls acknowledged');

      /**
       * Time (ms) from `since` until every watcher holds the game at or past the version of a roll
       * each Leader was acknowledged after `since`: both processes' rolls reach every client.
       */
      const liveAgain = async (since: number): Promise<number> => {
        const deadline = since + 20_000;
        for (;;) {
          const fresh = leaders.map((l) => l.after(since, 'acknowledged').length);
          if (fresh.every((n) => n > 0)) {
            const target = await stored(cast, game).then((g) => g.version).catch(() => Infinity);
            // The stored version read after both fresh acknowledgements covers them.
            const wait = Date.now() + LIVE_AGAIN_MS * 4;
            while (watchers.some((w) => (w.held?.version ?? 0) < target) && Date.now() < wait) await sleep(20);
            if (watchers.every((w) => (w.held?.version ?? 0) >= target)) return Date.now() - since;
          }
          if (Date.now() > deadline) return Infinity;
          await sleep(20);
        }
      };

      // (a) + (c) first half: Redis stopped for 30 s; Discord hangs, Wise Old Man answers 500.
      const outsideDownAt = Date.now();
      discord.fault = 'hang';
      wom.fault = 500;
      oauth.fault = 500;
      await redis.stop();
      const redisDown: Window = { from: Date.now(), to: Infinity };
      const womOn500 = await womFetch(20_000);
      const signInOn500 = await discordSignIn();
      // Play goes on through the outage (also past ioredis's retries of commands sent meanwhile).
      await until(() => Date.now() > redisDown.from + 15_000 && leaders.every((l) => l.after(redisDown.from + 12_000, 'acknowledged').length >= 3), REDIS_DOWN_MS, 'rolls acknowledged while Redis is down');
      const failingDuringOutage = (await cast.owner.get(`${base}/${game.eventId}/discord`)).body.discord;
      // The rest of the 30 s: the outage itself, not a wait for state.
      await sleep(redisDown.from + REDIS_DOWN_MS - Date.now());
      await redis.start();
      redisDown.to = Date.now();
      const liveAfterRedis = await liveAgain(redisDown.to);

      // (c) second half: Discord answers 500, Wise Old Man hangs.
      discord.fault = 500;
      wom.fault = 'hang';
      oauth.fault = 'hang';
      const [womHung, signInHung] = await Promise.all([womFetch(40_000), discordSignIn()]);

      // (b) PostgreSQL restarted: stopped until each Leader has had rolls refused, then started.
      const pgDown: Window = { from: Date.now(), to: Infinity };
      await cluster.stop();
      const stoppedAt = Date.now();
      await until(() => leaders.every((l) => l.after(stoppedAt, 'refused').length >= 2), 20_000, 'rolls refused while PostgreSQL is down');
      await cluster.start();
      pgDown.to = Date.now();
      const liveAfterPostgres = await liveAgain(pgDown.to);

      // The outside services' minute ends; the announcements held back are posted, Wise Old Man answers.
      await sleep(Math.max(0, outsideDownAt + OUTSIDE_DOWN_MS - Date.now()));
      discord.fault = null;
      wom.heal();
      oauth.heal();
      const outsideUpAt = Date.now();
      const womHealed = await womFetch(20_000);
      const signInHealed = await discordSignIn();
      let pending = -1;
      await until(async () => {
        pending = Number((await direct.query('select count(*) as n from discord_outbox')).rows[0].n);
        return pending === 0;
      }, 90_000, 'Discord outbox empty');
      const announcedAt = Date.now();
      const discordAfter = (await cast.owner.get(`${base}/${game.eventId}/discord`)).body.discord;

      for (const l of leaders) await l.stop();
      await prober.stop();
      const after = await stored(cast, game);
      // Every watcher ends holding the stored game.
      await until(() => watchers.every((w) => (w.held?.version ?? 0) >= after.version), 5000, 'watchers at the final version');

      // ---- The figures.
      const count = (l: Leader, outcome: RollAnswer['outcome']) => l.answers.filter((x) => x.outcome === outcome).length;
      const slowest = (answers: RollAnswer[]) => Math.max(0, ...answers.map((x) => x.answeredAt - x.sentAt));
      const quiet = (x: RollAnswer) => !within(x.sentAt, { from: redisDown.from, to: redisDown.to }) && !within(x.sentAt, { from: pgDown.from - 1000, to: pgDown.to + LIVE_AGAIN_MS });
      console.log(`[faults] live again after Redis's return: ${liveAfterRedis} ms; after PostgreSQL's return: ${liveAfterPostgres} ms`);
      for (const [i, l] of leaders.entries()) {
        const acked = count(l, 'acknowledged');
        console.log(
          `[faults] ${l.name}: ${l.answers.length} rolls, ${acked} acknowledged, ${count(l, 'refused')} refused, ${count(l, 'unanswered')} unanswered; ` +
            `stored ${after.team_states.find((t) => t.team_id === l.teamId)!.position_history.length - startHistories[i].length} new squares; ` +
            `slowest answer ${slowest(l.answers)} ms (while Redis was down ${slowest(l.answers.filter((x) => within(x.sentAt, redisDown)))} ms, ` +
            `outside the outages ${slowest(l.answers.filter(quiet))} ms)`,
        );
      }
      const readyz = prober.probes.filter((p) => p.what === 'readyz' && p.status === 503);
      console.log(`[faults] /readyz 503 answers: ${readyz.filter((p) => within(p.at, redisDown)).length} while Redis was down, ${readyz.filter((p) => within(p.at, pgDown)).length} while PostgreSQL was down, ${readyz.length} in all`);
      console.log(`[faults] Discord sign-in: ${signInOn500.ms} ms to '${signInOn500.error}' while answering 500, ${signInHung.ms} ms to '${signInHung.error}' while hanging, ${signInHealed.ms} ms to a session after`);
      console.log(`[faults] Discord: ${discord.requests.filter((r) => r.answer === 500).length} posts answered 500, ${discord.requests.filter((r) => r.answer === 'hang').length} hung; outbox empty ${announcedAt - outsideUpAt} ms after it answered again`);

      // ---- The checks.
      // Every roll answered once; no doubled or late-applied roll.
      for (const l of leaders) {
        expect(l.answers.filter((x) => x.outcome === 'unanswered'), `${l.name}: unanswered rolls`).toEqual([]);
        expect(l.anomalies, `${l.name}: anomalies`).toEqual([]);
      }
      // No acknowledged roll lost or doubled: the stored history is the acknowledged one, one square per acknowledged roll.
      for (const [i, l] of leaders.entries()) {
        const storedHistory = after.team_states.find((t) => t.team_id === l.teamId)!.position_history;
        expect(storedHistory, `${l.name}: stored history`).toEqual(l.history);
        expect(storedHistory.length - startHistories[i].length, `${l.name}: new squares`).toBe(count(l, 'acknowledged'));
        expect(storedHistory.slice(0, startHistories[i].length)).toEqual(startHistories[i]);
      }
      expect(after.version - start.version).toBe(leaders.reduce((s, l) => s + count(l, 'acknowledged'), 0));
      // Refused only while the database was away, with the database's text.
      for (const l of leaders) {
        const refused = l.answers.filter((x) => x.outcome === 'refused');
        expect(refused.filter((x) => !within(x.sentAt, { from: pgDown.from - 1000, to: pgDown.to + LIVE_AGAIN_MS })), `${l.name}: refusals outside the database outage`).toEqual([]);
        expect(new Set(refused.map((x) => x.message)), `${l.name}: refusal texts`).toEqual(new Set([DATABASE_AWAY]));
      }
      // Live again within 5 s of each return.
      expect(liveAfterRedis).toBeLessThanOrEqual(LIVE_AGAIN_MS);
      expect(liveAfterPostgres).toBeLessThanOrEqual(LIVE_AGAIN_MS);
      // The site kept answering: /healthz always; /readyz 503 only while a dependency was down, naming it; no 500, no silence.
      const unanswered = prober.probes.filter((p) => p.status === 0);
      expect(unanswered.map((p) => `${p.process} ${p.what} at +${p.at - outsideDownAt} ms: ${p.body}`)).toEqual([]);
      expect(prober.probes.filter((p) => p.what === 'healthz' && p.status !== 200)).toEqual([]);
      expect(prober.probes.filter((p) => p.status >= 500 && p.status !== 503).map((p) => `${p.process} ${p.what} ${p.status} ${JSON.stringify(p.body)}`)).toEqual([]);
      const redisSlack: Window = { from: redisDown.from, to: redisDown.to + LIVE_AGAIN_MS };
      const pgSlack: Window = { from: pgDown.from, to: pgDown.to + LIVE_AGAIN_MS };
      for (const p of readyz) {
        expect(inFlightWithin(p, redisSlack) || inFlightWithin(p, pgSlack), `readyz 503 at +${p.at - outsideDownAt} ms: ${JSON.stringify(p.body)}`).toBe(true);
        expect(p.body.status).toBe('unready');
        expect(p.body.checks.redis === 'unreachable' || p.body.checks.database === 'unreachable', JSON.stringify(p.body)).toBe(true);
      }
      expect(readyz.some((p) => within(p.at, redisDown) && p.body.checks.redis === 'unreachable')).toBe(true);
      for (const p of prober.probes.filter((x) => x.what !== 'readyz' && x.status === 503)) {
        expect(inFlightWithin(p, pgSlack), `${p.process} ${p.what} 503 at +${p.at - outsideDownAt} ms`).toBe(true);
        expect(typeof p.body.error, JSON.stringify(p.body)).toBe('string');
      }
      expect(prober.probes.filter((p) => p.what !== 'readyz' && p.status !== healthy(p) && p.status !== 503)).toEqual([]);
      // Discord sign-in: a 500 fails it at once, a hang after 10 s (not a page held for the minute), and it works again after.
      expect(signInOn500.error).toBe('token exchange failed');
      expect(signInOn500.ms).toBeLessThan(5000);
      expect(signInHung.error).toBe('Discord did not answer in time; please try again');
      expect(signInHung.ms).toBeLessThan(15_000);
      expect(signInHealed.error).toBeNull();
      // Wise Old Man: the 500 and the timeout are reported per player, and it works again afterwards.
      expect(womOn500.errors.map((e) => e.error)).toEqual([SIGNUP_MESSAGES.womFailed(500), SIGNUP_MESSAGES.womFailed(500)]);
      expect(womHung.errors.map((e) => e.error)).toEqual([SIGNUP_MESSAGES.womFailed('nothing (no connection or timed out)'), SIGNUP_MESSAGES.womFailed('nothing (no connection or timed out)')]);
      expect(womHealed.errors).toEqual([]);
      // Discord: failing (and saying so to managers) during its outage, posts everything held back after.
      expect(failingDuringOutage.state).toBe('failing');
      expect(discord.requests.some((r) => r.answer === 500) && discord.requests.some((r) => r.answer === 'hang')).toBe(true);
      expect(discord.accepted('4242').some((r) => r.at >= outsideUpAt)).toBe(true);
      expect(discordAfter.state).toBe('active');
      expect(pending).toBe(0);
      // Every process still runs.
      expect([a.proc.exitCode, b.proc.exitCode]).toEqual([null, null]);
    } finally {
      for (const l of leaders) await l.stop();
      await prober.stop();
      for (const s of sockets) s.close();
    }
  });
});

/** Waits until `test` holds (checked every 50 ms); rejects after `ms` naming `what`. */
async function until(test: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}
