import { afterAll, beforeAll, expect } from 'vitest';
import { useTwoProcesses } from './suite';
import type { TestDatabase, TestServer } from './server';
import * as v from 'valibot';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { ApiClient } from './api';
import { autoSplit, countsToSettings } from '../../contract/game';
import { GameAnswerSchema, type Game, type LogEntry, type PublicGame } from '../../contract/gameApi';
import type { Submission } from '../../contract/submission';
import {
  applyInOrder,
  isFullGame,
  ORDER_WAIT_MS,
  prependLogEntry,
  type ClientToServerEvents,
  type GameProgress,
  type ServerToClientEvents,
} from '../../contract/socket';

/**
 * Live-socket test support (docs/server.md §5, §6, §8): real socket.io clients that record
 * what they receive and hold the game as the product's client does, the cast of people of one
 * clan, and games ready to roll on.
 */

export type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
export type Held = Game | PublicGame;
export type Received =
  | { event: 'game_state_update'; payload: { game_state: Held | GameProgress } }
  | { event: 'new_log_entry'; payload: { log_entry: LogEntry } }
  | { event: 'tasks_reordered'; payload: { board_data: { board_squares: unknown[] }; game_state: Held } }
  | { event: 'team_update'; payload: { updated_team_data: { id: number; name: string; color: string; members: unknown[] } } }
  | { event: 'action_error'; payload: { message: string } }
  | { event: 'submission_update'; payload: { submission: Submission } };

export const LEADER_ONLY = 'Only the Leader of your team can roll the dice or revert a turn.';
/** Snakes on 213..218 of a 225 board: nobody can pass 212, so nobody wins (each sends a team back to 2..7). */
const NO_WIN_SNAKES = [[213, 2], [214, 3], [215, 4], [216, 5], [217, 6], [218, 7]];

/**
 * A socket client of the server recording what it receives and holding the game as the product's
 * charts do (docs/server.md §6 "Order"): progress updates apply in version order through contract
 * applyInOrder, one past a missing version waits, and the full game is asked for again (join_game)
 * once when ORDER_PENDING_LIMIT updates wait or the gap is still open after ORDER_WAIT_MS. A full
 * game always replaces the held one (tests read the shape each audience was sent).
 */
export class Watcher {
  readonly got: Received[] = [];
  held: Held | null = null;
  log: LogEntry[] = [];
  /** Progress updates past a missing version, lowest first. */
  private pending: GameProgress[] = [];
  /** Asks for the full game when a gap stays open ORDER_WAIT_MS. */
  private gapTimer: ReturnType<typeof setTimeout> | null = null;
  private waiters: { test: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];

  constructor(readonly socket: Client, readonly name: string) {
    const events = ['game_state_update', 'new_log_entry', 'tasks_reordered', 'team_update', 'action_error', 'submission_update'] as const;
    for (const event of events) {
      (socket.on as (ev: string, fn: (payload: unknown) => void) => void)(event, (payload) => this.receive({ event, payload } as Received));
    }
    socket.on('disconnect', () => this.stopGapTimer());
  }

  private receive(r: Received): void {
    this.got.push(r);
    if (r.event === 'game_state_update') this.hold(r.payload.game_state);
    if (r.event === 'game_state_update' && !isFullGame(r.payload.game_state))
      for (const entry of r.payload.game_state.new_log_entries ?? []) this.log = prependLogEntry(this.log, entry);
    if (r.event === 'new_log_entry') this.log = prependLogEntry(this.log, r.payload.log_entry);
    this.waiters = this.waiters.filter((w) => {
      if (!w.test(r)) return true;
      w.resolve(r);
      return false;
    });
  }

  /**
   * Takes one game_state_update through contract applyInOrder: a full game replaces the held one
   * (and the waiting updates right after it apply), a progress update applies in version order.
   */
  private hold(state: Held | GameProgress): void {
    if (isFullGame(state)) this.log = state.log_entries;
    const base = isFullGame(state) ? state : this.held;
    if (base) {
      const result = applyInOrder(base, this.pending, state);
      this.held = result.game;
      this.pending = result.pending;
      if (result.resync) this.rejoin(state.id);
    }
    if (this.pending.length === 0) this.stopGapTimer();
    else if (!this.gapTimer) {
      const gameId = this.pending[0].id;
      this.gapTimer = setTimeout(() => {
        this.gapTimer = null;
        if (this.pending.length > 0) this.rejoin(gameId);
      }, ORDER_WAIT_MS);
    }
  }

  /** Asks for the full game again (join_game). */
  private rejoin(gameId: number): void {
    this.socket.emit('join_game', { game_id: gameId });
  }

  private stopGapTimer(): void {
    if (this.gapTimer) clearTimeout(this.gapTimer);
    this.gapTimer = null;
  }

