import { isIP } from 'node:net';

/**
 * Server configuration from the environment (README "Configuration"; docs/server.md §7).
 * Every value has an embedded default so `npm start` runs with nothing configured.
 */
export interface Config {
  port: number;
  /**
   * Address the HTTP server binds (HOST, default 0.0.0.0: every IPv4 interface; docs/server.md
   * §14). The deploy files set 127.0.0.1, so only the proxy on the same machine reaches a process.
   */
  host: string;
  /** PostgreSQL URL; when absent the embedded SQLite file is used. */
  databaseUrl: string | null;
  /** SQLite file path (default ./data/app.db). */
  sqliteFile: string;
  redisUrl: string | null;
  production: boolean;
  discord: {
    clientId: string | null;
    clientSecret: string | null;
    redirectUri: string | null;
    authorizeUrl: string;
    tokenUrl: string;
    userUrl: string;
  };
  /**
   * The Discord application of the slash commands (docs/server.md §19 "Slash commands"):
   * DISCORD_PUBLIC_KEY (hex; POST /api/discord/interactions answers 404 while unset),
   * DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN (for `npm run discord:commands`), DISCORD_API_URL
   * (default https://discord.com/api/v10; tests point it at a stand-in; also where a deferred
   * command's answer is sent), DISCORD_DEFER_MS (default 2000: how long a command may take before
   * Discord gets a deferred answer and the real one follows as an edit; Discord waits 3 s, and the
   * second left covers the network and a busy event loop).
   */
  discordApp: { publicKey: string | null; applicationId: string | null; botToken: string | null; apiUrl: string; deferMs: number };
  /** Session lifetime in ms. */
  sessionTtlMs: number;
  /** Folder of the built client, served with a history fallback. */
  clientDir: string;
  /**
   * PUBLIC_ORIGIN: the site's origin as the world reaches it (e.g. https://snakes.example.org), for
   * the absolute URLs of link previews and the board picture in Discord announcements
   * (docs/server.md §19); null (unset) = a page's preview uses the request's own origin and
   * announcements carry no picture.
   */
  publicOrigin: string | null;
  /**
   * Web push (docs/server.md §20): VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (base64url; both or
   * neither: without them a pair is made once and kept in the database), VAPID_SUBJECT (default
   * 'mailto:admin@localhost'), PUSH_ALLOWED_ORIGINS (comma-separated origins whose http endpoints
   * are taken, for tests and private push services) and PUSH_POLL_MS (how often the sender looks
   * at the queue; default 1000 ms).
   */
  push: { vapidPublicKey: string | null; vapidPrivateKey: string | null; vapidSubject: string; pushAllowedOrigins: string[]; pollMs: number };
  /** Fixed seed for board generation (tests); null means crypto-random seeds. */
  boardSeed: number | null;
  /**
   * BOARD_SEED as written, or null: with it, each dice seed is SHA-256 of
   * "{BOARD_SEED}:{game_id}:{round}" (docs/game-rules.md §9; tests), else random.
   */
  diceSeedBase: string | null;
  /** Sign-in attempts (dev sign-in, Discord start and callback) allowed per client address per minute. */
  authRateLimit: number;
  /**
   * How long (ms) a cached game (server/games/cache.ts) is served without asking the database
   * whether its version is still current (GAME_CACHE_CHECK_MS, default 250; 0 = ask on every
   * read). Changes made through any server process reach the cache at once anyway; this bounds
   * how long a change that bypassed them (a rename of the game's clan or event, a direct write to
   * the database) can go unseen.
   */
  gameCacheCheckMs: number;
  /**
   * Games each process keeps in its game cache at most (GAME_CACHE_GAMES, default 1,000; the least
   * recently used go first). An entry of a 100-square board with tasks weighs about 0.25 MB
   * (measured), so the default holds at most about 250 MB. Set it above the number of games live
   * at once on one process: below that, joins and public reads rebuild games over and over.
   */
  gameCacheGames: number;
  /**
   * Percent the heap may grow after a full garbage collection before the next
   * (HEAP_GROWING_PERCENT, default 200: three times what survived; 0 = V8's own rule):
   * lifecycle/gcPolicy.ts applyHeapGrowth.
   */
  heapGrowingPercent: number;
  /**
   * Proxies in front of the server whose X-Forwarded-For is trusted (TRUST_PROXY: 0 = none, the
   * default; 1 or 'true' = one load balancer). The sign-in limit and the socket cap key on the
   * address this gives (docs/server.md §8). The header counts only from a trusted peer: loopback
   * or `trustedProxies` (http/clientAddress.ts).
   */
  trustProxy: number;
  /**
   * TRUSTED_PROXIES: comma-separated IP addresses and CIDR ranges of proxies on other machines
   * whose X-Forwarded-For counts besides loopback's (docs/server.md §14); empty by default.
   */
  trustedProxies: readonly string[];
  /** Open Socket.IO connections allowed per client address (docs/server.md §8: 100). */
  socketsPerAddress: number;
  /** Client socket events of each limit class per socket and per user a second (realtime/limits.ts socketLimits; docs/server.md §8: 5 and 10). */
  actionsPerSocket: number;
  actionsPerUser: number;
  /** join_game + tasks_reordered per client address a second over all its sockets (JOINS_PER_ADDRESS, 30). */
  joinsPerAddress: number;
  /** join_game + tasks_reordered per socket a second (JOINS_PER_SOCKET, 5). */
  joinsPerSocket: number;
  /** Folder of proof images when no S3 bucket is set (UPLOAD_DIR, default ./data/uploads; docs/server.md §9). */
  uploadDir: string;
  /**
   * Uploads (proof images, Dink posts, CSV files) a process reads, decodes and judges at once
   * (UPLOADS_IN_FLIGHT, default 4; docs/server.md §8): the rest wait, and are answered 503 after
   * uploadWaitMs.
   */
  uploadsInFlight: number;
  /**
   * How long an upload waits for a free slot before it is answered 503, in ms (UPLOAD_WAIT_MS,
   * default 10,000; docs/server.md §8). Read once at startup; tests shorten it.
   */
  uploadWaitMs: number;
  /**
   * How long an upload's body may send nothing before it is dropped with 408 and its slot freed
   * (UPLOAD_IDLE_MS, default 30,000; docs/server.md §8).
   */
  uploadIdleMs: number;
  /** S3-compatible object store of proof images (S3_BUCKET set), else null. */
  s3: S3Config | null;
  /** Discord announcements (docs/server.md §10). */
  announcements: AnnouncementConfig;
  /** LOG_LEVEL: the lowest pino level written (docs/server.md §14: fatal … trace, or silent); default info. */
  logLevel: LogLevel;
  /**
   * METRICS_TOKEN: `Authorization: Bearer <token>` opens GET /metrics to callers that are not on
   * loopback (docs/server.md §14); null (unset) = loopback only.
   */
  metricsToken: string | null;
  /** DB_COUNT_QUERIES=1: count every SQL statement in db_queries_total (benchmarks: bench/many.bench.ts); default off. */
  countQueries: boolean;
  /**
   * How long (ms) a SIGTERM or SIGINT lets in-flight requests and queued rolls finish before the
   * sockets are told `server_restarting` and closed (SHUTDOWN_GRACE_MS, default 10,000; 0 = do not
   * wait; docs/server.md §14).
   */
  shutdownGraceMs: number;
  /**
   * Wise Old Man's API (docs/server.md §16): WOM_API_URL (default its public v2 API, no trailing
   * slash), WOM_API_KEY (null = none) and WOM_BUDGET_SECONDS, the window of the look-up budget
   * (default 60: 20 look-ups a minute, 100 with a key; tests shorten it); WOM_CHECK_MINUTES, how
   * often a team on a Wise Old Man team-total square is checked again, as `checkMs` (default 15
   * minutes; a fraction is allowed, for tests; docs/server.md §17); WOM_QUEUE_POLL_MS, how often an
   * idle process looks in the shared queue for calls another process queued (default 500 ms).
   */
  wom: { apiUrl: string; apiKey: string | null; budgetSeconds: number; checkMs: number; queuePollMs: number };
  /**
   * Per-clan quotas (docs/server.md §18 "Quotas"): `uploadBytes`, the proof images a clan may keep
   * stored, in bytes (CLAN_UPLOAD_QUOTA_MB MiB, default 2,048 MiB), and `openEvents`, the events
   * whose end has not passed (or that have none) a clan may have at once (CLAN_OPEN_EVENTS, default 50).
   */
  quotas: { uploadBytes: number; openEvents: number };
}

