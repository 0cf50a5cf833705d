import { performance } from 'node:perf_hooks';
import { io as connectSocket, type Socket } from 'socket.io-client';

/**
 * One client process of bench/spectators.bench.ts: holds a share of the N spectator sockets, so
 * the receiving side is spread over several processes and is not the wall being measured.
 * Driven by IPC messages from the bench:
 * - {type: 'connect', url, count, mode: 'real' | 'bare', gameId} → opens `count` websocket sockets
 *   in batches, joins each (real: join_game `{game_id, compact: true}`, docs/server.md §6, and its
 *   full game_state_update; bare: join and
 *   `joined` after the same full game message), answers {type: 'joined', ms, version}
 * - {type: 'expect', seq} → answers {type: 'received', seq} once every socket has the
 *   game_state_update of broadcast `seq` (real: version - base - 1; bare: game_state.seq)
 * - {type: 'collect'} → answers {type: 'receipts', times} (absolute ms per socket and broadcast,
 *   performance.timeOrigin + performance.now(), NaN when missed) and {messages} (all received)
 * - {type: 'close'} → disconnects and exits.
 */
type Msg =
  | { type: 'connect'; url: string; count: number; mode: 'real' | 'bare'; gameId: number; rolls: number }
  | { type: 'expect'; seq: number }
  | { type: 'collect' }
  | { type: 'close' };

const BATCH = 100;
const sockets: Socket[] = [];
let times = new Float64Array(0);
let perSeq = new Int32Array(0);
let expected = -1;
let base = 0;
let messages = 0;

const send = (m: unknown) => process.send?.(m);
const now = () => performance.timeOrigin + performance.now();

function open(url: string): Promise<Socket> {
  const socket = connectSocket(url, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false, timeout: 120_000 });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => reject(err));
  });
}

function receipt(index: number, seq: number, count: number, rolls: number): void {
  if (seq < 0 || seq >= rolls) return;
  const k = seq * count + index;
  if (!Number.isNaN(times[k])) return;
  times[k] = now();
  perSeq[seq] += 1;
  if (seq === expected && perSeq[seq] === count) send({ type: 'received', seq });
}

async function connectAll(m: Extract<Msg, { type: 'connect' }>): Promise<void> {
  times = new Float64Array(m.count * m.rolls).fill(NaN);
  perSeq = new Int32Array(m.rolls);
  const t0 = performance.now();
  for (let start = 0; start < m.count; start += BATCH) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(BATCH, m.count - start) }, async (_, k) => {
        const index = start + k;
        const s = await open(m.url);
        s.onAny(() => (messages += 1));
        await new Promise<void>((resolve, reject) => {
          s.once('game_state_update', (p: { game_state: { version: number } }) => {
            if (m.mode === 'real') base = p.game_state.version;
            resolve();
          });
          s.once('action_error', (e: { message: string }) => reject(new Error(e.message)));
          if (m.mode === 'real') s.emit('join_game', { game_id: m.gameId, compact: true });
          else s.emit('join');
        });
        s.on('game_state_update', (p: { game_state: { version?: number; seq?: number } }) => {
          const seq = m.mode === 'real' ? (p.game_state.version ?? 0) - base - 1 : (p.game_state.seq ?? -1);
          receipt(index, seq, m.count, m.rolls);
        });
        return s;
      }),
    );
    sockets.push(...batch);
  }
  send({ type: 'joined', ms: performance.now() - t0, version: base });
}

process.on('message', (m: Msg) => {
  if (m.type === 'connect') {
    connectAll(m).catch((err: unknown) => send({ type: 'error', message: String(err) }));
  } else if (m.type === 'expect') {
    expected = m.seq;
    const count = sockets.length;
    if (perSeq[m.seq] === count) send({ type: 'received', seq: m.seq });
  } else if (m.type === 'collect') {
    send({ type: 'receipts', times: Array.from(times), messages });
  } else if (m.type === 'close') {
    for (const s of sockets) s.disconnect();
    setTimeout(() => process.exit(0), 200);
  }
});
send({ type: 'ready' });
