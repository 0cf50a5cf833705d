import { performance } from 'node:perf_hooks';
import { io as connectSocket, type Socket } from 'socket.io-client';

/**
 * The Leaders' client process of bench/many.bench.ts: one signed-in socket per game (the session
 * cookie of the Leaders' user), joined compact to its game as a clan member, rolling for every team
 * of the game in turn. Driven by IPC messages (advanced serialization):
 * - {type: 'connect', url, cookie, games: [{gameId, teams: [{teamId, ignId}]}]} → opens and joins
 *   one socket per game; answers {type: 'joined'}
 * - {type: 'go', periodMs, durationMs} → in every game, a roll every periodMs / teams ms (each team
 *   once per periodMs), the teams in turn, starting at a random offset, for durationMs. A roll is
 *   acknowledged when the Leader's socket receives the game_state_update with a higher version
 *   that carries a roll's log entry (the roll's own; one Leader socket per game and one roll at a
 *   time, so it is that roll's; other changes, such as a team total's progress, are not answers);
 *   the next roll waits for it (closed loop: a slow server lowers the roll rate, which the bench
 *   reports). An `action_error` is a refused roll, no answer within 10 s a timeout. When the time
 *   is up and no roll is outstanding, answers {type: 'done', rolls, refused, timeouts, errors}:
 *   rolls as [gameId, version, emitAt, ackAt, logIds] (absolute ms, the roll's new_log_entries ids).
 *   Another 'go' after 'done' starts a new count (the bench's roll-rate sweep).
 * - {type: 'close'} → disconnects and exits.
 */
type Msg =
  | { type: 'connect'; url: string; cookie: string; games: { gameId: number; teams: { teamId: number; ignId: number }[] }[] }
  | { type: 'go'; periodMs: number; durationMs: number }
  | { type: 'close' };

/** A game's Leader socket and its roll in flight. */
interface Player {
  gameId: number;
  teams: { teamId: number; ignId: number }[];
  socket: Socket;
  version: number;
  turn: number;
  /** ms between this game's rolls (periodMs / teams). */
  gapMs: number;
  pending: { emitAt: number; timer: NodeJS.Timeout } | null;
}

const ACK_TIMEOUT_MS = 10_000;
const players: Player[] = [];
const rolls: [number, number, number, number, number[]][] = [];
const errors: Record<string, number> = {};
let refused = 0;
let timeouts = 0;
let stopAt = 0;
let finished = false;

const send = (m: unknown) => process.send?.(m);
const now = () => performance.timeOrigin + performance.now();

function open(url: string, cookie: string): Promise<Socket> {
  const socket = connectSocket(url, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false, timeout: 120_000, extraHeaders: { cookie } });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => reject(err));
  });
}

/** Answers 'done' once the time is up and no roll is outstanding. */
function maybeDone(): void {
  if (finished || now() < stopAt || players.some((p) => p.pending)) return;
  finished = true;
  send({ type: 'done', rolls, refused, timeouts, errors });
}

/** Emits the next roll of `p` after `delayMs`, unless the time is up (then maybe 'done'). */
function schedule(p: Player, delayMs: number): void {
  setTimeout(() => {
    if (now() >= stopAt) return maybeDone();
    const team = p.teams[p.turn % p.teams.length];
    p.turn += 1;
    const emitAt = now();
    const timer = setTimeout(() => {
      timeouts += 1;
      p.pending = null;
      schedule(p, 0);
    }, ACK_TIMEOUT_MS);
    p.pending = { emitAt, timer };
    p.socket.emit('roll_dice', { game_id: p.gameId, team_id: team.teamId, performer_ign_id: team.ignId });
  }, Math.max(0, delayMs));
}

/** The roll in flight ended (acknowledged or refused): the next one at emit + gap, or now if later. */
function settle(p: Player): void {
  const pending = p.pending;
  if (!pending) return;
  clearTimeout(pending.timer);
  p.pending = null;
  schedule(p, pending.emitAt + p.gapMs - now());
}

async function join(url: string, cookie: string, g: { gameId: number; teams: { teamId: number; ignId: number }[] }): Promise<Player> {
  const socket = await open(url, cookie);
  const p: Player = { gameId: g.gameId, teams: g.teams, socket, version: -1, turn: 0, gapMs: 1000, pending: null };
  await new Promise<void>((resolve, reject) => {
    socket.on('game_state_update', (m: { game_state: { version: number; new_log_entries?: { id: number; roll_index?: number }[] } }) => {
      const at = now();
      const gs = m.game_state;
      if (p.version < 0) {
        p.version = gs.version;
        resolve();
        return;
      }
      if (gs.version <= p.version) return;
      p.version = gs.version;
      // Only the roll's own update (it carries the roll's log entry) answers it: a change that is
      // not a roll, such as a team total's progress (docs/server.md §17), also moves the version.
      if (p.pending && (gs.new_log_entries ?? []).some((e) => e.roll_index !== undefined)) {
        rolls.push([p.gameId, gs.version, p.pending.emitAt, at, (gs.new_log_entries ?? []).map((e) => e.id)]);
        settle(p);
      }
    });
    socket.on('action_error', (e: { message: string }) => {
      if (p.version < 0) return reject(new Error(e.message));
      refused += 1;
      errors[e.message] = (errors[e.message] ?? 0) + 1;
      settle(p);
    });
    socket.emit('join_game', { game_id: g.gameId, compact: true });
  });
  return p;
}

process.on('message', (m: Msg) => {
  if (m.type === 'connect') {
    (async () => {
      for (let i = 0; i < m.games.length; i += 50) players.push(...(await Promise.all(m.games.slice(i, i + 50).map((g) => join(m.url, m.cookie, g)))));
      send({ type: 'joined' });
    })().catch((err: unknown) => send({ type: 'error', message: String(err) }));
  } else if (m.type === 'go') {
    // Each 'go' is reported on its own (the sweep sends several, one after the other's 'done').
    rolls.length = 0;
    refused = 0;
    timeouts = 0;
    for (const k of Object.keys(errors)) delete errors[k];
    finished = false;
    stopAt = now() + m.durationMs;
    for (const p of players) {
      const gap = m.periodMs / p.teams.length;
      p.gapMs = gap;
      schedule(p, Math.random() * gap);
    }
    setTimeout(maybeDone, m.durationMs + 10);
  } else if (m.type === 'close') {
    for (const p of players) p.socket.disconnect();
    setTimeout(() => process.exit(0), 200);
  }
});
send({ type: 'ready' });
