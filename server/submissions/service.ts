import crypto from 'node:crypto';
import type { Db } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import { nowIso } from '../time';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { findGame, insertLog, storedOverride, storedTaskState, updateGame } from '../games/repository';
import type { LogEntry } from '../../contract/gameApi';
import {
  PROOF_LOG,
  PROOF_MESSAGES,
  REVIEW_UNDO_MS,
  SUBMITTABLE_STATES,
  hasTask,
  type ReviewBody,
  type TaskState,
} from '../../contract/submission';
import type { ProcessedImage } from './images';
import type { ImageStore } from './storage';
import { announceReview } from '../discord/outbox';
import { findSubmissionRow, insertSubmission, pendingOfTeam, setSubmissionStatus, type SubmissionRow } from './repository';
import { log } from '../observability/log';

/** A committed change of a submission: its id and the log entries written with it (oldest first). */
export interface SubmissionChange {
  submissionId: number;
  log: LogEntry[];
}

/** The scope of a game in the path (clan, event, game ids). */
interface GameScope {
  clanId: number;
  eventId: number;
  gameId: number;
}

/** A team's state row in a game with the team's name and colour, or null when the team does not play in it. */
async function teamInGame(db: Db, gameId: number, teamId: number) {
  const row = await db.selectFrom('team_states')
    .innerJoin('teams', 'teams.id', 'team_states.team_id')
    .select(['team_states.id', 'team_states.current_position', 'team_states.task_state', 'team_states.square_since', 'team_states.task_override', 'teams.name', 'teams.color'])
    .where('team_states.game_id', '=', gameId)
    .where('team_states.team_id', '=', teamId)
    .executeTakeFirst();
  return row ?? null;
}

/** The IGN of `userId` on team `teamId` (the first by id), or null when none is on it. */
async function ignOnTeam(db: Db, teamId: number, userId: number): Promise<string | null> {
  const row = await db.selectFrom('team_members')
    .innerJoin('igns', 'igns.id', 'team_members.ign_id')
    .select('igns.ign')
    .where('team_members.team_id', '=', teamId)
    .where('igns.user_id', '=', userId)
    .orderBy('igns.id')
    .executeTakeFirst();
  return row?.ign ?? null;
}

/** Sets a team's task state (its square_since stays). */
async function setTaskState(db: Db, teamStateId: number, state: TaskState): Promise<void> {
  await db.updateTable('team_states').set({ task_state: state }).where('id', '=', teamStateId).execute();
}

/**
 * Why team `teamId` may not send proof in the game now, checked in this order (docs/server.md
 * §9; each a 409 with the reason unless noted): the team does not play in the game (400
 * PROOF_MESSAGES.teamNotInGame); `userId` has no IGN on the team (403 notOnTeam: who may submit is a permission); the game is not
 * in-progress or paused (notPlaying); the team's square has no task (noTask); proof already waits
 * (alreadySubmitted) or is approved (alreadyApproved). Returns the team and the sender's IGN.
 */
export async function checkSubmitter(db: Db, game: { id: number; status: string }, teamId: number, userId: number) {
  const team = await teamInGame(db, game.id, teamId);
  if (!team) throw badRequest(PROOF_MESSAGES.teamNotInGame);
  const ign = await ignOnTeam(db, teamId, userId);
  if (ign === null) throw forbidden(PROOF_MESSAGES.notOnTeam);
  if (game.status !== 'in-progress' && game.status !== 'paused') throw conflict(PROOF_MESSAGES.notPlaying);
  const state = storedTaskState(team.task_state);
  if (!SUBMITTABLE_STATES.includes(state)) {
    const square = team.current_position;
    throw conflict(state === 'submitted' ? PROOF_MESSAGES.alreadySubmitted(square) : state === 'approved' ? PROOF_MESSAGES.alreadyApproved(square) : PROOF_MESSAGES.noTask(square));
  }
  return { team, ign };
}

/** Bytes a processed proof image takes in the store: the image and its thumbnail (the upload quota counts both). */
export const storedBytes = (image: ProcessedImage): number => image.image.length + image.thumb.length;

/**
 * Sends proof (docs/server.md §9 POST .../submissions), after the image was processed:
 * stores the image and thumbnail under fresh keys, then in one transaction locks the game row,
 * checks the sender again (checkSubmitter; the state may have changed meanwhile), inserts the
 * submission (pending, with the square's task as it is now, or the team's substitute from relief), sets the team's state to
 * `submitted`, logs PROOF_LOG.sent and bumps the version. When the transaction fails the stored
 * files are deleted again. Returns the new submission's id and the log entry.
 */
