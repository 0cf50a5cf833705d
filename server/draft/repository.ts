import type { Db } from '../db/schema';
import { nowIso } from '../time';
import { heldByMember } from '../signups/repository';
import { snakeTurn } from '../../contract/draft';
import type { DraftState } from '../../contract/signup';

/** A drafts row with its JSON columns read. */
export interface DraftRow {
  event_id: number;
  status: 'running' | 'paused' | 'done';
  pick_seconds: number;
  order: number[];
  captains: { team_id: number; signup_id: number }[];
  deadline: string | null;
  paused_remaining_ms: number | null;
  version: number;
}

/** One stored pick. */
export interface PickRow {
  pick_no: number;
  team_id: number;
  signup_id: number;
  at: string;
  auto: boolean;
}

/** A free agent of the pool: sign-up id, IGN, score. */
export interface PoolEntry {
  signup_id: number;
  osrs_ign_id: number;
  ign: string;
  score: number | null;
}

/** The draft of event `eventId`, or null. */
export async function findDraft(db: Db, eventId: number): Promise<DraftRow | null> {
  const row = await db.selectFrom('drafts').selectAll().where('event_id', '=', eventId).executeTakeFirst();
  if (!row) return null;
  return {
    event_id: row.event_id,
    status: row.status,
    pick_seconds: row.pick_seconds,
    order: JSON.parse(row.team_order) as number[],
    captains: JSON.parse(row.captains) as DraftRow['captains'],
    deadline: row.deadline,
    paused_remaining_ms: row.paused_remaining_ms,
    version: row.version,
  };
}

/** The picks of an event's draft in the order made. */
export async function listPicks(db: Db, eventId: number): Promise<PickRow[]> {
  const rows = await db.selectFrom('draft_picks').select(['pick_no', 'team_id', 'signup_id', 'at', 'auto']).where('event_id', '=', eventId).orderBy('pick_no').execute();
  return rows.map((r) => ({ ...r, auto: r.auto === 1 }));
}

/**
 * The number of the next pick (0-based): one past the last pick's number, 0 without picks. Turns
 * follow pick numbers, not the count of picks, so a pick that goes with its sign-up (a player who
 * left the clan) or its team leaves a gap and moves no later turn (docs/server.md §16).
 */
export function nextPickNo(picks: readonly PickRow[]): number {
  const last = picks.at(-1);
  return last === undefined ? 0 : last.pick_no + 1;
}

/**
 * The free agents of an event for its draft: sign-ups whose IGN is on no team of the event (as
 * the sign-ups list tells a free agent: server/signups/repository.ts) and whose user is still in
 * the clan (heldByMember), not picked yet; highest score first (no score last), then oldest
 * sign-up first — so the head is the clock's pick.
 */
export async function listPool(db: Db, eventId: number): Promise<PoolEntry[]> {
  const rows = await db.selectFrom('signups')
    .innerJoin('igns', 'igns.id', 'signups.osrs_ign_id')
    .select(['signups.id as signup_id', 'signups.osrs_ign_id', 'igns.ign', 'signups.score'])
    .where('signups.event_id', '=', eventId)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('draft_picks').select('draft_picks.id').where('draft_picks.event_id', '=', eventId).whereRef('draft_picks.signup_id', '=', 'signups.id'))))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('team_members').select('team_members.id').where('team_members.event_id', '=', eventId).whereRef('team_members.ign_id', '=', 'signups.osrs_ign_id'))))
    .where((eb) => heldByMember(eb))
    .execute();
  return rows
    .map((r) => ({ ...r, score: r.score === null ? null : Number(r.score) }))
    .sort((a, b) => (b.score ?? -Infinity) - (a.score ?? -Infinity) || a.signup_id - b.signup_id);
}

/** The `draft_state` of a draft (docs/server.md §16) from its row, picks and pool. */
export function stateOf(draft: DraftRow, picks: readonly PickRow[], pool: readonly PoolEntry[]): DraftState {
  const k = nextPickNo(picks);
  const turn = snakeTurn(draft.order, k);
  const running = draft.status === 'running';
  return {
    event_id: draft.event_id,
    status: draft.status,
    round: draft.status === 'done' && k > 0 ? snakeTurn(draft.order, k - 1).round : turn.round,
    order: draft.order,
    captains: draft.captains,
    on_the_clock: running ? turn.team_id : null,
    deadline: running ? draft.deadline : null,
    picks: picks.map((p) => ({ team_id: p.team_id, signup_id: p.signup_id, at: p.at, auto: p.auto })),
    pool: draft.status === 'done' ? [] : pool.map((p) => p.signup_id),
  };
}

/** The `draft_state` of event `eventId` as stored now, or null without a draft. */
export async function loadDraftState(db: Db, eventId: number): Promise<DraftState | null> {
  const draft = await findDraft(db, eventId);
  if (!draft) return null;
  return stateOf(draft, await listPicks(db, eventId), await listPool(db, eventId));
}

/** The columns of a draft a change may set. */
export type DraftChange = Partial<Pick<DraftRow, 'status' | 'deadline' | 'paused_remaining_ms'>>;

/**
 * Writes `change` to the draft of `eventId` if its version is still `version`, raising the version
 * by one: the conditional write that lets only one of several racing writers (two processes'
 * clocks) change the draft. True when it wrote.
 */
export async function updateDraft(db: Db, eventId: number, version: number, change: DraftChange): Promise<boolean> {
  const result = await db.updateTable('drafts')
    .set({ ...change, version: version + 1, updated_at: nowIso() })
    .where('event_id', '=', eventId)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The running drafts with their deadlines and versions (for the clocks of every process). */
export async function runningDrafts(db: Db): Promise<{ event_id: number; deadline: string | null; version: number }[]> {
  return db.selectFrom('drafts').select(['event_id', 'deadline', 'version']).where('status', '=', 'running').execute();
}

/**
 * True when the captain of sign-up `signupId` has left the clan of event `eventId`: the sign-up is
 * gone (withdrawn with the departure) or its user is no longer a member. The clock picks for that
 * captain's team (docs/server.md §16, "Members only").
 */
export async function captainLeft(db: Db, eventId: number, signupId: number): Promise<boolean> {
  const held = await db.selectFrom('signups')
    .select('signups.id')
    .where('signups.id', '=', signupId)
    .where('signups.event_id', '=', eventId)
    .where((eb) => heldByMember(eb))
    .executeTakeFirst();
  return held === undefined;
}
