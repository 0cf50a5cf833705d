import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { createRequire } from 'node:module';
import type PinoPretty from 'pino-pretty';
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

/** isoTimeOfThisMs's field as bytes, made at most once per millisecond (for lines written as bytes). */
let lastTimeBytes = { ms: -1, bytes: Buffer.alloc(0) };

/** The `,"time":"<ISO>"` field of now as bytes (isoTimeOfThisMs's text). */
function isoTimeBytesOfThisMs(): Buffer {
  const field = isoTimeOfThisMs();
  if (lastTime.ms !== lastTimeBytes.ms) lastTimeBytes = { ms: lastTime.ms, bytes: Buffer.from(field, 'latin1') };
  return lastTimeBytes.bytes;
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

/**
 * Log bytes gathered before they are handed to the writer (about 280 request lines, the default
 * capacity of a Linux pipe). Each hand-over is one write on libuv's thread pool, which costs the
 * process a thread's wake-up and the completion's return besides the write itself: per request
 * line, 16 K batches cost about twice what 64 K ones do on a loaded machine.
 */
const LOG_BATCH_BYTES = 65_536;
/** Room past LOG_BATCH_BYTES for the line that fills a batch (a line longer than a third of it is written by itself). */
const LOG_BATCH_ROOM = 16_384;
/** The longest a log line waits for its write (ms). */
const LOG_FLUSH_MS = 50;

/** Full batch buffers kept for reuse once written (LineBatches). */
const LOG_SPARE_BATCHES = 4;
/** A batch up to this size is handed as a copy, its buffer kept (a quiet process's flushes). */
const LOG_SMALL_BATCH_BYTES = 8_192;

/**
 * What LineBatches hands its batches to: pino's sonic-boom destination in buffer mode, which
 * writes what it is given in order and says how many bytes each write took ('write').
 */
interface ByteWriter {
  write(bytes: Buffer): unknown;
  flushSync(): void;
  on(event: 'write', listener: (bytes: number) => void): unknown;
}

/**
 * Whole JSON lines written as UTF-8 into a Buffer as they come and handed to pino's sonic-boom
 * writer one batch at a time (LOG_BATCH_BYTES or more, or LOG_FLUSH_MS after the first line of a
 * batch): sonic-boom sees one write per batch instead of one per line, and so does the file
 * descriptor. A line's text is garbage as soon as it is copied, and a batch's bytes live outside
 * the JavaScript heap: kept as strings until their batch was joined, every line was copied by the
 * young-generation collections in between, the largest cost of logging every answer after the
 * write itself. A full batch's buffer is reused once sonic-boom has written all of it (its
 * 'write' counts, in order): a new buffer per batch, memory outside the heap, brought full
 * collections every few seconds under load. sonic-boom still does the writing (asynchronous,
 * partial writes and EAGAIN retried, flushSync).
 */
export class LineBatches implements DestinationStream {
  private batch: Buffer = Buffer.allocUnsafe(LOG_BATCH_BYTES + LOG_BATCH_ROOM);
  private used = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Bytes handed to the writer, and bytes it says it wrote, since the start. */
  private handed = 0;
  private written = 0;
  /** Full batch buffers handed and not yet all written, with `handed` at their end (oldest first). */
  private readonly writing: { buffer: Buffer; end: number }[] = [];
  /** Buffers all written, for the next batches. */
  private readonly spare: Buffer[] = [];

  constructor(private readonly writer: ByteWriter) {
    writer.on('write', (bytes) => {
      this.written += bytes;
      while (this.writing.length > 0 && this.writing[0].end <= this.written) {
        const done = this.writing.shift()!;
        if (this.spare.length < LOG_SPARE_BATCHES) this.spare.push(done.buffer);
      }
    });
  }

  /** Takes one line (pino gives whole lines); a full batch goes to the writer at once. */
  write(line: string): void {
    // A UTF-16 unit takes at most 3 bytes in UTF-8.
    if (this.used + line.length * 3 > this.batch.length) {
      this.hand();
      if (line.length * 3 > this.batch.length) {
        this.give(Buffer.from(line));
        return;
      }
    }
    this.used += this.batch.write(line, this.used);
    this.lineWritten();
  }

  /**
   * Takes one line that `encode` writes straight into the batch as bytes, from `at` to at most
   * `at + maxBytes` (at most LOG_BATCH_ROOM), answering where it ended: no line text is built
   * (fixedLineWriter's request lines).
   */
  writeEncoded(maxBytes: number, encode: (batch: Buffer, at: number) => number): void {
    if (this.used + maxBytes > this.batch.length) this.hand();
    this.used = encode(this.batch, this.used);
    this.lineWritten();
  }

  /** After a line: a full batch goes to the writer; else the first line of a batch starts its LOG_FLUSH_MS. */
  private lineWritten(): void {
    if (this.used >= LOG_BATCH_BYTES) this.hand();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.hand(), LOG_FLUSH_MS);
      this.timer.unref();
    }
  }

  /**
   * Hands what is gathered to the writer (asynchronous write): a full batch as it is, the next
   * one going into a spare buffer or a new one; a small one (a quiet process's flush) as a copy,
   * its buffer kept.
   */
  private hand(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.used === 0) return;
    if (this.used <= LOG_SMALL_BATCH_BYTES) this.give(Buffer.from(this.batch.subarray(0, this.used)));
    else {
      const full = this.batch;
      this.give(full.subarray(0, this.used));
      this.writing.push({ buffer: full, end: this.handed });
      this.batch = this.spare.pop() ?? Buffer.allocUnsafe(LOG_BATCH_BYTES + LOG_BATCH_ROOM);
    }
    this.used = 0;
  }

  /** Hands `bytes` to the writer, counting them. */
  private give(bytes: Buffer): void {
    this.handed += bytes.length;
    this.writer.write(bytes);
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
  if (process.stdout.isTTY && !config.production) {
    // Required only here, for a person at a terminal: a server whose output is piped (a
    // service, a container, every test process) never loads it.
    const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
    return { json: false, stream: pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l' }) };
  }
  // In buffer mode sonic-boom takes Buffers (its types name only strings).
  const stream = new LineBatches(pino.destination({ dest: 1, sync: false, contentMode: 'buffer' }) as unknown as ByteWriter);
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
export const plainLog: Logger = plainLoggerTo(processDestination.stream, processDestination.json);

/**
 * A logger of fixed-field lines (plainLog's kind: the process's level, time and format, no
 * redaction) writing to `stream`, JSON lines unless `json` is false. plainLog is the process's
 * one; tests build one over a stream of their own to compare fixedLineWriter's lines with pino's.
 */
export function plainLoggerTo(stream: DestinationStream, json = true): Logger {
  return pino({ ...options(processConfig, json), redact: undefined }, stream);
}

/** The fields a request line shares with every answer of its kind (observability/requests.ts). */
export interface LineBindings {
  method: string;
  route: string;
  status: number;
}

/** The levels a request line is written at (error for a 5xx, debug for the probes, else info). */
export type LineLevel = 'debug' | 'info' | 'error';

/**
 * A duration in hundredths of a millisecond (a whole number, at least 0) as JSON writes
 * `hundredths / 100`: '0', '0.05', '0.5', '1.23', '12' (the same text; integer arithmetic instead
 * of the double's shortest-text search, which cost ~0.4 µs a line).
 */
function hundredthsText(hundredths: number): string {
  const whole = Math.trunc(hundredths / 100);
  const frac = hundredths - whole * 100;
  if (frac === 0) return `${whole}`;
  if (frac % 10 === 0) return `${whole}.${frac / 10}`;
  return frac < 10 ? `${whole}.0${frac}` : `${whole}.${frac}`;
}

/** Below this many hundredths of a ms (about 116 days) writeHundredths writes the digits itself. */
const DIGITS_WRITTEN_BELOW = 1e12;

/** Writes hundredthsText(hundredths) into `buf` at `at` as ASCII digits; answers where it ended. */
function writeHundredths(buf: Buffer, at: number, hundredths: number): number {
  if (hundredths >= DIGITS_WRITTEN_BELOW) return at + buf.write(hundredthsText(hundredths), at, 'latin1');
  let whole = Math.trunc(hundredths / 100);
  const frac = hundredths - whole * 100;
  let digits = 1;
  for (let p = 10; p <= whole; p *= 10) digits += 1;
  const end = at + digits;
  for (let i = end - 1; i >= at; i -= 1) {
    buf[i] = 48 + (whole % 10);
    whole = Math.trunc(whole / 10);
  }
  if (frac === 0) return end;
  buf[end] = 46; // '.'
  buf[end + 1] = 48 + Math.trunc(frac / 10);
  if (frac % 10 === 0) return end + 2;
  buf[end + 2] = 48 + (frac % 10);
  return end + 3;
}

/** Copies `part` into `buf` at `at`; answers where it ended. */
function put(buf: Buffer, at: number, part: Buffer): number {
  buf.set(part, at);
  return at + part.length;
}

/**
 * The writer of one kind of request line: `logger.child(bindings)[level]({request_id, duration_ms}, msg)`,
 * each call giving the answer's request id and duration (ms, written rounded to 0.01 ms). With
 * `stream` (JSON lines: the one `logger` writes to) the line is put together here, the same
 * bytes pino writes for that call (level name, the time of this millisecond, the bindings,
 * request_id, duration_ms, msg, in that order), and handed to `stream` itself: into a
 * LineBatches' batch as bytes (its fixed parts encoded once, no line text built), to any other
 * stream as one string. pino's own call (its level dispatch, the object serialised key by key,
 * its write chain) cost ~1-4 µs a line, the largest part of a cached public game's answer after
 * its write (bench/RESULTS.md). Nothing is written while `level` is below the logger's level,
 * read at each call. Without `stream` (pino-pretty in a terminal) the child's own call. The
 * request id must be one requestIdOf answers (1-128 of A-Za-z0-9._:- or a UUID): it is written as
 * it is, as no character of that set needs escaping in JSON.
 */
export function fixedLineWriter(logger: Logger, stream: DestinationStream | null, bindings: LineBindings, level: LineLevel, msg: string): (requestId: string, durationMs: number) => void {
  if (!stream) {
    const child = logger.child(bindings);
    const write = child[level].bind(child);
    return (requestId, durationMs) => write({ request_id: requestId, duration_ms: Math.round(durationMs * 100) / 100 }, msg);
  }
  const levelValue = logger.levels.values[level];
  const head = `{"level":${JSON.stringify(level)}`;
  const fields = `,"method":${JSON.stringify(bindings.method)},"route":${JSON.stringify(bindings.route)},"status":${JSON.stringify(bindings.status)},"request_id":"`;
  const duration = '","duration_ms":';
  const tail = `,"msg":${JSON.stringify(msg)}}\n`;
  if (stream instanceof LineBatches) {
    const [headBytes, fieldsBytes, durationBytes, tailBytes] = [head, fields, duration, tail].map((part) => Buffer.from(part));
    // The time field (33 bytes until the year 10000), a request id of up to 128, a duration of up to 16 digits and its point.
    const maxBytes = headBytes.length + 40 + fieldsBytes.length + 128 + durationBytes.length + 20 + tailBytes.length;
    if (maxBytes <= LOG_BATCH_ROOM) {
      let requestId = '';
      let hundredths = 0;
      const encode = (batch: Buffer, at: number): number => {
        let end = put(batch, at, headBytes);
        end = put(batch, end, isoTimeBytesOfThisMs());
        end = put(batch, end, fieldsBytes);
        end += batch.write(requestId, end, 'latin1');
        end = put(batch, end, durationBytes);
        end = writeHundredths(batch, end, hundredths);
        return put(batch, end, tailBytes);
      };
      return (id, durationMs) => {
        if (levelValue < logger.levelVal) return;
        requestId = id;
        hundredths = Math.round(durationMs * 100);
        stream.writeEncoded(maxBytes, encode);
      };
    }
  }
  return (requestId, durationMs) => {
    if (levelValue < logger.levelVal) return;
    stream.write(`${head}${isoTimeOfThisMs()}${fields}${requestId}${duration}${hundredthsText(Math.round(durationMs * 100))}${tail}`);
  };
}

/**
 * fixedLineWriter over plainLog and the process's stream: the request lines of
 * observability/requests.ts (pino-pretty's own calls when stdout is a terminal).
 */
export function requestLineWriter(bindings: LineBindings, level: LineLevel, msg: string): (requestId: string, durationMs: number) => void {
  return fixedLineWriter(plainLog, processDestination.json ? processDestination.stream : null, bindings, level, msg);
}