  /** The first message from now on (or already received after `since`) passing `test`; rejects after `ms`. */
  next(test: (r: Received) => boolean, ms = 5000, since = this.got.length): Promise<Received> {
    const already = this.got.slice(since).find(test);
    if (already) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name}: nothing matching within ${ms} ms; got ${JSON.stringify(this.got.slice(since).map((g) => g.event))}`)), ms);
      this.waiters.push({ test, resolve: (r) => (clearTimeout(timer), resolve(r)) });
    });
  }

  /** Waits until the held game reaches `version`. */
  async version(version: number, ms = 10_000): Promise<Held> {
    const deadline = Date.now() + ms;
    while (!this.held || this.held.version < version) {
      if (Date.now() > deadline) throw new Error(`${this.name}: version ${this.held?.version} never reached ${version}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return this.held;
  }

  /** join_game (with `compact`: one message per roll, docs/server.md §6) and wait for the full game answer. */
  async join(gameId: number, compact?: boolean): Promise<Held> {
    const since = this.got.length;
    this.socket.emit('join_game', compact === undefined ? { game_id: gameId } : { game_id: gameId, compact });
    const r = await this.next((x) => x.event === 'action_error' || (x.event === 'game_state_update' && isFullGame(x.payload.game_state)), 5000, since);
    if (r.event === 'action_error') throw new Error(`${this.name}: join refused: ${r.payload.message}`);
    return this.held!;
  }

  /** The action_error answering the next emit, or null when none arrives within `ms`. */
  async errorWithin(ms: number, since: number): Promise<string | null> {
    try {
      const r = await this.next((x) => x.event === 'action_error', ms, since);
      return r.event === 'action_error' ? r.payload.message : null;
    } catch {
      return null;
    }
  }

  count(event: Received['event'], since = 0): number {
    return this.got.slice(since).filter((g) => g.event === event).length;
  }

  close(): void {
    this.stopGapTimer();
    this.socket.disconnect();
  }
}

/** Cookie header of an ApiClient's session. */
const cookieOf = (api: ApiClient) => [...api.cookies].map(([k, val]) => `${k}=${val}`).join('; ');

