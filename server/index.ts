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
import { imageStoreOf } from './submissions/storage';
import { startAnnouncementWorker } from './discord/worker';
import { GameCache } from './games/cache';
import { publicGameNodeAnswer } from './lobby/publicGame';
import { log } from './observability/log';
import { startProcessMetrics } from './observability/metrics';
import { observedNodeAnswer } from './observability/requests';

/**
 * Starts the whole product on one port (docs/server.md §7): API under /api, Socket.IO at
 * /socket.io, the built client everywhere else; expired sessions are purged on start and hourly.
 * The Discord announcement worker runs in every process (docs/server.md §10). Logs go to stdout as
 * JSON lines and metrics to GET /metrics (docs/server.md §14, observability/).
 * Exits 1 when the database cannot be opened.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: config.sqliteFile });
  // Expired sessions are purged now and then hourly (docs/server.md §8).
  const stopSessionPurge = await startSessionPurge(handle.db);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : null;
  const deps: Deps = { db: handle.db, dialect: handle.dialect, config, broadcaster: silentBroadcaster, redis, images: imageStoreOf(config), gameCache: new GameCache(handle.db, config.gameCacheCheckMs) };
  const app = createApp(deps, ROUTE_MODULES);
  // A fresh cached public game is answered before the app (lobby/publicGame.ts publicGameNodeAnswer);
  // every other request goes to the app through node-server's listener.
  // It carries an X-Request-Id and is logged and counted like the app's answers (docs/server.md §14).
  const publicGame = observedNodeAnswer(publicGameNodeAnswer(deps), '/api/public/game/:gameId');
  const appListener = getRequestListener(app.fetch);
  const server: HttpServer = createServer((req, res) => {
    if (!publicGame(req, res)) void appListener(req, res);
  });
  server.listen(config.port, () => {
    const address = server.address();
    log.info({ port: typeof address === 'object' && address ? address.port : config.port, database: handle.dialect }, `Clan Snakes & Ladders listening on http://localhost:${typeof address === 'object' && address ? address.port : config.port} (${handle.dialect})`);
  });
  const realtime = await attachRealtime(server, deps);
  deps.broadcaster = realtime.broadcaster;
  startProcessMetrics({ db: handle.db, sockets: () => realtime.io.of('/').sockets.size });
  // Every process posts Discord announcements from the shared outbox (docs/server.md §10).
  const announcements = startAnnouncementWorker(handle.db, handle.dialect, config.announcements);
  const stop = async () => {
    setTimeout(() => process.exit(0), 3000).unref();
    stopSessionPurge();
    await announcements.stop();
    const closed = realtime.close();
    server.closeAllConnections();
    await closed;
    await redis?.quit().catch(() => redis.disconnect());
    await handle.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  log.fatal({ err }, 'Failed to start');
  process.exit(1);
});
