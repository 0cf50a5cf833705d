import { describe, expect, it } from 'vitest';
import { io as connectSocket } from 'socket.io-client';
import type { LogEntry } from '../../contract/gameApi';
import { applyInOrder, isFullGame, mergeLogEntries, ORDER_WAIT_MS, prependLogEntry, type GameProgress, type GameUpdate } from '../../contract/socket';
import { connect, newGame, noReverts, stored, useTwoProcessCast, type Client, type Held } from '../support/liveSocket';

/**
 * Order across processes (docs/server.md §6 "Order"): with two server processes on
 * PostgreSQL and Redis, a process sends its own broadcasts to its sockets at once and the other
 * process's a little later (through Redis), so a watcher may receive version n + 1 before n. A
 * watcher on process b, holding the game with the product's reducer (contract applyInOrder, the
 * log merged by id), while Leaders on a and b roll fast and interleaved, applies every update in
 * version order, never steps back, and ends with the stored game and the stored log, each entry once.
 */

const BURSTS = { ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000', JOINS_PER_SOCKET: '1000', JOINS_PER_ADDRESS: '1000' };
/** Rolls each Leader fires (two Leaders, one on each process). */
const ROUNDS = 60;

/** A spectator socket holding the game as the app's client does (gamePlay chart): in version order, resync after a gap of ORDER_WAIT_MS. */
class OrderedWatcher {
  game: Held | null = null;
  pending: GameProgress[] = [];
  log: LogEntry[] = [];
  /** Versions of progress updates as they arrived. */
  readonly arrived: number[] = [];
  /** Versions the held game took, in order (progress steps and full games). */
  readonly applied: { version: number; full: boolean }[] = [];
  resyncs = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(readonly socket: Client, readonly gameId: number, readonly compact: boolean) {
    socket.on('game_state_update', ({ game_state }) => this.take(game_state as GameUpdate));
    socket.on('new_log_entry', ({ log_entry }) => (this.log = prependLogEntry(this.log, log_entry)));
  }

  join(): void {
    this.socket.emit('join_game', { game_id: this.gameId, compact: this.compact });
  }

  private take(update: GameUpdate): void {
    if (!isFullGame(update)) this.arrived.push(update.version);
    const hadPending = this.pending.length > 0;
    const r = applyInOrder(this.game, this.pending, update);
    for (const step of r.steps) {
      this.applied.push({ version: step.game.version, full: isFullGame(step.update) });
      this.log = isFullGame(step.update) ? step.game.log_entries : mergeLogEntries(this.log, step.update.new_log_entries);
    }
    this.log = mergeLogEntries(this.log, r.late);
    this.game = r.game;
    this.pending = r.pending;
    if (r.resync) this.resync();
    if (hadPending && this.pending.length === 0 && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!hadPending && this.pending.length > 0) this.timer = setTimeout(() => this.gapWaited(), ORDER_WAIT_MS);
  }

  private gapWaited(): void {
    this.timer = null;
    if (this.pending.length === 0) return;
    this.resync();
    this.timer = setTimeout(() => this.gapWaited(), ORDER_WAIT_MS);
  }

  private resync(): void {
    this.resyncs += 1;
    this.join();
  }

  /** Waits until the held game reaches `version` with nothing waiting. */
  async reach(version: number, ms = 30_000): Promise<Held> {
    const deadline = Date.now() + ms;
    while (!this.game || this.game.version < version || this.pending.length > 0) {
      if (Date.now() > deadline) throw new Error(`held ${this.game?.version}, waiting ${this.pending.map((p) => p.version)}; never reached ${version}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.game;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.socket.disconnect();
  }
}

async function orderedWatcher(url: string, gameId: number, compact: boolean): Promise<OrderedWatcher> {
  const socket: Client = connectSocket(url, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
  });
  const w = new OrderedWatcher(socket, gameId, compact);
  w.join();
  await w.reach(0, 5000);
  return w;
}

/** How many arrivals came after a higher version had already arrived. */
const outOfOrder = (versions: number[]) => versions.filter((v, i) => versions.slice(0, i).some((u) => u > v)).length;

describe('update order across two server processes sharing PostgreSQL and Redis', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!redisUrl || !databaseUrl) {
    it.skip('skipped: set TEST_REDIS_URL and TEST_DATABASE_URL to run it', () => {});
    return;
  }
  const site = useTwoProcessCast(redisUrl, BURSTS, 'order');

  it('a watcher on b applies every update of rolls made on a and b in version order and ends equal to the database, log included', { timeout: 120_000 }, async () => {
    const { a, b, cast, open } = site;
    const game = await newGame(cast);
    const leaderA = await connect(a.url, 'leader1@a', cast.owner);
    const leaderB = await connect(b.url, 'leader2@b', cast.leader2);
    open.push(leaderA, leaderB);
    await leaderA.join(game.gameId, true);
    await leaderB.join(game.gameId, true);
    const watchers = [await orderedWatcher(b.url, game.gameId, true), await orderedWatcher(b.url, game.gameId, false)];
    try {
      const before = await stored(cast, game);
      for (const w of watchers) expect(w.game?.version).toBe(before.version);
      for (let i = 0; i < ROUNDS; i += 1) {
        leaderA.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
        leaderB.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team2, performer_ign_id: cast.ign.leader2 });
      }
      for (const w of watchers) await w.reach(before.version + 2 * ROUNDS);
      // One more roll from a is the barrier (not a sleep): a late duplicate or entry of the rolls
      // before it, sent on the same wires, reaches b before this roll's update does.
      leaderA.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
      const last = before.version + 2 * ROUNDS + 1;
      for (const w of watchers) await w.reach(last);
      const after = await stored(cast, game);
      expect(leaderA.count('action_error') + leaderB.count('action_error')).toBe(0);
      expect(after.version).toBe(last);
      for (const w of watchers) {
        const name = w.compact ? 'compact watcher' : 'plain watcher';
        console.log(`[order] ${name}@b: ${w.arrived.length} progress updates, ${outOfOrder(w.arrived)} arrived after a higher version, ${w.resyncs} resyncs`);
        expect(w.game!.version, name).toBe(after.version);
        expect(noReverts(w.game!.team_states), name).toEqual(noReverts(after.team_states));
        // Applied in version order: each progress step the next version, nothing ever stepping back.
        const versions = w.applied.map((s) => s.version);
        for (let k = 1; k < versions.length; k += 1) expect(versions[k], `${name} step ${k}`).toBeGreaterThan(versions[k - 1]);
        for (const [k, s] of w.applied.entries()) if (!s.full && k > 0) expect(s.version, `${name} step ${k}`).toBe(versions[k - 1] + 1);
        if (w.resyncs === 0) expect(versions, name).toEqual([before.version, ...Array.from({ length: 2 * ROUNDS + 1 }, (_, k) => before.version + 1 + k)]);
        // The log is the stored one: every entry once, newest first.
        expect(w.log.map((e) => e.id), name).toEqual(after.log_entries.map((e) => e.id));
        expect(w.log, name).toEqual(after.log_entries);
      }
    } finally {
      for (const w of watchers) w.close();
    }
  });
});
