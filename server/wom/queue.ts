import type { Deps } from '../http/context';
import type { Db } from '../db/schema';
import { log } from '../observability/log';
import { sleep, takeBudget, tryBudget, turnsOf, type BudgetSlot } from './budget';
import { callWom, type WomAnswer } from './client';

/** How long a process holds a call it took (then another may take it: the first died), in ms. */
const LEASE_MS = 60_000;
/** How long a worker waits when the head of the line is a clan it cannot serve now, in ms. */
const TURN_POLL_MS = 100;
/** Longest wait for the budget before the line is looked at again, in ms. */
const BUDGET_RECHECK_MS = 1000;

/** A call waiting in the line, as its kind's handler sees it. */
export interface WomJob<P = unknown> {
  id: number;
  clanId: number;
  subject: string;
  payload: P;
  /** How often it was tried and put back (a 429, an outage) before this try. */
  attempts: number;
}

/** What a handler made of its call: done (the row goes), or put back to be tried again after `retryInMs`. */
export type WomOutcome = { done: true } | { retryInMs: number };

/**
 * Asks Wise Old Man about a player (client.ts callWom) within the shared budget: the first ask of
 * a job spends the share the worker took for it, a later one waits for another share; each share
 * is ended when its answer came (budget.ts BudgetSlot), so the budget's window counts from then.
 */
export type AskWom = (method: 'GET' | 'POST', ign: string, purpose: string) => Promise<WomAnswer>;

/**
 * One kind of call (a sign-up score, a team total's IGN): `wanted` answers false when the call is
 * no longer needed (it is dropped without asking Wise Old Man or spending the budget); `run` asks
 * through `ask` (never callWom itself, so every call is counted) and records what it learnt.
 */
export interface WomKind<P> {
  wanted(deps: Deps, job: WomJob<P>): Promise<boolean>;
  /**
   * Whether a waiting call of the same subject, with payload `other`, is unwanted for the same
   * reason as `job`, which `wanted` just refused: the worker drops those with it in one delete
   * instead of taking each through the line (its turn, a lease, `wanted`) one at a time.
   */
  unwantedAlike?(job: WomJob<P>, other: P): boolean;
  run(deps: Deps, job: WomJob<P>, ask: AskWom): Promise<WomOutcome>;
  /** After a done call's row is gone (so the calls left of its subject are the others). */
  finished?(deps: Deps, job: WomJob<P>): Promise<void>;
}

const kinds = new Map<string, WomKind<any>>();

/** Registers the handler of a kind of call; the worker serves only kinds registered in its process. */
export function registerWomKind<P>(kind: string, handler: WomKind<P>): void {
  kinds.set(kind, handler);
}

/** A call to queue: its clan (for turns), kind, subject (what it belongs to, for dropping or moving its calls together), payload and when it is due (now when absent). */
export interface WomCall {
  clanId: number;
  kind: string;
  subject: string;
  payload: unknown;
  dueAt?: string;
}

/** The workers of this process's apps, woken when a call is queued here. */
const workers = new WeakMap<Deps, WomWorker>();

/** Most wom_queue rows one insert writes: 8 values a row stay far under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
const ROWS_PER_INSERT = 500;

/**
 * Queues calls to Wise Old Man (docs/server.md §17 'Wise Old Man checks'): rows of wom_queue, so
 * they survive a restart and every process's worker may take them, written ROWS_PER_INSERT to a
 * statement; wakes this process's worker.
 */
export async function queueWomCalls(deps: Deps, db: Db, calls: readonly WomCall[]): Promise<void> {
  if (calls.length === 0) return;
  const now = new Date().toISOString();
  for (let i = 0; i < calls.length; i += ROWS_PER_INSERT) {
    await db.insertInto('wom_queue')
      .values(calls.slice(i, i + ROWS_PER_INSERT).map((c) => ({ clan_id: c.clanId, kind: c.kind, subject: c.subject, payload: JSON.stringify(c.payload), due_at: c.dueAt ?? now, attempts: 0, lease_until: null, created_at: now })))
      .execute();
  }
  workers.get(deps)?.wake();
}

/**
 * The one worker of a process that makes every call to Wise Old Man (docs/server.md §16, §17):
 * among the clans with calls due (over every process: the line is in the database) the one whose
 * turn it is (budget.ts Turns, in Redis with REDIS_URL; taking the turn moves the clan to the
 * back, a turn left unused gives it back) gives its oldest due call (by due time, then queue
 * order); the worker takes it with a lease (one conditional update of the oldest free row,
 * skipping rows being taken on PostgreSQL, so two processes never take the same call), drops it
 * when its kind says it is no longer wanted, takes one share of the shared budget (else lets go
 * of it and waits at most BUDGET_RECHECK_MS), and runs it, its calls counted by AskWom. A call its handler puts back is due
 * again later; a call whose process died is taken again once its lease lapses.
 */
export class WomWorker {
  private stopped = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  /** True while the worker waits for a share of the budget (wake leaves that wait alone). */
  private waitingForBudget = false;

  constructor(private readonly deps: Deps) {}

  /** Starts the loop; the app's calls queued in this process wake it. */
  start(): void {
    workers.set(this.deps, this);
    this.loop ??= this.run();
  }

  /**
   * Ends an idle wait for due calls at once (a call was queued). A wait for the budget is not
   * ended: the new call could not be made before the budget has room either, and every arrival on
   * a Wise Old Man square queues a round, so under many rolls the worker would otherwise go
   * through the whole line (its clans, a lease, `wanted`, the budget) once per roll for nothing.
   */
  wake(): void {
    if (!this.waitingForBudget) this.wakeUp?.();
  }

