import fs from 'node:fs';
import { createServer } from 'node:http';
import { listenForBench } from './listen';
import Database from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../server/config';
import { applyHeapGrowth } from '../server/lifecycle/gcPolicy';
import { Server, type Socket } from 'socket.io';

/**
 * The baseline of bench/many.bench.ts (the limit): a bare Socket.IO and node:http server that does
 * what a roll must do and nothing else, on a copy of the same seeded database:
 * - `join_game` {game_id} enters the game's room (`m` room for a socket with a cookie, the Leader;
 *   the public room otherwise) and is answered `game_state_update` with the whole game (the real
 *   server's public game of one bench game, BARE_SAMPLE, with this game's id, version and teams);
 * - `roll_dice` {game_id, team_id} takes a die, moves the team (no board: past 212 it wraps, as the
 *   bench board's snakes do), and makes the real roll's writes in one transaction: the games row's
 *   version, the team_states row, a game_moves row and the game_log entry (INSERT ... RETURNING),
 *   rolls of one game one after another; then one compact `game_state_update` per room, the
 *   progress carrying `new_log_entries` (docs/server.md §6). No session, permission or rule check,
 *   no read beyond the start-up load.
 * SQLite (BARE_SQLITE, prepared statements, WAL as the server) or PostgreSQL (DATABASE_URL, a pool
 * of 10 like the server). Prints 'bare listening on <port>'. Env: PORT, BARE_SAMPLE.
 */
// The real server's garbage-collection policy (HEAP_GROWING_PERCENT), so the ratio compares the app, not the heap settings.
applyHeapGrowth(loadConfig().heapGrowingPercent);
const port = Number(process.env.PORT ?? 0);
const sample = JSON.parse(fs.readFileSync(process.env.BARE_SAMPLE ?? '', 'utf8')) as Record<string, unknown>;

/** One team's state as the server sends it. */
interface TeamState {
  rowId: number;
  team_id: number;
  team_name: string;
  team_color: string;
  current_position: number;
  revert_count: number;
  position_history: number[];
  task_state: string;
  square_since: string;
}

/** A game as the bare server holds it. */
interface BareGame {
  id: number;
  version: number;
  status: string;
  rollIndex: number;
  teams: TeamState[];
  queue: Promise<void>;
}

/** The writes of one roll. */
interface RollWrite {
  gameId: number;
  version: number;
  at: string;
  team: TeamState;
  move: { roll_index: number; die: number; from: number; to: number };
  message: string;
}

/** The writes of a roll in one transaction; answers the log entry's id. */
type Writer = (w: RollWrite) => Promise<number>;

const games = new Map<number, BareGame>();

const UPDATE_GAME = 'UPDATE games SET version = version + 1, updated_at = $1 WHERE id = $2 AND version = $3';
const UPDATE_TEAM = 'UPDATE team_states SET current_position = $1, revert_count = $2, position_history = $3, task_state = $4, square_since = $5 WHERE id = $6';
const INSERT_MOVE = "INSERT INTO game_moves (game_id, at, team_id, kind, roll_index, die, from_square, landing, to_square, via) VALUES ($1, $2, $3, 'roll', $4, $5, $6, $7, $8, NULL)";
const INSERT_LOG = 'INSERT INTO game_log (game_id, timestamp, team_name, team_color, message, roll_index, die) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id';
const LOAD_GAMES = "SELECT id, version, status FROM games WHERE status = 'in-progress'";
const LOAD_TEAMS = 'SELECT ts.id, ts.game_id, ts.team_id, ts.current_position, ts.revert_count, ts.position_history, ts.task_state, ts.square_since, t.name, t.color FROM team_states ts JOIN teams t ON t.id = ts.team_id ORDER BY ts.team_id';
const LOAD_ROLLS = 'SELECT game_id, max(roll_index) AS last FROM game_moves GROUP BY game_id';

/** PostgreSQL's $n placeholders as SQLite's ?. */
const lite = (q: string) => q.replace(/\$\d+/g, '?');

