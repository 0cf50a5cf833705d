import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { PushPayload } from '../../contract/push';
import type { Database } from '../db/schema';
import type { Config } from '../config';
import { log } from '../observability/log';
import {
  claimPushes,
  claimWaiting,
  clanManagerIds,
  deletePush,
  dropSubscription,
  duePushes,
  dueWaiting,
  enqueuePush,
  retryPush,
  waitingOfClan,
  withSwitchOn,
  type QueuedPush,
} from './repository';
import { loadWebPush, vapidKeys } from './vapid';

/** Each send waits this long at most, in ms (docs/server.md §20). */
const SEND_TIMEOUT_MS = 5000;
/** A push's lifetime at the push service, in seconds (the TTL header). */
const TTL_SECONDS = 3600;
/** A push still failing with 429 or 5xx this long after it was queued is given up, in ms. */
const RETRY_FOR_MS = 10 * 60 * 1000;
/** A claim older than this is taken as a process that died while sending, in ms. */
const STALE_CLAIM_MS = 60 * 1000;
/**
 * Pushes taken per look at the queue, and sent at once: a push service answering slowly (up to the
 * 5 s timeout) then costs one wait per batch rather than one per push, about 10 pushes a second per
 * process even against a 5-s service instead of 0.2.
 */
const BATCH = 50;

/** How long one signed VAPID header (a JWT valid 12 hours, web-push's default) is reused for its push service, in ms. */
const VAPID_HEADER_MS = 60 * 60 * 1000;
/** Signed VAPID Authorization headers by push service origin and public key, each kept VAPID_HEADER_MS (lru-cache, at most 1,000). */
const vapidHeaders = new LRUCache<string, string>({ max: 1000, ttl: VAPID_HEADER_MS });

/**
 * The VAPID Authorization header for a push service's origin (RFC 8292: the JWT's audience is the
 * origin, so one signature serves every subscription there): signed with web-push, then reused for
 * an hour rather than signing an ES256 JWT for every push on the event loop the rolls share.
 */
function vapidAuthorization(webPush: Awaited<ReturnType<typeof loadWebPush>>, endpoint: string, subject: string, keys: { publicKey: string; privateKey: string }): string {
  const audience = new URL(endpoint).origin;
  const key = `${audience} ${keys.publicKey}`;
  const kept = vapidHeaders.get(key);
  if (kept) return kept;
  const authorization = webPush.getVapidHeaders(audience, subject, keys.publicKey, keys.privateKey, 'aes128gcm').Authorization;
  vapidHeaders.set(key, authorization);
  return authorization;
}

/** The 'Proof waiting' notification of clan `clanId` (docs/server.md §20), counting `clan.count` proofs waiting: as a push and in the page. */
export function proofWaitingPayload(clanId: number, clan: { count: number; name: string }): PushPayload {
  return { title: 'Proof waiting', body: `${clan.count} waiting for review in ${clan.name}.`, url: `/clans/manage/${clanId}/reviews`, tag: `reviews-${clanId}` };
}

/** The workers of this process: a push queued here is sent at once rather than at the next look. */
const WORKERS = new Set<PushWorker>();

/** Asks this process's workers to look at the queue now (after something was queued). */
export function kickPushWorkers(): void {
  for (const w of WORKERS) w.kick();
}

/** The wait before try `attempts + 1`, in ms: 1 s doubling, at most a minute; Retry-After when longer. */
function backoffMs(attempts: number, retryAfter: string | null): number {
  const base = Math.min(60_000, 1000 * 2 ** Math.max(0, attempts - 1));
  const said = retryAfter && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) * 1000 : 0;
  return Math.min(Math.max(base, said), RETRY_FOR_MS);
}

/**
 * The push sender (docs/server.md §20), one in every process: every PUSH_POLL_MS (and when this
 * process queued something) it turns due 'Proof waiting' marks into pushes, then claims due pushes
 * a batch at a time (repository.ts claimPushes: one conditional UPDATE, so with several processes
 * each push is sent once) and sends the batch's pushes side by side, writing their outcomes one at
 * a time, each as Web Push with web-push's VAPID signature and RFC 8291 aes128gcm encryption (TTL
 * 3600, 5 s at most). 2xx: done; 404 or 410: the subscription is removed; 429, 5xx, a timeout or a
 * network failure: tried again with backoff until 10 minutes after it was queued; any other answer:
 * dropped. Runs apart from every request.
 */
