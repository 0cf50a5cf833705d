import { pino, stdTimeFunctions, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { loadConfig, type Config } from '../config';

/**
 * Keys whose values never reach a log line (docs/server.md §14: no session id, cookie, webhook
 * token or URL, Dink token or OAuth secret), at the top of a line's object and one level down
 * (`{err: {...}}`, `{user: {...}}`). They are replaced, not dropped, so a line still shows that
 * the value was there. Code logs ids, route patterns and counts, never headers, bodies or URLs;
 * this list is the net under that rule.
 */
const SECRET_KEYS = [
  'cookie',
  'cookies',
  'authorization',
  'sid',
  'sessionId',
  'session_id',
  'token',
  'access_token',
  'refresh_token',
  'dink_token',
  'webhook_url',
  'webhookUrl',
  'client_secret',
  'clientSecret',
  'secret',
  'password',
  'code_verifier',
];
const REDACT_PATHS = [...SECRET_KEYS, ...SECRET_KEYS.map((k) => `*.${k}`), 'headers', '*.headers'];

/**
 * The pino options of this process: LOG_LEVEL, ISO times, the level as its name ('info') in JSON
 * lines, the secret keys redacted, no pid/hostname (the service manager adds its own).
 */
function options(config: Pick<Config, 'logLevel'>, json: boolean): LoggerOptions {
  return {
    level: config.logLevel,
    base: undefined,
    timestamp: stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    // pino-pretty reads the numeric level; JSON lines carry its name.
    ...(json ? { formatters: { level: (label: string) => ({ level: label }) } } : {}),
  };
}

/**
 * Where lines go: one JSON object per line on stdout (synchronous writes, so nothing is lost when
 * the process exits), or pino-pretty's readable lines when a person runs the server in a terminal
 * (stdout is a TTY) outside production.
 */
function destination(config: Pick<Config, 'production'>): { json: boolean; stream: DestinationStream } {
  if (process.stdout.isTTY && !config.production) return { json: false, stream: pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l' }) };
  return { json: true, stream: pino.destination({ dest: 1, sync: true }) };
}

/** Builds the process's logger from the environment (config.ts: LOG_LEVEL, NODE_ENV). */
function processLogger(): Logger {
  const config = loadConfig();
  const { json, stream } = destination(config);
  return pino(options(config, json), stream);
}

/**
 * The one logger of the server process (pino; docs/server.md §14). Lines carry `level`, `time`,
 * `msg` and fields named in snake_case: `request_id`, `method`, `route`, `status`, `duration_ms`
 * for requests (observability/requests.ts), `game_id`, `team_id`, `version` for rolls and reverts
 * (realtime/handlers.ts), `err` for failures (message and stack).
 */
export const log: Logger = processLogger();
