import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, Deps } from './context';
import { discardUnread } from './bodyLimit';
import { countUploadBusy, setUploadGauges } from '../observability/metrics';
import { ApiError } from '../errors';

// The upload gate and the streaming multipart reader (docs/server.md §8): proof images, Dink
// posts and CSV files are read, decoded and judged at most UPLOADS_IN_FLIGHT at a time per
// process, so a burst of large posts costs a bounded amount of memory and leaves the event loop
// free for everyone else.

/**
 * The Retry-After of an upload answered 503 after waiting for a slot, in seconds (docs/server.md
 * §8): the default wait (UPLOAD_WAIT_MS, config.uploadWaitMs), kept when a shorter wait is set.
 */
const RETRY_AFTER_S = 10;
/** The 503 text of an upload that waited too long. */
const UPLOADS_BUSY = 'The server is busy with other uploads. Try again in a few seconds.';
/** Leading bytes of every file part kept even past its limit, so its type can still be told from them. */
const HEAD_BYTES = 16;
/** The 408 text of an upload whose body sent nothing for UPLOAD_IDLE_MS. */
const UPLOAD_STALLED = 'The upload stalled: nothing arrived for a while. Send it again.';

/** Frees a slot once; later calls do nothing. */
type Release = () => void;

/** A counting semaphore with a FIFO queue whose waiters give up after a while; its counts go to the metrics. */
class UploadGate {
  private held = 0;
  private readonly queue: { grant: (release: Release) => void }[] = [];

  constructor(private readonly size: number) {}

  /** Shows the slots held and the uploads waiting (uploads_in_flight, uploads_waiting; docs/server.md §14). */
  private show(): void {
    setUploadGauges(this.held, this.queue.length);
  }

  /** A slot's release, at once or when one frees up; null after `waitMs` or once `signal` aborts. */
  acquire(waitMs: number, signal: AbortSignal): Promise<Release | null> {
    if (this.held < this.size && this.queue.length === 0) {
      this.held++;
      this.show();
      return Promise.resolve(this.releaser());
    }
    if (signal.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const leave = (release: Release | null) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', giveUp);
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        this.show();
        resolve(release);
      };
      const giveUp = () => leave(null);
      const waiter = { grant: leave };
      const timer = setTimeout(giveUp, waitMs);
      signal.addEventListener('abort', giveUp, { once: true });
      this.queue.push(waiter);
      this.show();
    });
  }

  /** A release that hands the slot to the first waiter, or frees it. */
  private releaser(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.queue.shift();
      if (next) next.grant(this.releaser());
      else this.held--;
      this.show();
    };
  }
}

/** One gate per app (its Deps): one app per process in production, so one gate per process. */
const gates = new WeakMap<Deps, UploadGate>();
/** The slot each gated request holds, and whether its handler took it over (keepUploadSlot). */
const slots = new WeakMap<Context<AppEnv>, { release: Release; kept: boolean }>();

/** The request's declared Content-Length in bytes, or null when none (or chunked). */
function declaredLength(c: Context<AppEnv>): number | null {
  const text = c.req.header('content-length');
  if (text === undefined || c.req.header('transfer-encoding') !== undefined) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/**
 * The upload gate of a route (docs/server.md §8): put it after the route's permission checks and
 * before its routeBodyLimit, so nothing of the body is read before a slot is held (an unread body
 * waits in the kernel's socket buffers, Node pausing the socket). At most UPLOADS_IN_FLIGHT
 * requests of the process hold a slot at once; the rest wait in order, and one that waited
 * UPLOAD_WAIT_MS (config.uploadWaitMs, default 10 s) is answered 503 `{"error": UPLOADS_BUSY}`
 * with `Retry-After: 10` (its body read and dropped first, so the client reads the answer). A body declared over `maxBytes` does not wait: the
 * routeBodyLimit that follows refuses it unread with the route's 413. The slot is freed when the
 * handler's answer is made, unless the handler took it over with keepUploadSlot.
 */
export function uploadGate(maxBytes: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const declared = declaredLength(c);
    if (declared !== null && declared > maxBytes) return next();
    const deps = c.get('deps');
    let gate = gates.get(deps);
    if (!gate) {
      gate = new UploadGate(deps.config.uploadsInFlight);
      gates.set(deps, gate);
    }
    const release = await gate.acquire(deps.config.uploadWaitMs, c.req.raw.signal);
    if (!release) {
      countUploadBusy();
      const drained = await discardUnread(c.req.raw);
      return c.json({ error: UPLOADS_BUSY }, 503, { 'Retry-After': String(RETRY_AFTER_S), ...(drained ? {} : { Connection: 'close' }) });
    }
    const slot = { release, kept: false };
    slots.set(c, slot);
    try {
      await next();
    } finally {
      if (!slot.kept) release();
    }
  };
}