export class PushWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** The outcome writes of the sends under way, chained (see serially). */
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Kysely<Database>, private readonly config: Config) {}

  /** Starts looking at the queue. */
  start(): void {
    WORKERS.add(this);
    this.timer = setInterval(() => this.kick(), this.config.push.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Stops looking and waits for the sends under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    WORKERS.delete(this);
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Looks at the queue now (or right after the look under way). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.turnWaiting();
          await this.sendDue();
        } catch (err) {
          log.error({ err }, '[push] sending failed');
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = null;
    });
  }

  /** Due 'Proof waiting' marks become pushes to their manager's subscriptions, counting what waits now. */
  private async turnWaiting(): Promise<void> {
    const now = new Date().toISOString();
    for (const row of await dueWaiting(this.db, now)) {
      if (!(await claimWaiting(this.db, row, now))) continue;
      const clan = await waitingOfClan(this.db, row.clan_id);
      if (!clan || clan.count === 0) continue;
      // Still a manager with the switch on when it is sent.
      if (!(await clanManagerIds(this.db, row.clan_id)).includes(row.user_id)) continue;
      const to = await withSwitchOn(this.db, [row.user_id], 'proof_waiting');
      await enqueuePush(this.db, to, JSON.stringify(proofWaitingPayload(row.clan_id, clan)));
    }
  }

  /** Claims and sends the due pushes, a batch at a time, until none is due. */
  private async sendDue(): Promise<void> {
    for (;;) {
      const now = Date.now();
      const staleBefore = new Date(now - STALE_CLAIM_MS).toISOString();
      const due = await duePushes(this.db, new Date(now).toISOString(), staleBefore, BATCH);
      if (this.stopped) return;
      const taken = await claimPushes(this.db, due.map((push) => push.queue_id), new Date().toISOString(), staleBefore);
      const claimed = due.filter((push) => taken.has(push.queue_id));
      // Sent side by side: each waits SEND_TIMEOUT_MS at most, so a batch ends well before its claims go stale.
      await Promise.all(claimed.map((push) => this.send(push)));
      if (this.stopped || claimed.length === 0 || due.length < BATCH) return;
    }
  }

  /** Sends one claimed push and records the outcome. */
  private async send(push: QueuedPush): Promise<void> {
    let status = 0;
    let retryAfter: string | null = null;
    try {
      const webPush = await loadWebPush();
      const keys = await vapidKeys(this.db, this.config);
      // A turn of the event loop before each encryption (an ECDH agreement each): a batch's pushes
      // then never hold the rolls up for more than one push's work at a time.
      await nextTurn();
      const details = webPush.generateRequestDetails({ endpoint: push.endpoint, keys: { p256dh: push.p256dh, auth: push.auth } }, push.payload, {
        headers: { Authorization: vapidAuthorization(webPush, push.endpoint, this.config.push.vapidSubject, keys) },
        TTL: TTL_SECONDS,
        contentEncoding: 'aes128gcm',
      });
      const answer = await fetch(details.endpoint, {
        method: details.method,
        headers: details.headers as Record<string, string>,
        body: details.body ? new Uint8Array(details.body) : undefined,
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        redirect: 'manual',
      });
      status = answer.status;
      retryAfter = answer.headers.get('retry-after');
      await answer.body?.cancel().catch(() => {});
    } catch (err) {
      log.warn({ err: err instanceof Error ? err.message : String(err), subscription_id: push.id }, '[push] send failed');
    }
    if (status >= 200 && status < 300) return this.serially(() => deletePush(this.db, push.queue_id));
    if (status === 404 || status === 410) {
      log.info({ subscription_id: push.id, status }, '[push] subscription gone; removed');
      return this.serially(() => dropSubscription(this.db, push.id));
    }
    const transient = status === 0 || status === 429 || status >= 500;
    const nextAt = Date.now() + backoffMs(push.attempts + 1, retryAfter);
    if (!transient || nextAt > Date.parse(push.created_at) + RETRY_FOR_MS) {
      log.warn({ subscription_id: push.id, status, attempts: push.attempts + 1 }, '[push] push given up');
      return this.serially(() => deletePush(this.db, push.queue_id));
    }
    return this.serially(() => retryPush(this.db, push.queue_id, push.attempts + 1, new Date(nextAt).toISOString()));
  }

  /**
   * Runs `write` (a sent push's outcome) after the worker's earlier ones. A batch's sends to one
   * slow push service end together (they time out together); written side by side, their 50
   * statements took the pool's 10 connections the rolls share, and the rolls waited behind them
   * (bench:push p99). One at a time they hold one connection. A failed write is the caller's.
   */
  private serially(write: () => Promise<void>): Promise<void> {
    const next = this.writing.then(write);
    this.writing = next.catch(() => {});
    return next;
  }
}
