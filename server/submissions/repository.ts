import type { Selectable } from 'kysely';
import type { Db, SubmissionsTable } from '../db/schema';
import { isTier } from '../../contract/game/tiers';
import { AUTO_RULE_TYPES, type AutoRuleType } from '../../contract/dink';

/** True for a type evidence may carry: a Dink type, or a Wise Old Man one (docs/server.md §17). */
const isEvidenceType = (t: string): t is AutoRuleType => (AUTO_RULE_TYPES as readonly string[]).includes(t);
import { SUBMISSION_STATUSES, type Submission, type SubmissionStatus } from '../../contract/submission';
import { columns } from '../db/rows';

/** A stored submission row (server/db/schema.ts SubmissionsTable). */
export type SubmissionRow = Selectable<SubmissionsTable>;

/** Same-origin paths of a submission's image and thumbnail (docs/server.md §9). */
const imageUrl = (id: number) => `/api/submissions/${id}/image`;
const thumbUrl = (id: number) => `/api/submissions/${id}/thumb`;

/**
 * What the storage keys of a Dink post's stand-in image carry (docs/server.md §13): a submission
 * whose image key has it was sent without a screenshot (the Submission shape's `screenshot: false`).
 */
export const STAND_IN_KEY_MARK = '.stand-in';

/** The submissions with their team, sender and reviewer joined (the Submission shape's sources). */
function submissionQuery(db: Db) {
  return db.selectFrom('submissions')
    .innerJoin('teams', 'teams.id', 'submissions.team_id')
    .innerJoin('users as sender', 'sender.id', 'submissions.submitted_by')
    .leftJoin('users as reviewer', 'reviewer.id', 'submissions.reviewer_id')
    .selectAll('submissions')
    .select(['teams.name as team_name', 'teams.color as team_color', 'sender.username as sender_name', 'reviewer.username as reviewer_name']);
}

type Joined = SubmissionRow & { team_name: string; team_color: string; sender_name: string; reviewer_name: string | null };

/** A joined row as the contract's Submission (docs/server.md §9). */
function toSubmission(r: Joined): Submission {
  return {
    ...columns(r, ['id', 'game_id', 'team_id', 'team_name', 'team_color', 'square_index', 'task_description', 'note', 'reason', 'created_at', 'reviewed_at']),
    task_difficulty: isTier(r.task_difficulty) ? r.task_difficulty : null,
    submitted_by: { user_id: r.submitted_by, username: r.sender_name, ign: r.submitted_ign },
    // A Wise Old Man total has no image (empty keys, docs/server.md §17): both paths null.
    image_url: r.image_key === '' ? null : imageUrl(r.id),
    thumb_url: r.thumb_key === '' ? null : thumbUrl(r.id),
    status: (SUBMISSION_STATUSES as readonly string[]).includes(r.status) ? (r.status as SubmissionStatus) : 'pending',
    reviewer: r.reviewer_id === null ? null : { user_id: r.reviewer_id, username: r.reviewer_name ?? '' },
    source: r.source === 'dink' || r.source === 'wom' ? r.source : 'upload',
    evidence: r.evidence_type !== null && isEvidenceType(r.evidence_type) ? { type: r.evidence_type, summary: r.evidence_summary ?? '' } : null,
    auto: r.auto === 1,
    // No screenshot to show (a Dink stand-in, or no image at all): screens show the evidence.
    screenshot: !((r.source === 'dink' && r.image_key.includes(STAND_IN_KEY_MARK)) || r.image_key === ''),
  };
}

/** One submission in the contract shape, or null. */
export async function loadSubmission(db: Db, id: number): Promise<Submission | null> {
  const row = await submissionQuery(db).where('submissions.id', '=', id).executeTakeFirst();
  return row ? toSubmission(row) : null;
}

