import type { Deps } from '../http/context';
import { findDraft, runningDrafts } from './repository';
import { clockPick, draftChanged } from './service';
import { log } from '../observability/log';

/** How often each process reads the running drafts to set its clocks (changes made by other processes, a restart). */
const SWEEP_MS = 5000;

/**
 * The pick clocks of the captains' drafts in one process (docs/server.md §16): a timer per running
 * draft at its stored deadline. Every process keeps them — set at start from the database (so a
 * restart resumes every clock), after each change it made, and every SWEEP_MS for changes made
 * elsewhere — and when one fires it asks clockPick for the pick, whose conditional write on the
 * draft's version lets exactly one process pick however many fire.
 */
export class DraftClock {
  /** Per draft: the version its timer is for, and the timer (null once it fired and could not pick at that version). */
  private readonly timers = new Map<number, { version: number; timer: NodeJS.Timeout | null }>();
  private sweeper: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly deps: Deps) {}

  /** Sets the clock of every running draft now, and again every SWEEP_MS. */
  start(): void {
    void this.sweep();
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** The draft of `eventId` changed: its clock is set again from the database. */
  changed(eventId: number): void {
    void this.arm(eventId);
  }

  /** Stops every timer (shutdown). */
  stop(): void {
    this.stopped = true;
    if (this.sweeper) clearInterval(this.sweeper);
    for (const { timer } of this.timers.values()) if (timer) clearTimeout(timer);
    this.timers.clear();
  }

  private async sweep(): Promise<void> {
    try {
      const rows = await runningDrafts(this.deps.db);
      const running = new Set(rows.map((r) => r.event_id));
      for (const eventId of [...this.timers.keys()]) if (!running.has(eventId)) this.clear(eventId);
      for (const r of rows) this.set(r.event_id, r.deadline, r.version);
    } catch (err) {
      log.error({ err }, '[draft] reading the running drafts failed');
    }
  }

  private async arm(eventId: number): Promise<void> {
    try {
      const draft = await findDraft(this.deps.db, eventId);
      if (draft?.status === 'running') this.set(eventId, draft.deadline, draft.version);
      else this.clear(eventId);
    } catch (err) {
      log.error({ err, event_id: eventId }, '[draft] reading a draft failed');
    }
  }

  private clear(eventId: number): void {
    const held = this.timers.get(eventId);
    if (held?.timer) clearTimeout(held.timer);
    this.timers.delete(eventId);
  }

  private set(eventId: number, deadline: string | null, version: number): void {
    if (this.stopped || deadline === null) return;
    const held = this.timers.get(eventId);
    if (held && held.version === version) return;
    this.clear(eventId);
    const wait = Math.max(0, Date.parse(deadline) - Date.now()) + 20;
    const timer = setTimeout(() => void this.fire(eventId, version), wait);
    timer.unref();
    this.timers.set(eventId, { version, timer });
  }

  private async fire(eventId: number, version: number): Promise<void> {
    this.timers.delete(eventId);
    if (this.stopped) return;
    try {
      const outcome = await clockPick(this.deps, eventId, version);
      if (outcome) {
        log.info({ event_id: eventId, picks: outcome.state.picks.length }, 'draft clock picked');
        await draftChanged(this.deps, eventId, outcome);
        return;
      }
      const draft = await findDraft(this.deps.db, eventId);
      if (draft?.status === 'running' && draft.version === version && draft.deadline !== null && Date.parse(draft.deadline) <= Date.now()) {
        // Run out, unchanged, and still no pick (the team on the clock was deleted): no timer until the draft changes.
        this.timers.set(eventId, { version, timer: null });
        log.warn({ event_id: eventId }, '[draft] the clock ran out but could not pick');
        return;
      }
      // Changed meanwhile, or fired before the deadline (another process's clock set it): follow the draft as stored.
      if (draft?.status === 'running') this.set(eventId, draft.deadline, draft.version);
      else this.clear(eventId);
    } catch (err) {
      // The sweep sets the timer again (none is held now), so a passing failure is retried.
      log.error({ err, event_id: eventId }, '[draft] clock pick failed');
    }
  }
}
