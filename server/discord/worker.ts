import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import type { AnnouncementConfig } from '../config';
import { isGrouped, nextMessage } from './embeds';
import { claimWebhooks, deleteAnnouncements, queueHead, releaseLeases, releaseWebhook, type DeliveryUpdate } from './repository';
import { postWebhook } from './service';
import { announceSignupsClosedByTime } from './outbox';
import { log } from '../observability/log';
import { countDiscordFailure } from '../observability/metrics';

/**
 * A running announcement worker; `stop` resolves once its current post has finished and its
 * leases are given back (docs/server.md §14).
 */
export interface AnnouncementWorker {
  stop(): Promise<void>;
}

/** Webhooks claimed per round, and messages posted per webhook per claim. */
const CLAIM_LIMIT = 10;
const MESSAGES_PER_CLAIM = 5;
/** Retries of a message stop after this long (docs/server.md §10: up to 1 hour). */
const GIVE_UP_MS = 3600_000;
/** Longest backoff between retries. */
const MAX_BACKOFF_MS = 300_000;

const later = (ms: number) => new Date(Date.now() + ms).toISOString();

/**
 * Posts one claimed webhook's queue (docs/server.md §10), oldest first, while `owner`
 * holds its lease: builds the next message (coalescing rolls within `rollWindowMs`; a roll
 * message waits until its window has closed), posts it, and deletes the rows only once Discord
 * took them (at least once). 429 → waits retry_after; 5xx/timeout → state 'failing', backoff
 * doubling from `backoffMs` up to 5 minutes; once the oldest message has failed for over an
 * hour, every announcement older than an hour is dropped with a last_error;
 * 401/403/404/redirect → state 'disabled' with last_error and the queue emptied; another 4xx →
 * the message is dropped with a last_error. Every post Discord did not take is counted by its
 * reason (discord_posts_failed_total, docs/server.md §14). Once `stopping()` is true no further
 * message is posted (the process is shutting down; another takes the webhook over).
 */
async function deliver(db: Kysely<Database>, config: AnnouncementConfig, owner: string, hook: { id: number; webhook_url: string }, stopping: () => boolean): Promise<void> {
  let update: DeliveryUpdate = {};
  const started = Date.now();
  try {
    // At most a few messages per claim, and never past half the lease (another process may take over after it).
    for (let sent = 0; sent < MESSAGES_PER_CLAIM && Date.now() - started < config.leaseMs / 2 && !stopping(); sent += 1) {
      const head = await queueHead(db, hook.id, 60);
      if (head.length === 0) break;
      const first = head[0];
      const opensAt = Date.parse(first.created_at) + config.rollWindowMs;
      if (isGrouped(first.announcement) && Date.now() < opensAt) {
        update = { ...update, next_attempt_at: new Date(opensAt).toISOString() };
        break;
      }
      const { message, ids } = nextMessage(head, config.rollWindowMs, config.publicOrigin);
      const outcome = await postWebhook(hook.webhook_url, config.webhookOrigin, message);
      if (outcome.kind !== 'ok') {
        // The webhook's id only: its URL holds its token, and Discord's answer is kept in last_error.
        const reason = outcome.kind === 'rateLimited' ? 'rate_limited' : outcome.kind;
        countDiscordFailure(reason);
        log.warn({ webhook_id: hook.id, reason }, 'discord post failed');
      }
      if (outcome.kind === 'ok') {
        await deleteAnnouncements(db, ids);
        update = { state: 'active', last_error: null, failures: 0, next_attempt_at: null };
        continue;
      }
      if (outcome.kind === 'rateLimited') {
        update = { ...update, next_attempt_at: later(outcome.retryAfterMs) };
        break;
      }
      if (outcome.kind === 'gone') {
        await db.deleteFrom('discord_outbox').where('webhook_id', '=', hook.id).execute();
        update = { state: 'disabled', last_error: outcome.error, next_attempt_at: null };
        break;
      }
      if (outcome.kind === 'rejected') {
        await deleteAnnouncements(db, ids);
        update = { ...update, last_error: `An announcement was dropped. ${outcome.error}` };
        continue;
      }
      const row = await db.selectFrom('discord_webhooks').select('failures').where('id', '=', hook.id).executeTakeFirst();
      const failures = (row?.failures ?? 0) + 1;
      if (Date.now() - Date.parse(first.created_at) > GIVE_UP_MS) {
        // Everything queued over an hour ago is given up at once, not one message per retry.
        const cutoff = new Date(Date.now() - GIVE_UP_MS).toISOString();
        await db.deleteFrom('discord_outbox').where('webhook_id', '=', hook.id).where('created_at', '<', cutoff).execute();
        await deleteAnnouncements(db, ids);
        update = { state: 'failing', failures, last_error: `Announcements older than 1 hour were dropped after retries. ${outcome.error}`, next_attempt_at: later(config.backoffMs) };
      } else {
        const wait = Math.min(config.backoffMs * 2 ** Math.min(failures - 1, 20), MAX_BACKOFF_MS);
        update = { state: 'failing', failures, last_error: outcome.error, next_attempt_at: later(wait) };
      }
      break;
    }
  } finally {
    await releaseWebhook(db, hook.id, owner, update);
  }
}

/**
 * Starts the announcement worker of this process (docs/server.md §10: a worker in every
 * process): every `config.pollMs` it queues 'Sign-ups closed' for events whose close time has
 * passed (docs/server.md §16), then claims due webhooks (repository claimWebhooks, FOR UPDATE
 * SKIP LOCKED on PostgreSQL, each under a lease of `config.leaseMs` that runs out if this
 * process dies) and delivers their queues. A failing round (database down) is logged and the
 * next one tries again. `stop` ends it for a shutdown: no new round or post, and every lease of
 * this process is released at once rather than left to run out.
 */
export function startAnnouncementWorker(db: Kysely<Database>, dialect: Dialect, config: AnnouncementConfig): AnnouncementWorker {
  const owner = `${process.pid}-${crypto.randomBytes(6).toString('hex')}`;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> = Promise.resolve();

  const round = async () => {
    await announceSignupsClosedByTime(db);
    const hooks = await claimWebhooks(db, dialect === 'postgres', owner, config.leaseMs, CLAIM_LIMIT);
    await Promise.all(hooks.map((h) => deliver(db, config, owner, h, () => stopped)));
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = round()
        .catch((err) => log.error({ err }, '[discord] announcement round failed'))
        .finally(schedule);
    }, config.pollMs);
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
      await releaseLeases(db, owner).catch((err) => log.error({ err }, '[discord] giving back leases failed'));
    },
  };
}
