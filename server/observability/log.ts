import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
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

/** The last millisecond's `,"time":"<ISO>"` field, reused while Date.now() stays the same. */
let lastTime = { ms: -1, field: '' };

/**
 * pino's `time` field as an ISO string (the same text as pino's stdTimeFunctions.isoTime), built
 * once per millisecond: a busy process writes several lines a millisecond, and building the date
 * text was the most expensive part of a request line after its write.
 */
function isoTimeOfThisMs(): string {
  const ms = Date.now();
  if (ms !== lastTime.ms) lastTime = { ms, field: `,"time":"${new Date(ms).toISOString()}"` };
  return lastTime.field;
}

/**
 * The pino options of this process: LOG_LEVEL, ISO times, the level as its name ('info') in JSON
 * lines, the secret keys redacted, no pid/hostname (the service manager adds its own).
 */
function options(config: Pick<Config, 'logLevel'>, json: boolean): LoggerOptions {
  return {
    level: config.logLevel,
    base: undefined,
    timestamp: isoTimeOfThisMs,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    // pino-pretty reads the numeric level; JSON lines carry its name.
    ...(json ? { formatters: { level: (label: string) => ({ level: label }) } } : {}),
  };
}

/** Log characters gathered before they are handed to the writer (about 100 request lines). */
const LOG_BATCH_CHARS = 16_384;
/** The longest a log line waits for its write (ms). */
const LOG_FLUSH_MS = 50;

/**
 * Whole JSON lines gathered in an array and handed to pino's sonic-boom writer one batch at a
 * time (up to LOG_BATCH_CHARS, or LOG_FLUSH_MS after the first line of a batch), so sonic-boom
 * (which measures its pending text's bytes on every write it is given) sees one write per batch
 * instead of one per line, and the file descriptor one write per batch. sonic-boom still does
 * the writing itself (asynchronous, EAGAIN retries, flushSync).
 */
class LineBatches implements DestinationStream {
  private lines: string[] = [];
  private chars = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly writer: ReturnType<typeof pino.destination>) {}

  /** Takes one line (pino gives whole lines); a full batch goes to the writer at once. */
  write(line: string): void {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= LOG_BATCH_CHARS) this.hand();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.hand(), LOG_FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Hands what is gathered to the writer (asynchronous write). */
  private hand(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.lines.length === 0) return;
    const text = this.lines.join('');
    this.lines = [];
    this.chars = 0;
    this.writer.write(text);
  }

  /** Writes everything gathered and pending synchronously (process exit). */
  flushSync(): void {
    this.hand();
    this.writer.flushSync();
  }
}

/**
 * Where lines go: one JSON object per line on stdout, or pino-pretty's readable lines when a
 * person runs the server in a terminal (stdout is a TTY) outside production. The JSON lines are
 * written asynchronously in batches (LineBatches over pino's sonic-boom destination), so a busy
 * process makes one write for many lines instead of one each, and a quiet one shows a line within
 * LOG_FLUSH_MS. What is still gathered when the process exits (process.exit included) is written
 * synchronously then, so nothing is lost on a shutdown or a fatal error.
 */
function destination(config: Pick<Config, 'production'>): { json: boolean; stream: DestinationStream } {
  if (process.stdout.isTTY && !config.production) return { json: false, stream: pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l' }) };
  const stream = new LineBatches(pino.destination({ dest: 1, sync: false }));
  process.on('exit', () => {
    try {
      stream.flushSync();
    } catch {
      // Not opened yet or already closed: nothing is buffered.
    }
  });
  return { json: true, stream };
}

/** The process's destination and config, built once: both loggers below write to the same stream. */
const processConfig = loadConfig();
const processDestination = destination(processConfig);

/**
 * The one logger of the server process (pino; docs/server.md §14). Lines carry `level`, `time`,
 * `msg` and fields named in snake_case: `game_id`, `team_id`, `version` for rolls and reverts
 * (games/socket.ts), `err` for failures (message and stack). Secret keys are redacted.
 */
export const log: Logger = pino(options(processConfig, processDestination.json), processDestination.stream);

/**
 * The logger of lines built from fixed, non-secret fields only (docs/server.md §14): request lines
 * (observability/requests.ts: `request_id` checked against its character set, `method`, the route
 * pattern, `status`, `duration_ms`) and applied rolls and reverts (games/socket.ts: ids,
 * version, status). The same level, time, format and stream as `log`, without the redaction,
 * since such a line never holds a caller's object: pino's wildcard redaction costs about 30 µs a
 * line (4x the line itself), which every answer and roll paid. Anything else goes through `log`.
 */
export const plainLog: Logger = pino({ ...options(processConfig, processDestination.json), redact: undefined }, processDestination.stream);
