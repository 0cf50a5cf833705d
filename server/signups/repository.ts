import type { ExpressionBuilder } from 'kysely';
import type { Database, Db } from '../db/schema';
import { nowIso } from '../time';
import { conflict, notFound } from '../errors';
import type { Signup } from '../../contract/signup';
import { signupView, viewerScope, type SignupRow, type Viewer } from '../clans/viewer';
import { SIGNUP_MESSAGES, type WomProgress } from '../../contract/signupApi';

/**
 * Sign-ups as stored and answered (docs/server.md §16). A sign-up's `team_id` is read from the
 * team the IGN is on in the event (team_members), so a member added or removed in Manage Teams
 * shows at once, whatever the stored column says.
 */
function signupsQuery(db: Db) {
  return db.selectFrom('signups')
    .innerJoin('users', 'users.id', 'signups.user_id')
    .innerJoin('igns', 'igns.id', 'signups.osrs_ign_id')
    .leftJoin('discord_identities', 'discord_identities.user_id', 'signups.user_id')
    .leftJoin('team_members', (j) => j.onRef('team_members.ign_id', '=', 'signups.osrs_ign_id').onRef('team_members.event_id', '=', 'signups.event_id'))
    .select([
      'signups.id',
      'signups.event_id',
      'signups.user_id',
      'users.username',
      'discord_identities.discord_id',
      'signups.osrs_ign_id',
      'igns.ign',
      'signups.wants_leader',
      'signups.note',
      'signups.score',
      'signups.score_source',
      'team_members.team_id',
      'signups.created_at',
    ]);
}

type SignupQueryRow = Omit<SignupRow, 'wants_leader' | 'score'> & { wants_leader: number; score: number | string | null };

const toSignup = (r: SignupQueryRow): SignupRow => ({
  ...r,
  wants_leader: Number(r.wants_leader) === 1,
  score: r.score === null ? null : Number(r.score),
  team_id: r.team_id ?? null,
});

/** Stored sign-ups as `viewer` may see them (signupView: note, score, discord_id; docs/server.md §18). */
async function signupsFor(db: Db, rows: SignupRow[], viewer: Viewer): Promise<Signup[]> {
  const scope = await viewerScope(db, viewer, rows.map((r) => r.user_id));
  return rows.map((r) => signupView(r, scope));
}

/**
 * The condition "this sign-up's user is still a member (any role) of its event's clan", for a
 * query over `signups`: sign-ups, draft picks and team placement hold only clan members
 * (docs/server.md §16, "Members only"). Queries with more tables cast their builder to this one.
 */
export function heldByMember(eb: ExpressionBuilder<Database, 'signups'>) {
  return eb.exists(
    eb.selectFrom('clan_memberships')
      .innerJoin('events', 'events.clan_id', 'clan_memberships.clan_id')
      .select('clan_memberships.id')
      .whereRef('events.id', '=', 'signups.event_id')
      .whereRef('clan_memberships.user_id', '=', 'signups.user_id'),
  );
}

/**
 * Every sign-up `ids` names must be one of event `eventId` (404 'Sign-up ID {id} not found.', also
 * for a withdrawn one) whose user is still in the clan (409 SIGNUP_MESSAGES.leftClan): a balance
 * apply places only clan members (docs/server.md §16, "Members only"). The first id in order
 * that fails decides.
 */
export async function requireHeldSignups(db: Db, eventId: number, ids: readonly number[]): Promise<void> {
  const wanted = [...new Set(ids)];
  // Ids past the id column's range name no sign-up (and must not reach PostgreSQL's integer).
  const inRange = wanted.filter((id) => id >= 1 && id <= 2147483647);
  const found = new Map<number, boolean>();
  for (let i = 0; i < inRange.length; i += 1000) {
    const chunk = inRange.slice(i, i + 1000);
    const rows = await db.selectFrom('signups').select('id').where('event_id', '=', eventId).where('id', 'in', chunk).execute();
    const held = await db.selectFrom('signups').select('id').where('event_id', '=', eventId).where('id', 'in', chunk).where((eb) => heldByMember(eb)).execute();
    for (const r of rows) found.set(r.id, false);
    for (const r of held) found.set(r.id, true);
  }
  for (const id of wanted) {
    if (!found.has(id)) throw notFound(SIGNUP_MESSAGES.notFound(id));
    if (!found.get(id)) throw conflict(SIGNUP_MESSAGES.leftClan(id));
  }
}

/** The sign-ups of an event as stored, oldest first (ties by id): for the server's own use, never an answer. */
export async function signupRows(db: Db, eventId: number): Promise<SignupRow[]> {
  const rows = await signupsQuery(db).where('signups.event_id', '=', eventId).orderBy('signups.created_at').orderBy('signups.id').execute();
  return rows.map(toSignup);
}

/** The sign-ups of an event, oldest first (ties by id), as `viewer` may see them. */
export async function listSignups(db: Db, eventId: number, viewer: Viewer): Promise<Signup[]> {
  return signupsFor(db, await signupRows(db, eventId), viewer);
}