/** The stored row of submission `id`, or null. */
export async function findSubmissionRow(db: Db, id: number): Promise<SubmissionRow | null> {
  return (await db.selectFrom('submissions').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/**
 * The submissions user `userId` sent, oldest first, in the Submission shape (image paths, never
 * bytes) with their clan and event: the data export (docs/server.md §18 "Data rights").
 */
export async function listSentSubmissions(db: Db, userId: number): Promise<(Submission & { clan_id: number; clan_name: string; event_name: string })[]> {
  const rows = await submissionQuery(db)
    .innerJoin('clans', 'clans.id', 'submissions.clan_id')
    .innerJoin('games', 'games.id', 'submissions.game_id')
    .innerJoin('events', 'events.id', 'games.event_id')
    .select(['clans.name as clan_name', 'events.name as event_name'])
    .where('submissions.submitted_by', '=', userId)
    .orderBy('submissions.id')
    .execute();
  return rows.map((r) => ({ ...toSubmission(r), clan_id: r.clan_id, clan_name: r.clan_name, event_name: r.event_name }));
}

/** A game's submissions, newest first (docs/server.md §9 GET .../game/{gameId}/submissions). */
export async function listGameSubmissions(db: Db, gameId: number): Promise<Submission[]> {
  const rows = await submissionQuery(db).where('submissions.game_id', '=', gameId).orderBy('submissions.id', 'desc').execute();
  return rows.map(toSubmission);
}

/** A clan's submissions of one status over all its games, oldest first (the referee queue). */
export async function listClanSubmissions(db: Db, clanId: number, status: SubmissionStatus): Promise<Submission[]> {
  const rows = await submissionQuery(db)
    .where('submissions.clan_id', '=', clanId)
    .where('submissions.status', '=', status)
    .orderBy('submissions.id', 'asc')
    .execute();
  return rows.map(toSubmission);
}

/**
 * Inserts a submission (status pending, no review); returns its id. `source` defaults to
 * 'upload' with no evidence; a Dink post gives 'dink' and its evidence (docs/server.md §13).
 * `image_bytes` (default 0) is what the row's image and thumbnail take in the store, counted
 * against the clan's upload quota (docs/server.md §18 "Quotas").
 */
export async function insertSubmission(
  db: Db,
  values: Omit<SubmissionRow, 'id' | 'status' | 'reviewer_id' | 'reason' | 'reviewed_at' | 'source' | 'evidence_type' | 'evidence_summary' | 'auto' | 'image_bytes'> &
    Partial<Pick<SubmissionRow, 'source' | 'evidence_type' | 'evidence_summary' | 'image_bytes'>>,
): Promise<number> {
  const row = await db.insertInto('submissions')
    .values({ ...values, status: 'pending', reviewer_id: null, reason: null, reviewed_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Sets a submission's status and review columns. */
export async function setSubmissionStatus(
  db: Db,
  id: number,
  set: { status: SubmissionStatus; reviewer_id: number | null; reason: string | null; reviewed_at: string | null },
): Promise<void> {
  await db.updateTable('submissions').set(set).where('id', '=', id).execute();
}

/** Ids of a team's pending submissions in a game. */
export async function pendingOfTeam(db: Db, gameId: number, teamId: number): Promise<number[]> {
  const rows = await db.selectFrom('submissions').select('id')
    .where('game_id', '=', gameId).where('team_id', '=', teamId).where('status', '=', 'pending')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Storage keys (image and thumbnail) of the submissions of a game, of a team, or of every game of
 * an event or a clan: what to delete from the image store once their rows are gone.
 */
export async function imageKeysOf(db: Db, of: { gameId: number } | { teamId: number } | { eventId: number } | { clanId: number }): Promise<string[]> {
  let q = db.selectFrom('submissions').select(['image_key', 'thumb_key']);
  if ('gameId' in of) q = q.where('game_id', '=', of.gameId);
  else if ('teamId' in of) q = q.where('team_id', '=', of.teamId);
  else if ('clanId' in of) q = q.where('clan_id', '=', of.clanId);
  else q = q.where('game_id', 'in', db.selectFrom('games').select('id').where('event_id', '=', of.eventId));
  const rows = await q.execute();
  return rows.flatMap((r) => [r.image_key, r.thumb_key]);
}
