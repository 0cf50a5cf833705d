import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import net from 'node:net';

/**
 * Work in flight (socket event handlers, HTTP requests) that shutdown waits for
 * (docs/server.md §14): `begin()` counts one piece and returns its `done`; `idle()` resolves
 * when none is left.
 */
export class InFlight {
  private count = 0;
  private waiters: (() => void)[] = [];

  /** Counts one piece of work; call the returned function (once) when it has settled. */
  begin(): () => void {
    this.count += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.count -= 1;
      if (this.count === 0) for (const w of this.waiters.splice(0)) w();
    };
  }

  /** Pieces still running. */
  get size(): number {
    return this.count;
  }

  /** Resolves once nothing is in flight (at once when nothing is). */
  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

/**
 * The HTTP requests this process is answering (the ones Socket.IO does not take): `track` wraps
 * the server's request listener. After `closeAfterAnswer`, every answer (those being written
 * and those still to come on open connections) carries `Connection: close`, so no client reuses a
 * connection to a process that is leaving.
 */
export class HttpRequests {
  private readonly open = new Set<ServerResponse>();
  private readonly work = new InFlight();
  private closing = false;

  /** True once closeAfterAnswer was called: answers now close their connection. */
  get closingConnections(): boolean {
    return this.closing;
  }

  /** The listener `listener` with every request counted until its answer is finished or aborted. */
  track(listener: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      const done = this.work.begin();
      this.open.add(res);
      if (this.closing) res.setHeader('Connection', 'close');
      res.once('close', () => {
        this.open.delete(res);
        done();
      });
      listener(req, res);
    };
  }

  /** From now on, answers close their connection once written. */
  closeAfterAnswer(): void {
    this.closing = true;
    for (const res of this.open) if (!res.headersSent) res.setHeader('Connection', 'close');
  }

  /** Resolves once no request is being answered. */
  idle(): Promise<void> {
    return this.work.idle();
  }
}

/** Resolves when `work` settles or `ms` have passed, whichever is first; true when it settled in time. */
export async function settledWithin(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  try {
    return await Promise.race([work.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What a graceful shutdown stops, in the order of docs/server.md §14. */
export interface ShutdownSteps {
  /** Makes /readyz answer 503 (Lifecycle.beginShutdown). */
  markUnready(): void;
  /** The listening server: closed at once, so no new connection is taken. */
  server: HttpServer;
  requests: HttpRequests;
  /** Background work that stops taking new work at once and resolves once it has (the Discord worker gives back its leases). */
  stopBackground(): Promise<void>;
  /** Socket event handlers (rolls in the game queues included) still running. */
  socketWork(): Promise<void>;
  /** Sends `server_restarting` to every socket of this process and closes them, waiting up to `ms`. */
  closeSockets(ms: number): Promise<void>;
  /** Closes what is left (Socket.IO, Redis, the database). */
  closeAll(): Promise<void>;
  /** SHUTDOWN_GRACE_MS. */
  graceMs: number;
  log(message: string): void;
}

/** Longest wait for sockets to take `server_restarting` and close, in ms (beyond it they are cut). */
const SOCKET_CLOSE_MS = 2000;

/**
 * A graceful shutdown (docs/server.md §14): /readyz 503 at once; the listener closed (no new
 * connection; open keep-alive connections get one more answer, which closes them); the Discord
 * worker stops claiming; in-flight
 * requests and socket work (queued rolls) finish, up to `graceMs`; then every socket gets
 * `server_restarting` and is closed (clients reconnect, to another process where there is one);
 * socket work that started meanwhile finishes; the worker has given back its leases; Socket.IO,
 * Redis and the database close. Resolves when all of that is done; the caller exits 0.
 */
export async function shutDownGracefully(steps: ShutdownSteps): Promise<void> {
  const started = Date.now();
  const left = () => steps.graceMs - (Date.now() - started);
  steps.markUnready();
  // Only the listener closes: http.Server#close would also cut idle keep-alive connections, and a
  // load balancer asking /readyz on one must see the 503 (each answer now ends its connection).
  net.Server.prototype.close.call(steps.server);
  steps.requests.closeAfterAnswer();
  const background = steps.stopBackground();
  const drained = await settledWithin(left(), Promise.all([steps.requests.idle(), steps.socketWork()]));
  if (!drained) steps.log(`shutdown: work still running after SHUTDOWN_GRACE_MS (${steps.graceMs} ms); closing anyway`);
  await steps.closeSockets(Math.min(SOCKET_CLOSE_MS, Math.max(left(), 500)));
  // A roll that arrived between the drain and the close still commits before the database closes.
  await settledWithin(Math.max(left(), 1000), steps.socketWork());
  await settledWithin(Math.max(left(), 1000), background);
  steps.server.closeAllConnections();
  await steps.closeAll();
}
