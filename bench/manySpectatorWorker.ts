import { performance } from 'node:perf_hooks';
import { io as connectSocket, type Socket } from 'socket.io-client';

/**
 * A spectator client process of bench/many.bench.ts: holds its share of the G x S spectator
 * sockets, each watching one game as a compact spectator (join_game `{game_id, compact: true}`,
 * docs/server.md §6), so the receiving side is spread over several processes.
 * Driven by IPC messages (advanced serialization) from the bench:
 * - {type: 'connect', url, games} → opens one websocket socket per entry of `games` (a game id each)
 *   in batches of 100, joins it and waits for its whole-game answer; answers {type: 'joined'}
 * - {type: 'count'} → answers {type: 'count', messages}: messages received so far (the bench waits
 *   until they stop growing before it collects)
 * - {type: 'collect', emits} → `emits` is [gameId, version, emitAt] per acknowledged roll; answers
 *   {type: 'result'} with the roll-to-spectator latencies (receipt − emit, ms) of every spectator of
 *   each roll, receipts missed, messages received after the join answer, version gaps (a version
 *   more than one past the held one) and stale updates (a version at or below the held one), and
 *   per game the final team positions each spectator holds, as counts per distinct position set
 * - {type: 'close'} → disconnects and exits.
 * A spectator holds its game's team positions from the join answer and applies every update with
 * a higher version, as the client does (docs/client.md), so its final positions can be compared
 * with the database's.
 */
type Msg =
  | { type: 'connect'; url: string; games: number[] }
  | { type: 'count' }
  | { type: 'collect'; emits: [number, number, number][] }
  | { type: 'close' };

/** One team's state as a game_state_update carries it. */
interface TeamStateLike { team_id: number; current_position: number }

/** One spectator socket and the game state it holds. */
interface Watcher {
  gameId: number;
  socket: Socket;
  version: number;
  positions: string;
}

const BATCH = 100;
const watchers: Watcher[] = [];
/** Receipt times (absolute ms) per game, per version. */
const receipts = new Map<number, Map<number, number[]>>();
/** Spectators per game in this process. */
const perGame = new Map<number, number>();
let messages = 0;
let gaps = 0;
let stale = 0;

const send = (m: unknown) => process.send?.(m);
const now = () => performance.timeOrigin + performance.now();

/** Team positions as one comparable text: "team:position" sorted by team id. */
const positionsOf = (states: readonly TeamStateLike[]) =>
  [...states].sort((a, b) => a.team_id - b.team_id).map((t) => `${t.team_id}:${t.current_position}`).join(',');

function open(url: string): Promise<Socket> {
  const socket = connectSocket(url, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false, timeout: 120_000 });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => reject(err));
  });
}

/** Opens and joins one spectator of `gameId`; resolves once its whole-game answer arrived. */
async function watch(url: string, gameId: number): Promise<Watcher> {
  const socket = await open(url);
  const w: Watcher = { gameId, socket, version: -1, positions: '' };
  await new Promise<void>((resolve, reject) => {
    socket.once('action_error', (e: { message: string }) => reject(new Error(e.message)));
    socket.on('game_state_update', (p: { game_state: { version: number; team_states: TeamStateLike[] } }) => {
      const at = now();
      const gs = p.game_state;
      if (w.version < 0) {
        w.version = gs.version;
        w.positions = positionsOf(gs.team_states);
        resolve();
        return;
      }
      messages += 1;
      let byVersion = receipts.get(gameId);
      if (!byVersion) receipts.set(gameId, (byVersion = new Map()));
      const list = byVersion.get(gs.version);
      if (list) list.push(at);
      else byVersion.set(gs.version, [at]);
      if (gs.version <= w.version) {
        stale += 1;
        return;
      }
      if (gs.version > w.version + 1) gaps += 1;
      w.version = gs.version;
      w.positions = positionsOf(gs.team_states);
    });
    socket.onAny((event: string) => {
      if (event !== 'game_state_update') messages += 1;
    });
    socket.emit('join_game', { game_id: gameId, compact: true });
  });
  return w;
}

async function connectAll(url: string, games: number[]): Promise<void> {
  for (const g of games) perGame.set(g, (perGame.get(g) ?? 0) + 1);
  for (let start = 0; start < games.length; start += BATCH) {
    const batch = await Promise.all(games.slice(start, start + BATCH).map((g) => watch(url, g)));
    watchers.push(...batch);
  }
  send({ type: 'joined' });
}

function collect(emits: [number, number, number][]): void {
  const latencies: number[] = [];
  let missed = 0;
  for (const [gameId, version, emitAt] of emits) {
    const count = perGame.get(gameId) ?? 0;
    const got = receipts.get(gameId)?.get(version) ?? [];
    for (const t of got) latencies.push(t - emitAt);
    missed += Math.max(0, count - got.length);
  }
  const finals: Record<number, Record<string, number>> = {};
  for (const w of watchers) {
    const game = (finals[w.gameId] ??= {});
    game[w.positions] = (game[w.positions] ?? 0) + 1;
  }
  send({ type: 'result', latencies: Float64Array.from(latencies), missed, messages, gaps, stale, finals, sockets: watchers.length });
}

process.on('message', (m: Msg) => {
  if (m.type === 'connect') connectAll(m.url, m.games).catch((err: unknown) => send({ type: 'error', message: String(err) }));
  else if (m.type === 'count') send({ type: 'count', messages });
  else if (m.type === 'collect') collect(m.emits);
  else if (m.type === 'close') {
    for (const w of watchers) w.socket.disconnect();
    setTimeout(() => process.exit(0), 200);
  }
});
send({ type: 'ready' });
