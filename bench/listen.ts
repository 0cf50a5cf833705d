import type { Server } from 'node:http';

/**
 * Starts a bench baseline server (bench/bareServer.ts, manyBareServer.ts, plainServer.ts): listens on 127.0.0.1:`port` (0: a free port) and prints
 * '`name` listening on <port>' once ready (the bench waits for that line); on SIGTERM runs
 * `close` (e.g. Socket.IO's) and exits.
 */
export function listenForBench(server: Server, name: string, port: number, close: () => void = () => {}): void {
  server.listen(port, '127.0.0.1', () => {
    const address = server.address();
    console.log(`${name} listening on ${typeof address === 'object' && address ? address.port : port}`);
  });
  process.on('SIGTERM', () => {
    close();
    process.exit(0);
  });
}