async function openWriter(): Promise<{ write: Writer; load(q: string): Promise<Record<string, any>[]> }> {
  if (process.env.DATABASE_URL) {
    pg.types.setTypeParser(20, (v) => Number(v));
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
    return {
      load: async (q) => (await pool.query(q)).rows,
      write: async (w) => {
        const c = await pool.connect();
        try {
          await c.query('BEGIN');
          const claimed = await c.query(UPDATE_GAME, [w.at, w.gameId, w.version]);
          if (claimed.rowCount !== 1) throw new Error(`game ${w.gameId}: stale version ${w.version}`);
          const t = w.team;
          await c.query(UPDATE_TEAM, [t.current_position, t.revert_count, JSON.stringify(t.position_history), t.task_state, w.at, t.rowId]);
          await c.query(INSERT_MOVE, [w.gameId, w.at, t.team_id, w.move.roll_index, w.move.die, w.move.from, w.move.to, w.move.to]);
          const log = await c.query(INSERT_LOG, [w.gameId, w.at, t.team_name, t.team_color, w.message, w.move.roll_index, w.move.die]);
          await c.query('COMMIT');
          return Number(log.rows[0].id);
        } catch (err) {
          await c.query('ROLLBACK').catch(() => undefined);
          throw err;
        } finally {
          c.release();
        }
      },
    };
  }
  const db = new Database(process.env.BARE_SQLITE ?? '');
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const updateGame = db.prepare(lite(UPDATE_GAME));
  const updateTeam = db.prepare(lite(UPDATE_TEAM));
  const insertMove = db.prepare(lite(INSERT_MOVE));
  const insertLog = db.prepare(lite(INSERT_LOG));
  const tx = db.transaction((w: RollWrite): number => {
    if (updateGame.run(w.at, w.gameId, w.version).changes !== 1) throw new Error(`game ${w.gameId}: stale version ${w.version}`);
    const t = w.team;
    updateTeam.run(t.current_position, t.revert_count, JSON.stringify(t.position_history), t.task_state, w.at, t.rowId);
    insertMove.run(w.gameId, w.at, t.team_id, w.move.roll_index, w.move.die, w.move.from, w.move.to, w.move.to);
    return Number((insertLog.get(w.gameId, w.at, t.team_name, t.team_color, w.message, w.move.roll_index, w.move.die) as { id: number }).id);
  });
  return { load: async (q) => db.prepare(q).all() as Record<string, any>[], write: async (w) => tx(w) };
}

const { write, load } = await openWriter();
for (const g of await load(LOAD_GAMES)) games.set(Number(g.id), { id: Number(g.id), version: Number(g.version), status: String(g.status), rollIndex: 0, teams: [], queue: Promise.resolve() });
for (const r of await load(LOAD_TEAMS)) {
  games.get(Number(r.game_id))?.teams.push({
    rowId: Number(r.id), team_id: Number(r.team_id), team_name: r.name, team_color: r.color, current_position: Number(r.current_position),
    revert_count: Number(r.revert_count), position_history: JSON.parse(r.position_history), task_state: r.task_state, square_since: r.square_since,
  });
}
for (const r of await load(LOAD_ROLLS)) {
  const g = games.get(Number(r.game_id));
  if (g) g.rollIndex = Number(r.last ?? 0);
}

const publicStates = (g: BareGame) => g.teams.map(({ rowId: _id, revert_count: _r, ...t }) => t);
const memberStates = (g: BareGame) => g.teams.map(({ rowId: _id, ...t }) => t);

const http = createServer((_req, res) => {
  res.writeHead(404).end();
});
const io = new Server(http, { path: '/socket.io', serveClient: false });

/** One roll of `team` in `g` (inside the game's queue). */
async function roll(g: BareGame, teamId: number, socket: Socket): Promise<void> {
  const team = g.teams.find((t) => t.team_id === teamId);
  if (!team) {
    socket.emit('action_error', { message: `Team ${teamId} is not playing in this game.` });
    return;
  }
  const die = 1 + Math.floor(Math.random() * 6);
  const from = team.current_position;
  const to = from + die > 212 ? from + die - 210 : from + die;
  const at = new Date().toISOString();
  const rollIndex = g.rollIndex + 1;
  const next: TeamState = { ...team, current_position: to, position_history: [...team.position_history, to], task_state: 'none', square_since: at };
  const message = `${team.team_name} rolled a ${die} and moved from ${from} to ${to}.`;
  const logId = await write({ gameId: g.id, version: g.version, at, team: next, move: { roll_index: rollIndex, die, from, to }, message });
  g.rollIndex = rollIndex;
  g.version += 1;
  Object.assign(team, next);
  const new_log_entries = [{ id: logId, timestamp: at, team_name: team.team_name, team_color: team.team_color, message, roll_index: rollIndex, die }];
  const base = { id: g.id, status: g.status, winners: null, version: g.version, last_move: { team_id: teamId, from, die, landing: to, to, via: null } };
  io.to(`g:${g.id}:m`).emit('game_state_update', { game_state: { ...base, team_states: memberStates(g), new_log_entries } });
  io.to(`g:${g.id}`).emit('game_state_update', { game_state: { ...base, team_states: publicStates(g), new_log_entries } });
}

io.on('connection', (socket) => {
  const member = Boolean(socket.handshake.headers.cookie);
  socket.on('join_game', (msg: { game_id?: number }) => {
    const g = games.get(Number(msg?.game_id));
    if (!g) return void socket.emit('action_error', { message: 'Game not found.' });
    void socket.join(member ? `g:${g.id}:m` : `g:${g.id}`);
    socket.emit('game_state_update', { game_state: { ...sample, id: g.id, version: g.version, team_states: member ? memberStates(g) : publicStates(g) } });
  });
  socket.on('roll_dice', (msg: { game_id?: number; team_id?: number }) => {
    const g = games.get(Number(msg?.game_id));
    if (!g) return void socket.emit('action_error', { message: 'Game not found.' });
    g.queue = g.queue.then(() => roll(g, Number(msg.team_id), socket)).catch((err: unknown) => {
      socket.emit('action_error', { message: String(err) });
    });
  });
});

listenForBench(http, 'bare', port, () => io.close());
