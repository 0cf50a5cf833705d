import fs from 'node:fs';
import { createServer } from 'node:http';
import { listenForBench } from './listen';
import { loadConfig } from '../server/config';
import { applyHeapGrowth } from '../server/lifecycle/gcPolicy';
import { Server } from 'socket.io';

/**
 * The baseline of bench/spectators.bench.ts: a bare Socket.IO and node:http server with no
 * database, no session and no game rules, sending the same messages as the real server, taken
 * from a real run (BARE_SAMPLES, a JSON file {join, progress, httpBody}):
 * - a client's `join` enters the one room and is answered `game_state_update` {game_state: join}
 *   (the real join_game answer: the whole public game);
 * - a `trigger` {seq} broadcasts to the room what a real roll sends a compact spectator
 *   (docs/server.md §6): one `game_state_update` {game_state: progress with seq}, the progress
 *   carrying the roll's `new_log_entries` as the real one did, so the message has the same size;
 * - any HTTP GET is answered with the pre-serialised `httpBody` (the public game route's body) and
 *   the real answer's headers (`httpHeaders`: its security headers, ETag, Cache-Control ...), so
 *   both servers send the same bytes but for Date and X-Request-Id.
 * Prints 'bare listening on <port>' once ready. Env: PORT, BARE_SAMPLES.
 */
// The real server's garbage-collection policy (HEAP_GROWING_PERCENT), so the ratio compares the app, not the heap settings.
applyHeapGrowth(loadConfig().heapGrowingPercent);
const port = Number(process.env.PORT ?? 0);
const samples = JSON.parse(fs.readFileSync(process.env.BARE_SAMPLES ?? '', 'utf8')) as {
  join: Record<string, unknown>;
  progress: Record<string, unknown>;
  httpBody: string;
  httpHeaders: Record<string, string>;
};
const body = Buffer.from(samples.httpBody);

const http = createServer((_req, res) => {
  res.writeHead(200, { ...samples.httpHeaders, 'Content-Length': body.length });
  res.end(body);
});
const io = new Server(http, { path: '/socket.io', serveClient: false });

io.on('connection', (socket) => {
  socket.on('join', () => {
    void socket.join('room');
    socket.emit('game_state_update', { game_state: samples.join });
  });
  socket.on('trigger', (msg: { seq: number }) => {
    const { version: _v, ...progress } = samples.progress;
    io.to('room').emit('game_state_update', { game_state: { ...progress, seq: Number(msg?.seq ?? 0) } });
  });
});

listenForBench(http, 'bare', port, () => io.close());