export async function submitProof(
  db: Db,
  dialect: Dialect,
  store: ImageStore,
  input: { scope: GameScope; teamId: number; userId: number; note: string; image: ProcessedImage },
): Promise<SubmissionChange> {
  const stem = `proofs/${input.scope.gameId}/${crypto.randomBytes(12).toString('hex')}`;
  const ext = input.image.imageType.split('/')[1] ?? 'bin';
  const keys = { image: `${stem}.${ext}`, thumb: `${stem}.thumb.webp` };
  await store.put(keys.image, input.image.image, input.image.imageType);
  await store.put(keys.thumb, input.image.thumb, input.image.thumbType);
  try {
    return await db.transaction().execute(async (trx) => {
      const game = await findGame(trx, input.scope, { dialect });
      const { team, ign } = await checkSubmitter(trx, game, input.teamId, input.userId);
      const square = await trx.selectFrom('board_squares').select(['task_description', 'task_difficulty'])
        .where('game_id', '=', game.id).where('square_index', '=', team.current_position).executeTakeFirst();
      if (!hasTask(square)) throw conflict(PROOF_MESSAGES.noTask(team.current_position));
      // A substitute task from relief replaces the square's for this team (docs/server.md §15).
      const override = storedOverride(team.task_override);
      const task = override ? { task_description: override.description, task_difficulty: override.difficulty } : square!;
      const submissionId = await insertSubmission(trx, {
        game_id: game.id,
        clan_id: game.clan_id,
        team_id: input.teamId,
        square_index: team.current_position,
        square_since: team.square_since,
        task_description: task.task_description,
        task_difficulty: task.task_difficulty,
        submitted_by: input.userId,
        submitted_ign: ign,
        note: input.note,
        image_key: keys.image,
        image_type: input.image.imageType,
        thumb_key: keys.thumb,
        thumb_type: input.image.thumbType,
        image_bytes: storedBytes(input.image),
        created_at: nowIso(),
      });
      await setTaskState(trx, team.id, 'submitted');
      const log = await insertLog(trx, game.id, PROOF_LOG.sent(team.name, team.current_position), { name: team.name, color: team.color });
      await updateGame(trx, game.id, {});
      return { submissionId, log: [log] };
    });
  } catch (err) {
    await store.delete([keys.image, keys.thumb]).catch(() => {});
    throw err;
  }
}

/**
 * The submission `id` of clan `clanId` (and of game `gameId` when given), or 404
 * PROOF_MESSAGES.notFound.
 */
async function findClanSubmission(db: Db, clanId: number, id: number, gameId: number | null): Promise<SubmissionRow> {
  const row = await findSubmissionRow(db, id);
  if (!row || row.clan_id !== clanId || (gameId !== null && row.game_id !== gameId)) throw notFound(PROOF_MESSAGES.notFound);
  return row;
}

/** The game scope of a stored submission, for findGame. */
async function scopeOf(db: Db, row: SubmissionRow): Promise<GameScope> {
  const game = await db.selectFrom('games').select(['id', 'event_id', 'clan_id']).where('id', '=', row.game_id).executeTakeFirstOrThrow();
  return { clanId: game.clan_id, eventId: game.event_id, gameId: game.id };
}

/**
 * The clan's submission `id` (in game `gameId` when given) and its game, the game row locked
 * (findGame locks it), the submission read again after the lock so the checks that follow see what
 * a concurrent review left. 404 when the submission or its game is not there.
 */
async function lockedSubmission(trx: Db, dialect: Dialect, input: { clanId: number; gameId: number | null; id: number }) {
  const first = await findClanSubmission(trx, input.clanId, input.id, input.gameId);
  const game = await findGame(trx, await scopeOf(trx, first), { dialect });
  const row = await findClanSubmission(trx, input.clanId, input.id, input.gameId);
  return { game, row };
}

/**
 * Reviews a submission (docs/server.md §9 PUT .../submissions/{id}/review), by manager
 * `reviewer` (the route checked the role): 403 PROOF_MESSAGES.ownSubmission when the reviewer sent
 * it; 409 notPending unless it is pending. In one transaction on the locked game row: the
 * submission becomes approved or denied (reviewer, reason for a denial, reviewed_at now); the
 * team's state becomes `approved`/`denied` while the team is still on the submission's square
 * (its square_since unchanged); PROOF_LOG.approved or .denied is logged under the team; the
 * version grows.
 */