/** The levels LOG_LEVEL may name (pino's, plus silent). */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** One of LOG_LEVELS. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL read case-insensitively; info when unset or not a level. */
function logLevelOf(text: string | undefined): LogLevel {
  const level = (text ?? '').trim().toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(level) ? (level as LogLevel) : 'info';
}

/** Discord announcement delivery (docs/server.md §10); everything but the origin exists for tests. */
export interface AnnouncementConfig {
  /** DISCORD_WEBHOOK_ORIGIN: replaces https://discord.com (and its siblings) as the one accepted webhook origin; null = Discord's. */
  webhookOrigin: string | null;
  /** DISCORD_POLL_MS: how often the worker looks for due announcements (default 1000 ms). */
  pollMs: number;
  /** DISCORD_LEASE_MS: how long a process holds a webhook while posting (default 30 s); a killed process's lease runs out after it. */
  leaseMs: number;
  /** DISCORD_ROLL_WINDOW_MS: rolls of one game within this window go out as one message (default 10 s). */
  rollWindowMs: number;
  /** DISCORD_BACKOFF_MS: first retry delay after a 5xx or timeout, doubling up to 5 minutes (default 1 s). */
  backoffMs: number;
  /** PUBLIC_ORIGIN (Config.publicOrigin): rolls and results carry the board picture only with it (docs/server.md §19). */
  publicOrigin: string | null;
}

