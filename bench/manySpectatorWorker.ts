import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

/**
 * A spectator client process of bench/many.bench.ts: holds its share of the G x S spectator
 * sockets, each watching one game as a compact spectator (join_game `{game_id, compact: true}`,
 * docs/server.md §6), so the receiving side is spread over several processes.
 * Each spectator is a bare WebSocket (the `ws` package) speaking Engine.IO 4 and Socket.IO 5 text
 * packets itself (open, namespace connect, ping/pong, events), and reads of each update only its
 * game version; the last update's team positions are parsed once, when results are collected.
 * A socket.io-client per spectator spent more CPU than the server it measured (4 processes at
 * 17 % of a CPU each at 10,000 deliveries a second), and the bench's clients share the machine
 * with that server.
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
 * A spectator holds its game's state from the join answer and takes every update with a higher
 * version, as the client does (docs/client.md), so its final positions can be compared with the
 * database's.
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
  socket: WebSocket;
  version: number;
  /** The Socket.IO packet of the update held (join answer or the last newer update), parsed at collect. */
  held: string;
}

const BATCH = 100;
/** A Socket.IO event packet of game_state_update, as Engine.IO message text ('4' message, '2' event). */
const UPDATE_PREFIX = '42["game_state_update",';
/** The game version of an update: the first "version" key of its text (game_state's; no key before it holds one), not one inside a string (escaped quote). */
const VERSION = /(?<!\\)"version":(\d+)/;
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

/** The team positions of a held game_state_update packet (positionsOf). */
function positionsOfPacket(packet: string): string {
  const [, payload] = JSON.parse(packet.slice(2)) as [string, { game_state: { team_states: TeamStateLike[] } }];
  return positionsOf(payload.game_state.team_states);
}

/** Opens and joins one spectator of `gameId`; resolves once its whole-game answer arrived. */
function watch(url: string, gameId: number): Promise<Watcher> {
  const address = new URL('/socket.io/?EIO=4&transport=websocket', url.replace(/^http/, 'ws'));
  const socket = new WebSocket(address);
  const w: Watcher = { gameId, socket, version: -1, held: '' };
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.on('message', (data: Buffer | string) => {
      const text = typeof data === 'string' ? data : data.toString();
      if (text.startsWith(UPDATE_PREFIX)) {
        const at = now();
        const version = Number(VERSION.exec(text)?.[1] ?? -1);
        if (w.version < 0) {
          w.version = version;
          w.held = text;
          resolve(w);
          return;
        }
        messages += 1;
        let byVersion = receipts.get(gameId);
        if (!byVersion) receipts.set(gameId, (byVersion = new Map()));
        const list = byVersion.get(version);
        if (list) list.push(at);
        else byVersion.set(version, [at]);
        if (version <= w.version) {
          stale += 1;
          return;
        }
        if (version > w.version + 1) gaps += 1;
        w.version = version;
        w.held = text;
      } else if (text === '2') {
        socket.send('3');
      } else if (text.startsWith('0')) {
        socket.send('40');
      } else if (text.startsWith('40')) {
        socket.send(`42${JSON.stringify(['join_game', { game_id: gameId, compact: true }])}`);
      } else if (text.startsWith('44') || text.startsWith('42["action_error"')) {
        reject(new Error(text));
      } else if (text.startsWith('42')) {
        messages += 1;
      }
    });
  });
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
    const positions = positionsOfPacket(w.held);
    game[positions] = (game[positions] ?? 0) + 1;
  }
  send({ type: 'result', latencies: Float64Array.from(latencies), missed, messages, gaps, stale, finals, sockets: watchers.length });
}

process.on('message', (m: Msg) => {
  if (m.type === 'connect') connectAll(m.url, m.games).catch((err: unknown) => send({ type: 'error', message: String(err) }));
  else if (m.type === 'count') send({ type: 'count', messages });
  else if (m.type === 'collect') collect(m.emits);
  else if (m.type === 'close') {
    for (const w of watchers) w.socket.close();
    setTimeout(() => process.exit(0), 200);
  }
});
send({ type: 'ready' });