/**
 * Takes over the request's upload slot, for a handler whose work goes on after its answer (the
 * Dink judging, docs/server.md §13): the caller must call the returned release once that work
 * is done, failed or not. Throws when the route has no uploadGate (a programming error).
 */
export function keepUploadSlot(c: Context<AppEnv>): Release {
  const slot = slots.get(c);
  if (!slot) throw new Error('keepUploadSlot: the route has no uploadGate');
  slot.kept = true;
  return slot.release;
}

/** A file part of an upload. */
export interface UploadFile {
  /** The part's file name as sent ('' when empty). */
  filename: string;
  /** Bytes the part carried. */
  size: number;
  /** Its first bytes (at most 16), kept even past the limit. */
  head: Buffer;
  /** The whole file, or null when it is over the reader's limit (then only `size` and `head` are known). */
  bytes: Buffer | null;
}

/** The text fields and file parts of an upload by field name; a name given twice keeps the last. */
export interface UploadForm {
  fields: Record<string, string>;
  files: Record<string, UploadFile>;
}

/**
 * Reads a multipart/form-data (or application/x-www-form-urlencoded) body as it arrives, with
 * busboy (docs/server.md §8): text fields whole, each file part into memory up to `fileMaxBytes`
 * bytes and past that only counted, so no more than the body's own size is ever held (the route's
 * routeBodyLimit bounds that) and nothing is kept once the answer is made. A body of another
 * type reads as an empty form, unread (as Hono's parseBody did). Null for a multipart body that
 * does not parse (no boundary, cut short): each route answers its own 400. A body that sends
 * nothing for UPLOAD_IDLE_MS (default 30 s) is dropped with 408 `{"error": UPLOAD_STALLED}`, so a
 * stalled client frees its slot instead of holding it until Node's request timeout (5 minutes).
 */
export async function readUploadForm(c: Context<AppEnv>, fileMaxBytes: number): Promise<UploadForm | null> {
  const type = c.req.header('content-type') ?? '';
  const form: UploadForm = { fields: {}, files: {} };
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type.trim())) return form;
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { 'content-type': type }, defParamCharset: 'utf8', limits: { fieldSize: Infinity } });
  } catch {
    return null;
  }
  parser.on('field', (name, value) => {
    form.fields[name] = value;
  });
  parser.on('file', (name, stream, info) => {
    let chunks: Buffer[] | null = [];
    let size = 0;
    let head = Buffer.alloc(0);
    stream.on('data', (chunk: Buffer) => {
      if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
      size += chunk.length;
      if (size > fileMaxBytes) chunks = null;
      else chunks?.push(chunk);
    });
    // busboy also reports a broken part on the parser, which rejects the pipeline below.
    stream.on('error', () => undefined);
    stream.on('end', () => {
      form.files[name] = { filename: info.filename ?? '', size, head, bytes: chunks ? Buffer.concat(chunks, size) : null };
      chunks = null;
    });
  });
  const body = c.req.raw.body;
  const source = body ? Readable.fromWeb(body as NodeReadableStream<Uint8Array>) : Readable.from([]);
  let stalled = false;
  const idle = setTimeout(() => {
    stalled = true;
    source.destroy(new Error(UPLOAD_STALLED));
  }, c.get('deps').config.uploadIdleMs);
  const watch = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      idle.refresh();
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, watch, parser);
  } catch {
    if (stalled) throw new ApiError(408, UPLOAD_STALLED);
    return null;
  } finally {
    clearTimeout(idle);
  }
  return form;
}