/** An S3-compatible store (docs/server.md §9): bucket, optional endpoint (path-style then), region and keys. */
export interface S3Config {
  bucket: string;
  endpoint: string | null;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
}

/**
 * A whole-number setting of at least `min` from the environment; `fallback` when unset, empty or
 * anything else. `positive` (at least 1) and `nonNegative` (0 allowed) name the two uses.
 */
function wholeNumber(text: string | undefined, fallback: number, min: number): number {
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  return Number.isInteger(n) && n >= min ? n : fallback;
}
const positive = (text: string | undefined, fallback: number) => wholeNumber(text, fallback, 1);
const nonNegative = (text: string | undefined, fallback: number) => wholeNumber(text, fallback, 0);

/** A number of minutes above 0 (a fraction allowed) as ms; `fallback` minutes when unset or not such a number. */
function minutesMs(text: string | undefined, fallback: number): number {
  const minutes = text === undefined || text.trim() === '' ? NaN : Number(text);
  return Math.round((Number.isFinite(minutes) && minutes > 0 ? minutes : fallback) * 60_000);
}

/** TRUST_PROXY: 'true' → 1, a non-negative integer → itself, anything else → 0. */
function trustProxyHops(text: string | undefined): number {
  if (text === 'true') return 1;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 ? Math.min(n, 10) : 0;
}

/**
 * TRUSTED_PROXIES: entries separated by commas or spaces, each an IP address (IPv4-mapped IPv6 read
 * as IPv4) or a CIDR range ('10.0.0.0/8', 'fd00::/64'). Throws naming the first entry that is
 * neither, so a typo stops the start instead of silently trusting nobody (or the wrong range).
 */
function trustedProxiesOf(text: string | undefined): string[] {
  const entries = (text ?? '').split(/[\s,]+/).filter((e) => e.length > 0);
  return entries.map((entry) => {
    const [ip, prefix, ...rest] = entry.split('/');
    const family = isIP(ip);
    const bits = family === 4 ? 32 : 128;
    const okPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || rest.length > 0 || !okPrefix) {
      throw new Error(`TRUSTED_PROXIES: '${entry}' is not an IP address or CIDR range (e.g. 10.0.0.5 or 10.0.0.0/8)`);
    }
    const mapped = prefix === undefined && /^::ffff:\d/i.test(ip) && ip.includes('.');
    return mapped ? ip.slice(7) : entry;
  });
}