  /** Stops after the call in hand (docs/server.md §14 shutdown); the rest stay queued for the next process. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    await this.loop;
  }

  private idle(ms: number, forBudget = false): Promise<void> {
    this.waitingForBudget = forBudget;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wakeUp = null;
        self.waitingForBudget = false;
        resolve();
      }
      this.wakeUp = done;
    });
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        // How often an idle worker looks for due calls (WOM_QUEUE_POLL_MS); a call queued in the
        // same process wakes it at once.
        if (!(await this.step())) await this.idle(this.deps.config.wom.queuePollMs);
      } catch (err) {
        log.error({ err }, '[wom] Wise Old Man queue failed');
        await this.idle(BUDGET_RECHECK_MS);
      }
    }
  }

  /** One go; false when nothing was due. */
  private async step(): Promise<boolean> {
    const { db } = this.deps;
    const now = new Date().toISOString();
    const free = (q: any) => q.where('due_at', '<=', now).where((eb: any) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]));
    const clans = (await free(db.selectFrom('wom_queue').select('clan_id').distinct()).execute()).map((r: { clan_id: number }) => Number(r.clan_id));
    if (clans.length === 0) return false;
    const turns = turnsOf(this.deps);
    const clan = await turns.next(clans);
    if (clan === null) {
      await sleep(TURN_POLL_MS);
      return true;
    }
    // The clan's oldest free call, taken in one statement: on PostgreSQL a row another process is
    // taking is skipped (FOR UPDATE SKIP LOCKED), so two workers serving one clan take two calls
    // instead of racing for the same one; on SQLite the statement holds the write lock throughout.
    let oldest = free(db.selectFrom('wom_queue').select('id').where('clan_id', '=', clan)).orderBy('due_at').orderBy('id').limit(1);
    if (this.deps.dialect === 'postgres') oldest = oldest.forUpdate().skipLocked();
    const row = await free(db.updateTable('wom_queue').set({ lease_until: new Date(Date.now() + LEASE_MS).toISOString() }).where('id', '=', oldest))
      .returningAll()
      .executeTakeFirst();
    if (!row) return true;
    const job: WomJob = { id: row.id, clanId: clan, subject: row.subject, payload: JSON.parse(row.payload), attempts: Number(row.attempts) };
    const kind = kinds.get(row.kind);
    try {
      if (!kind || !(await kind.wanted(this.deps, job))) {
        // Dropped without a call: the clan keeps its turn.
        await turns.giveBack(clan);
        await this.finish(job, kind?.unwantedAlike ? await this.alikeOf(job, row.kind, kind.unwantedAlike) : []);
        return true;
      }
      const share = await tryBudget(this.deps);
      if ('waitMs' in share) {
        await db.updateTable('wom_queue').set({ lease_until: null }).where('id', '=', row.id).execute();
        await turns.giveBack(clan);
        await this.idle(Math.min(share.waitMs, BUDGET_RECHECK_MS), true);
        return true;
      }
      let unused: BudgetSlot | null = share.slot;
      const ask: AskWom = async (method, ign, purpose) => {
        const slot = unused ?? (await takeBudget(this.deps));
        unused = null;
        try {
          return await callWom(this.deps, method, ign, purpose);
        } finally {
          await slot.end();
        }
      };
      let outcome: WomOutcome;
      try {
        outcome = await kind.run(this.deps, job, ask);
      } finally {
        // A job that asked nothing (its team left meanwhile) gives its share back.
        await (unused as BudgetSlot | null)?.free();
      }
      if ('retryInMs' in outcome) {
        await db.updateTable('wom_queue')
          .set({ due_at: new Date(Date.now() + outcome.retryInMs).toISOString(), attempts: job.attempts + 1, lease_until: null })
          .where('id', '=', row.id)
          .execute();
      } else {
        await this.finish(job);
        await kind.finished?.(this.deps, job);
      }
    } catch (err) {
      // The database away, a handler's bug: the call goes (logged) rather than blocking the line.
      log.error({ err, kind: row.kind, subject: row.subject }, '[wom] Wise Old Man call failed');
      await this.finish(job).catch(() => {});
    }
    return true;
  }

  /**
   * The ids of the calls of `job`'s subject and kind that wait (no lease, due or not) and that
   * `alike` says are unwanted with it. A call in another process's hand is left to that process.
   */
  private async alikeOf(job: WomJob, kind: string, alike: (job: WomJob<any>, other: any) => boolean): Promise<number[]> {
    const rows = await this.deps.db.selectFrom('wom_queue').select(['id', 'payload'])
      .where('subject', '=', job.subject).where('kind', '=', kind).where('lease_until', 'is', null).where('id', '<>', job.id)
      .execute();
    return rows.filter((r) => alike(job, JSON.parse(r.payload))).map((r) => Number(r.id));
  }

  /**
   * Removes a finished call, and `alsoIds` (waiting calls dropped with it: the delete takes only
   * those still without a lease); the clan leaves the line of turns when it has nothing else due.
   */
  private async finish(job: WomJob, alsoIds: readonly number[] = []): Promise<void> {
    const { db } = this.deps;
    await db.deleteFrom('wom_queue')
      .where((eb) => (alsoIds.length === 0 ? eb('id', '=', job.id) : eb.or([eb('id', '=', job.id), eb.and([eb('id', 'in', [...alsoIds]), eb('lease_until', 'is', null)])])))
      .execute();
    const now = new Date().toISOString();
    const more = await db.selectFrom('wom_queue').select('id').where('clan_id', '=', job.clanId).where('due_at', '<=', now).limit(1).executeTakeFirst();
    if (!more) await turnsOf(this.deps).leave(job.clanId);
  }
}