/** Sign-up `signupId` of event `eventId` as stored; 404 'Sign-up ID {id} not found.' otherwise. For the server's own use. */
export async function signupRow(db: Db, eventId: number, signupId: number): Promise<SignupRow> {
  const row = await signupsQuery(db).where('signups.id', '=', signupId).where('signups.event_id', '=', eventId).executeTakeFirst();
  if (!row) throw notFound(SIGNUP_MESSAGES.notFound(signupId));
  return toSignup(row);
}

/** Sign-up `signupId` of event `eventId` as `viewer` may see it; 404 'Sign-up ID {id} not found.' otherwise. */
export async function findSignup(db: Db, eventId: number, signupId: number, viewer: Viewer): Promise<Signup> {
  return (await signupsFor(db, [await signupRow(db, eventId, signupId)], viewer))[0];
}

/** The user's sign-up for the event, or undefined. */
export async function signupOfUser(db: Db, eventId: number, userId: number): Promise<{ id: number } | undefined> {
  return db.selectFrom('signups').select('id').where('event_id', '=', eventId).where('user_id', '=', userId).executeTakeFirst();
}

/** Inserts a sign-up; returns its id. */
export async function insertSignup(db: Db, row: { event_id: number; user_id: number; osrs_ign_id: number; wants_leader: boolean; note: string }): Promise<number> {
  const now = nowIso();
  const inserted = await db.insertInto('signups')
    .values({ ...row, wants_leader: row.wants_leader ? 1 : 0, score: null, score_source: null, team_id: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Deletes a sign-up, and its IGN's place on a team of the event when it has one. */
export async function deleteSignup(db: Db, signup: Pick<SignupRow, 'id' | 'event_id' | 'osrs_ign_id'>): Promise<void> {
  await db.deleteFrom('team_members').where('event_id', '=', signup.event_id).where('ign_id', '=', signup.osrs_ign_id).execute();
  await db.deleteFrom('signups').where('id', '=', signup.id).execute();
}

/** Sets a sign-up's score and its source (null score → null source). */
export async function setScore(db: Db, signupId: number, score: number | null, source: 'manual' | 'csv' | 'wom'): Promise<void> {
  await db.updateTable('signups')
    .set({ score, score_source: score === null ? null : source, updated_at: nowIso() })
    .where('id', '=', signupId)
    .execute();
}

/** Records that a sign-up was placed on a team. */
export async function placeSignup(db: Db, signupId: number, teamId: number): Promise<void> {
  await db.updateTable('signups').set({ team_id: teamId, updated_at: nowIso() }).where('id', '=', signupId).execute();
}

/** Starts (or restarts) an event's Wise Old Man fetch: the row is replaced with the new run. */
export async function startWomFetch(db: Db, eventId: number, runId: string, metric: string, total: number): Promise<void> {
  const now = nowIso();
  await db.deleteFrom('wom_fetches').where('event_id', '=', eventId).execute();
  await db.insertInto('wom_fetches').values({ event_id: eventId, run_id: runId, metric, total, done: 0, errors: '[]', started_at: now, updated_at: now }).execute();
}

/**
 * Counts one finished look-up of run `runId` (with its error, if any). False when the run no
 * longer owns the row (a newer fetch replaced it, or the event was deleted): the run stops.
 * Every process's queue worker may finish look-ups of the same run at once (server/wom/queue.ts),
 * so the write is a compare-and-set on `done` (it only grows within a run), tried again when
 * another process counted in between; a plain read-then-write lost counts and a fetch never ended.
 */
export async function recordWomLookup(db: Db, eventId: number, runId: string, error: { ign: string; error: string } | null): Promise<boolean> {
  for (;;) {
    const row = await db.selectFrom('wom_fetches').select(['done', 'errors']).where('event_id', '=', eventId).where('run_id', '=', runId).executeTakeFirst();
    if (!row) return false;
    const errors = error ? JSON.stringify([...(JSON.parse(row.errors) as unknown[]), error]) : row.errors;
    const r = await db.updateTable('wom_fetches')
      .set({ done: Number(row.done) + 1, errors, updated_at: nowIso() })
      .where('event_id', '=', eventId)
      .where('run_id', '=', runId)
      .where('done', '=', row.done)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) > 0) return true;
  }
}

/** True while run `runId` still owns the event's fetch. */
export async function womRunCurrent(db: Db, eventId: number, runId: string): Promise<boolean> {
  const row = await db.selectFrom('wom_fetches').select('run_id').where('event_id', '=', eventId).executeTakeFirst();
  return row?.run_id === runId;
}

/** The event's last fetch as GET .../signups/scores/wom answers it; zeros when none was started. */
export async function womProgress(db: Db, eventId: number): Promise<WomProgress> {
  const row = await db.selectFrom('wom_fetches').select(['total', 'done', 'errors']).where('event_id', '=', eventId).executeTakeFirst();
  if (!row) return { total: 0, done: 0, errors: [] };
  return { total: Number(row.total), done: Number(row.done), errors: JSON.parse(row.errors) as WomProgress['errors'] };
}
