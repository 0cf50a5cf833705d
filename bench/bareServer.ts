import { createServer } from 'node:http';
import { Server } from 'socket.io';

/**
 * The baseline of bench/spectators.bench.ts: a bare Socket.IO server with no database, no
 * session and no game rules. A client sends `join` to enter the one room; a `trigger` {seq}
 * makes the server broadcast `game_state_update` {game_state: {seq, pad}} to the room, the pad
 * sized so the message has PAYLOAD_BYTES bytes of JSON like the real server's roll broadcast.
 * Prints 'bare listening on <port>' once ready. Env: PORT, PAYLOAD_BYTES.
 */
const port = Number(process.env.PORT ?? 0);
const payloadBytes = Number(process.env.PAYLOAD_BYTES ?? 600);

const http = createServer();
const io = new Server(http, { path: '/socket.io', serveClient: false });

/** A game_state payload of `bytes` bytes of JSON for sequence number `seq`. */
function payload(seq: number): { game_state: { seq: number; pad: string } } {
  const base = JSON.stringify({ game_state: { seq, pad: '' } }).length;
  return { game_state: { seq, pad: 'x'.repeat(Math.max(0, payloadBytes - base)) } };
}

io.on('connection', (socket) => {
  socket.on('join', () => {
    void socket.join('room');
    socket.emit('joined');
  });
  socket.on('trigger', (msg: { seq: number }) => {
    io.to('room').emit('game_state_update', payload(Number(msg?.seq ?? 0)));
  });
});

http.listen(port, '127.0.0.1', () => {
  const address = http.address();
  console.log(`bare listening on ${typeof address === 'object' && address ? address.port : port}`);
});

process.on('SIGTERM', () => {
  io.close();
  process.exit(0);
});