export async function reviewSubmission(
  db: Db,
  dialect: Dialect,
  input: { clanId: number; gameId: number | null; id: number; reviewer: { id: number; username: string }; body: ReviewBody },
): Promise<SubmissionChange> {
  return db.transaction().execute(async (trx) => {
    const { game, row } = await lockedSubmission(trx, dialect, input);
    if (row.submitted_by === input.reviewer.id) throw forbidden(PROOF_MESSAGES.ownSubmission);
    if (row.status !== 'pending') throw conflict(PROOF_MESSAGES.notPending);
    const approve = input.body.decision === 'approve';
    const reason = approve ? null : (input.body.reason ?? '');
    await setSubmissionStatus(trx, row.id, { status: approve ? 'approved' : 'denied', reviewer_id: input.reviewer.id, reason, reviewed_at: nowIso() });
    const team = await teamInGame(trx, game.id, row.team_id);
    if (team && team.square_since === row.square_since && team.task_state === 'submitted') {
      await setTaskState(trx, team.id, approve ? 'approved' : 'denied');
    }
    const name = team?.name ?? '';
    const text = approve ? PROOF_LOG.approved(input.reviewer.username, name) : PROOF_LOG.denied(input.reviewer.username, reason ?? '');
    const log = await insertLog(trx, game.id, text, { name, color: team?.color ?? null });
    await updateGame(trx, game.id, {});
    await announceReview(trx, game.id, {
      team: { name, color: team?.color ?? null },
      square: row.square_index,
      task: row.task_description,
      decision: approve ? 'approved' : 'denied',
      reviewer: input.reviewer.username,
      reason,
    });
    return { submissionId: row.id, log: [log] };
  });
}

/**
 * Undoes a review (docs/server.md §9 DELETE .../submissions/{id}/review), by manager
 * `referee`: 409 PROOF_MESSAGES.notReviewed unless the submission is approved or denied; 409
 * undoExpired when the review is older than REVIEW_UNDO_MS (5 minutes) at `now` (ms epoch), or
 * when the team has moved since (its square_since differs) or its state is no longer the one the
 * review set (e.g. it sent proof again after a denial). Then, on the locked game row, the
 * submission is pending again (no reviewer, reason or reviewed_at), the team's state `submitted`,
 * PROOF_LOG.undone is logged and the version grows.
 */
export async function undoReview(
  db: Db,
  dialect: Dialect,
  input: { clanId: number; gameId: number | null; id: number; referee: { id: number; username: string }; now: number },
): Promise<SubmissionChange> {
  return db.transaction().execute(async (trx) => {
    const { game, row } = await lockedSubmission(trx, dialect, input);
    if (row.status !== 'approved' && row.status !== 'denied') throw conflict(PROOF_MESSAGES.notReviewed);
    const reviewedAt = row.reviewed_at === null ? NaN : Date.parse(row.reviewed_at);
    if (!(input.now - reviewedAt <= REVIEW_UNDO_MS)) throw conflict(PROOF_MESSAGES.undoExpired);
    const team = await teamInGame(trx, game.id, row.team_id);
    if (!team || team.square_since !== row.square_since || team.task_state !== row.status) throw conflict(PROOF_MESSAGES.undoExpired);
    await setSubmissionStatus(trx, row.id, { status: 'pending', reviewer_id: null, reason: null, reviewed_at: null });
    await setTaskState(trx, team.id, 'submitted');
    const log = await insertLog(trx, game.id, PROOF_LOG.undone(input.referee.username), { name: team.name, color: team.color });
    await updateGame(trx, game.id, {});
    return { submissionId: row.id, log: [log] };
  });
}

/**
 * Withdraws the team's pending submissions in the game (docs/server.md §9: a revert
 * withdraws them), inside the revert's transaction. Returns their ids, for `submission_update`.
 */
export async function withdrawPending(trx: Db, gameId: number, teamId: number): Promise<number[]> {
  const ids = await pendingOfTeam(trx, gameId, teamId);
  for (const id of ids) await setSubmissionStatus(trx, id, { status: 'withdrawn', reviewer_id: null, reason: null, reviewed_at: null });
  return ids;
}

/**
 * Deletes stored images (of submissions whose rows are gone: reset, game, team, event or clan
 * deletion; docs/server.md §9) after the transaction that deleted the rows committed. A
 * failure is logged and never fails the request: the rows are already gone.
 */
export async function deleteImages(deps: { images: ImageStore }, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  try {
    await deps.images.delete(keys);
  } catch (err) {
    log.error({ err }, '[submissions] deleting stored images failed');
  }
}