/** Reads the environment once; `env` defaults to process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  return {
    port: Number.isInteger(port) && port >= 0 ? port : 3000,
    host: env.HOST?.trim() || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || null,
    sqliteFile: env.SQLITE_FILE || './data/app.db',
    redisUrl: env.REDIS_URL || null,
    production: env.NODE_ENV === 'production',
    discord: {
      clientId: env.DISCORD_CLIENT_ID || null,
      clientSecret: env.DISCORD_CLIENT_SECRET || null,
      redirectUri: env.DISCORD_REDIRECT_URI || null,
      authorizeUrl: env.DISCORD_AUTHORIZE_URL || 'https://discord.com/oauth2/authorize',
      tokenUrl: env.DISCORD_TOKEN_URL || 'https://discord.com/api/oauth2/token',
      userUrl: env.DISCORD_USER_URL || 'https://discord.com/api/users/@me',
    },
    discordApp: {
      publicKey: env.DISCORD_PUBLIC_KEY?.trim() || null,
      applicationId: env.DISCORD_APPLICATION_ID?.trim() || null,
      botToken: env.DISCORD_BOT_TOKEN?.trim() || null,
      apiUrl: (env.DISCORD_API_URL?.trim() || 'https://discord.com/api/v10').replace(/\/+$/, ''),
      deferMs: nonNegative(env.DISCORD_DEFER_MS, 2000),
    },
    sessionTtlMs: 30 * 24 * 3600 * 1000,
    clientDir: env.CLIENT_DIR || './dist',
    publicOrigin: originOf(env.PUBLIC_ORIGIN),
    push: {
      vapidPublicKey: env.VAPID_PUBLIC_KEY?.trim() || null,
      vapidPrivateKey: env.VAPID_PRIVATE_KEY?.trim() || null,
      vapidSubject: env.VAPID_SUBJECT?.trim() || 'mailto:admin@localhost',
      pushAllowedOrigins: (env.PUSH_ALLOWED_ORIGINS ?? '').split(',').map((o) => originOf(o.trim())).filter((o): o is string => o !== null),
      pollMs: positive(env.PUSH_POLL_MS, 1000),
    },
    boardSeed: env.BOARD_SEED ? Number(env.BOARD_SEED) : null,
    diceSeedBase: env.BOARD_SEED || null,
    authRateLimit: Number(env.AUTH_RATE_LIMIT) > 0 ? Number(env.AUTH_RATE_LIMIT) : 30,
    gameCacheCheckMs: nonNegative(env.GAME_CACHE_CHECK_MS, 250),
    gameCacheGames: positive(env.GAME_CACHE_GAMES, 1000),
    heapGrowingPercent: nonNegative(env.HEAP_GROWING_PERCENT, 200),
    trustProxy: trustProxyHops(env.TRUST_PROXY),
    trustedProxies: trustedProxiesOf(env.TRUSTED_PROXIES),
    socketsPerAddress: positive(env.SOCKETS_PER_ADDRESS, 100),
    actionsPerSocket: positive(env.ROLLS_PER_SOCKET, 5),
    actionsPerUser: positive(env.ROLLS_PER_USER, 10),
    joinsPerAddress: positive(env.JOINS_PER_ADDRESS, 30),
    joinsPerSocket: positive(env.JOINS_PER_SOCKET, 5),
    uploadDir: env.UPLOAD_DIR || './data/uploads',
    uploadsInFlight: positive(env.UPLOADS_IN_FLIGHT, 4),
    uploadWaitMs: positive(env.UPLOAD_WAIT_MS, 10_000),
    uploadIdleMs: positive(env.UPLOAD_IDLE_MS, 30_000),
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT || null,
          region: env.S3_REGION || 'us-east-1',
          accessKeyId: env.S3_ACCESS_KEY_ID || null,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY || null,
        }
      : null,
    announcements: {
      webhookOrigin: originOf(env.DISCORD_WEBHOOK_ORIGIN),
      pollMs: positive(env.DISCORD_POLL_MS, 1000),
      leaseMs: positive(env.DISCORD_LEASE_MS, 30_000),
      rollWindowMs: positive(env.DISCORD_ROLL_WINDOW_MS, 10_000),
      backoffMs: positive(env.DISCORD_BACKOFF_MS, 1000),
      publicOrigin: originOf(env.PUBLIC_ORIGIN),
    },
    logLevel: logLevelOf(env.LOG_LEVEL),
    metricsToken: env.METRICS_TOKEN || null,
    countQueries: env.DB_COUNT_QUERIES === '1',
    shutdownGraceMs: nonNegative(env.SHUTDOWN_GRACE_MS, 10_000),
    wom: {
      apiUrl: (env.WOM_API_URL || 'https://api.wiseoldman.net/v2').replace(/\/+$/, ''),
      apiKey: env.WOM_API_KEY || null,
      budgetSeconds: positive(env.WOM_BUDGET_SECONDS, 60),
      checkMs: minutesMs(env.WOM_CHECK_MINUTES, 15),
      queuePollMs: positive(env.WOM_QUEUE_POLL_MS, 500),
    },
    quotas: {
      uploadBytes: positive(env.CLAN_UPLOAD_QUOTA_MB, 2048) * 1024 * 1024,
      openEvents: positive(env.CLAN_OPEN_EVENTS, 50),
    },
  };
}

/** The origin of a URL (e.g. http://127.0.0.1:4000), or null for none or an unparsable one. */
function originOf(text: string | undefined): string | null {
  if (!text) return null;
  try {
    return new URL(text).origin;
  } catch {
    return null;
  }
}

/** Discord sign-in is configured when a client id is set (the auth start path needs it). */
export function discordLoginEnabled(config: Config): boolean {
  return Boolean(config.discord.clientId);
}

/** Development sign-in is on only without a Discord client and outside production (docs/server.md §2). */
export function devLoginEnabled(config: Config): boolean {
  return !config.production && !config.discord.clientId;
}
