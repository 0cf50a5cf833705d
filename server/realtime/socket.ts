import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { Deps } from '../http/context';
import type { Broadcaster } from './broadcaster';
import { silentBroadcaster } from './broadcaster';

/** The live layer attached to the HTTP server. */
export interface Realtime {
  io: Server;
  broadcaster: Broadcaster;
  close(): Promise<void>;
}

/**
 * Attaches Socket.IO at /socket.io to the same HTTP server (server-contract section 5).
 * Game rooms and handlers arrive with issue #6; until then sockets connect and nothing is sent.
 */
export async function attachRealtime(server: HttpServer, _deps: Deps): Promise<Realtime> {
  const io = new Server(server, { path: '/socket.io', serveClient: false });
  return {
    io,
    broadcaster: silentBroadcaster,
    close: () => new Promise<void>((resolve) => io.close(() => resolve())),
  };
}