/** Connects a socket client (websocket) with `api`'s session cookie, or none for an anonymous spectator, and extra handshake `headers` (e.g. X-Forwarded-For). */
export async function connect(url: string, name: string, api?: ApiClient, headers: Record<string, string> = {}): Promise<Watcher> {
  const socket: Client = connectSocket(url, {
    path: '/socket.io',
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    extraHeaders: { ...headers, ...(api ? { cookie: cookieOf(api) } : {}) },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
  });
  return new Watcher(socket, name);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** People and their IGN ids; one clan owned by `owner`. */
export interface Cast {
  clanId: number;
  owner: ApiClient;
  leader2: ApiClient;
  member: ApiClient;
  outsider: ApiClient;
  ign: { ownerA: number; ownerB: number; leader2: number; member: number };
}

export async function castOf(url: string, tag: string): Promise<Cast> {
  const owner = new ApiClient(url);
  const me = await owner.onboard(`sock-owner-${tag}`, ['OwnerA', 'OwnerB'], { role: 'Owner', clan_name: `Socket Clan ${tag}` });
  const clanId = me.clan_memberships_list[0].clan_id as number;
  const leader2 = new ApiClient(url);
  const l2 = await leader2.onboard(`sock-leader2-${tag}`, ['LeaderTwo'], { role: 'Member', clan_id: clanId });
  const member = new ApiClient(url);
  const m = await member.onboard(`sock-member-${tag}`, ['PlainMember'], { role: 'Member', clan_id: clanId });
  const outsider = new ApiClient(url);
  await outsider.onboard(`sock-outsider-${tag}`, ['Outsider']);
  const byIgn = (profile: any, ign: string) => profile.igns.find((i: { ign: string }) => i.ign === ign).id as number;
  return {
    clanId, owner, leader2, member, outsider,
    ign: { ownerA: byIgn(me, 'OwnerA'), ownerB: byIgn(me, 'OwnerB'), leader2: byIgn(l2, 'LeaderTwo'), member: byIgn(m, 'PlainMember') },
  };
}

/** A game of a new event: team 1 (Leader OwnerA, Member PlainMember), team 2 (Leader LeaderTwo). */
export interface TestGame {
  eventId: number;
  gameId: number;
  team1: number;
  team2: number;
  path: string;
}

let serial = 0;
export async function newGame(cast: Cast, opts: { size?: number; reverts?: number; start?: boolean; noWin?: boolean; proof?: boolean } = {}): Promise<TestGame> {
  const { owner, clanId } = cast;
  const ok = (r: { status: number; body: unknown }) => expect(r.status, JSON.stringify(r.body)).toBe(200);
  const ev = await owner.post(`/api/clan/${clanId}/events/`, { name: `Live ${++serial}`, start_datetime: '2031-06-01T18:00Z' });
  ok(ev);
  const eventId = ev.body.event.id as number;
  const teams: number[] = [];
  for (const [name, color] of [['Red Team', '#aa0000'], ['Blue Team', '#0000aa']]) {
    const t = await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name, color });
    ok(t);
    teams.push(t.body.team.id);
  }
  const addMember = async (teamId: number, ignId: number, role: string) =>
    ok(await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/${teamId}/members`, { osrs_ign_id: ignId, role }));
  await addMember(teams[0], cast.ign.ownerA, 'Leader');
  await addMember(teams[0], cast.ign.member, 'Member');
  await addMember(teams[1], cast.ign.leader2, 'Leader');
  const size = opts.size ?? 225;
  const g = await owner.post(`/api/clan/${clanId}/events/${eventId}/game/`, {
    board_size: size, num_snakes: 0, num_ladders: 0, max_reverts_allowed: opts.reverts ?? 3, ...countsToSettings(autoSplit(size)),
    ...(opts.proof === undefined ? {} : { proof_required: opts.proof }),
  });
  ok(g);
  const gameId = g.body.game.id as number;
  const path = `/api/clan/${clanId}/events/${eventId}/game/${gameId}`;
  if (opts.noWin ?? true) ok(await owner.put(`${path}/board`, { snakes_config: NO_WIN_SNAKES, ladders_config: [] }));
  if (opts.start ?? true) ok(await owner.put(`${path}/status`, { status: 'in-progress' }));
  return { eventId, gameId, team1: teams[0], team2: teams[1], path };
}

/** The game as stored, through the members' REST call. */
export async function stored(cast: Cast, game: TestGame): Promise<Game> {
  const r = await cast.owner.get(game.path);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return v.parse(GameAnswerSchema, r.body).game;
}

/**
 * Team states without revert counts. A spectator's client never receives revert counts, but
 * mergeProgress (contract/socket.ts) fills a missing one with 0, so compare without them.
 */
export const noReverts = (states: readonly object[]) => states.map((t) => {
  const { revert_count: _r, ...rest } = t as { revert_count?: number };
  return rest;
});

/** Rolls applied so far: the sum over teams of (history length - 1). */
export const turns = (g: { team_states: { position_history: number[] }[] }) => g.team_states.reduce((s, t) => s + t.position_history.length - 1, 0);

/**
 * Socket clients of one suite: `watcher(name, api?)` connects to the URL `url()` gives (read
 * inside tests, once the suite's server runs) and keeps the client in `open`, which the suite
 * closes in its afterEach/afterAll.
 */
export function watchersOf(url: () => string): { open: Watcher[]; watcher: (name: string, api?: ApiClient) => Promise<Watcher> } {
  const open: Watcher[] = [];
  return {
    open,
    watcher: async (name, api) => {
      const w = await connect(url(), name, api);
      open.push(w);
      return w;
    },
  };
}

/** Two server processes of one site with a cast made through the first; read inside hooks and tests only. */
export interface TwoProcessCast {
  readonly a: TestServer;
  readonly b: TestServer;
  readonly cast: Cast;
  /** Sockets a test opens; closed after the suite. */
  readonly open: Watcher[];
  /** The PostgreSQL database both processes use (its env for directSql). */
  readonly db: TestDatabase;
}

/**
 * Registers, in the calling `describe`, two server processes sharing PostgreSQL and Redis
 * (useTwoProcesses with `env`) and a cast made through process a under `tag` (castOf); the
 * sockets pushed to `open` close after the suite. Call it before the suite's own hooks.
 */
export function useTwoProcessCast(redisUrl: string, env: Record<string, string>, tag: string): TwoProcessCast {
  const site = useTwoProcesses(redisUrl, env);
  const open: Watcher[] = [];
  let cast: Cast | undefined;
  beforeAll(async () => {
    cast = await castOf(site.a.url, tag);
  });
  afterAll(() => {
    for (const w of open) w.close();
  });
  return {
    get a() {
      return site.a;
    },
    get b() {
      return site.b;
    },
    get cast() {
      if (!cast) throw new Error('useTwoProcessCast: read the cast inside hooks and tests');
      return cast;
    },
    get db() {
      return site.db;
    },
    open,
  };
}

/** Sends roll_dice or revert_roll from `w` (joined to the game); resolves with the action_error text, or null once the game's version moved. */
export async function act(w: Watcher, kind: 'roll_dice' | 'revert_roll', game: TestGame, teamId: number, ign: number): Promise<string | null> {
  const mark = w.got.length;
  const version = w.held?.version ?? 0;
  w.socket.emit(kind, { game_id: game.gameId, team_id: teamId, performer_ign_id: ign });
  const r = await w.next((x) => x.event === 'action_error' || (x.event === 'game_state_update' && x.payload.game_state.version > version), 5000, mark);
  return r.event === 'action_error' ? r.payload.message : null;
}
