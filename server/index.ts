import { getRequestListener } from '@hono/node-server';
import { createServer, type Server as HttpServer } from 'node:http';
import { loadConfig } from './config';
import { openDatabase } from './db/connect';
import { createApp } from './app';
import { attachRealtime } from './realtime/socket';
import { ROUTE_MODULES } from './modules';
import type { Deps } from './http/context';
import { silentBroadcaster } from './realtime/broadcaster';
import { connectRedis } from './redis';
import { startSessionPurge } from './auth/sessions';
import { startAuditPrune } from './audit/service';
import { imageStoreOf } from './submissions/storage';
import { startAnnouncementWorker } from './discord/worker';
import { GameCache } from './games/cache';
import { publicGameNodeAnswer } from './lobby/publicGame';
import { log } from './observability/log';
import { countDbQuery, startProcessMetrics } from './observability/metrics';
import { observedNodeAnswer } from './observability/requests';
import { Lifecycle } from './lifecycle/health';
import { HttpRequests, shutDownGracefully } from './lifecycle/shutdown';
import { DraftClock } from './draft/clock';
import { applyHeapGrowth } from './lifecycle/gcPolicy';
import { WomWorker } from './wom/queue';
import { startWomChecks } from './wom/checks';
import { PushWorker } from './push/queue';

/**
 * Starts the whole product on one port (docs/server.md §7): API under /api, Socket.IO at
 * /socket.io, the built client everywhere else; expired sessions are purged on start and hourly.
 * The Discord announcement worker runs in every process (docs/server.md §10). Logs go to stdout as
 * JSON lines and metrics to GET /metrics (docs/server.md §14, observability/).
 * SIGTERM or SIGINT shuts it down gracefully and exits 0 (docs/server.md §14: lifecycle/shutdown.ts).
 * Exits 1 when the database cannot be opened.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  // Fewer full garbage collections under a steady load (lifecycle/gcPolicy.ts, HEAP_GROWING_PERCENT).
  applyHeapGrowth(config.heapGrowingPercent);
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile, countQuery: config.countQueries ? countDbQuery : undefined });
  // Expired sessions are purged now and then hourly (docs/server.md §8).
  const stopSessionPurge = await startSessionPurge(handle.db);
  // History entries older than 365 days are pruned now and then hourly (docs/server.md §18).
  const stopAuditPrune = startAuditPrune(handle.db);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : null;
  const deps: Deps = { db: handle.db, dialect: handle.dialect, config, broadcaster: silentBroadcaster, redis, images: imageStoreOf(config), gameCache: new GameCache(handle.db, config.gameCacheCheckMs, config.gameCacheGames) };
  const lifecycle = new Lifecycle(deps);
  const app = createApp(deps, ROUTE_MODULES, lifecycle);
  // A fresh cached public game is answered before the app (lobby/publicGame.ts publicGameNodeAnswer);
  // every other request goes to the app through node-server's listener.
  // It carries an X-Request-Id and is logged and counted like the app's answers (docs/server.md §14).
  const publicGame = observedNodeAnswer(publicGameNodeAnswer(deps), '/api/public/game/:gameId');
  const appListener = getRequestListener(app.fetch);
  // Every request the app answers is counted until answered, so a shutdown lets it finish. The
  // public game's front answers within its call (one writeHead, one end), so there is nothing of
  // it to wait for; once a shutdown began it steps aside, and the app answers with Connection: close.
  const requests = new HttpRequests();
  const tracked = requests.track((req, res) => void appListener(req, res));
  const server: HttpServer = createServer((req, res) => {
    if (requests.closingConnections || !publicGame(req, res)) tracked(req, res);
  });
  // Idle keep-alive connections are kept 65 s, longer than clients and proxies keep theirs (undici
  // 4 s, browsers and nginx 60 s at most), so the server never closes a connection in the moment a
  // client reuses it: Node's 5 s default let a client whose process was busy for a second send a
  // request on a socket the server was closing ("other side closed"). headersTimeout stays above it.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const realtime = await attachRealtime(server, deps);
  deps.broadcaster = realtime.broadcaster;
  // The captains' drafts' pick clocks (docs/server.md §16): every running draft's clock resumes.
  const draftClock = new DraftClock(deps);
  deps.draftClock = draftClock;
  draftClock.start();
  // Every process makes the Wise Old Man calls waiting in the shared queue (docs/server.md §17).
  const womWorker = new WomWorker(deps);
  womWorker.start();
  const stopWomChecks = startWomChecks(deps);
  // Listening only once the live socket is attached: a load balancer that finds the port open
  // (a restarted process) never gets a /socket.io request answered by the client's page fallback.
  // It binds HOST only (docs/server.md §14: 127.0.0.1 behind the deploy's nginx, so nobody reaches
  // a process around the proxy); an address it cannot bind stops the start.
  const listenFailed = (err: Error) => {
    log.fatal({ err, host: config.host, port: config.port }, `Failed to listen on ${config.host}:${config.port}`);
    process.exit(1);
  };
  server.once('error', listenFailed);
  server.listen(config.port, config.host, () => {
    server.off('error', listenFailed);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
    log.info({ host: config.host, port, database: handle.dialect }, `Clan Snakes & Ladders listening on http://${shown}:${port} (${handle.dialect})`);
  });
  startProcessMetrics({ db: handle.db, sockets: () => realtime.io.of('/').sockets.size });
  // Every process posts Discord announcements from the shared outbox (docs/server.md §10).
  const announcements = startAnnouncementWorker(handle.db, handle.dialect, config.announcements);
  // Every process sends web pushes from the shared queue (docs/server.md §20); web-push itself is
  // imported on the first send, not here.
  const pushWorker = new PushWorker(handle.db, config);
  pushWorker.start();
  const stop = (signal: NodeJS.Signals) => {
    // A second signal (Ctrl+C reaches both npm and the server) changes nothing: the first one's
    // shutdown is bounded by SHUTDOWN_GRACE_MS already.
    if (lifecycle.shuttingDown) return;
    log.info({ signal, grace_ms: config.shutdownGraceMs }, `${signal}: shutting down (up to ${config.shutdownGraceMs} ms for work in flight)`);
    // Should closing itself hang, the process still ends; that is a failure, hence exit 1.
    setTimeout(() => {
      log.error('shutdown did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownGraceMs + 10_000).unref();
    shutDownGracefully({
      markUnready: () => lifecycle.beginShutdown(),
      server,
      requests,
      stopBackground: async () => {
        stopSessionPurge();
        stopAuditPrune();
        draftClock.stop();
        stopWomChecks();
        await womWorker.stop();
        await announcements.stop();
        await pushWorker.stop();
      },
      socketWork: () => realtime.drain(),
      closeSockets: (ms) => realtime.restart(ms),
      closeAll: async () => {
        await realtime.close();
        await redis?.quit().catch(() => redis.disconnect());
        await handle.close();
      },
      graceMs: config.shutdownGraceMs,
      log: (message) => log.info(message),
    }).then(
      () => {
        log.info('shutdown complete');
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  log.fatal({ err }, 'Failed to start');
  process.exit(1);
});
