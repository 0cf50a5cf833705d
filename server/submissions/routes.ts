import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import type { AppEnv, SessionUser } from '../http/context';
import { requireUser } from '../http/context';
import { checkIds, describe, ids, input, named, valid } from '../http/route';
import { routeBodyLimit } from '../http/bodyLimit';
import { readUploadForm, uploadGate } from '../http/uploads';
import { ApiError, badRequest, notFound } from '../errors';
import { recordAudit } from '../audit/service';
import { requireManager, requireMember } from '../clans/access';
import { announce, EVENT_ID_LABELS, gameScope } from '../http/gameScope';
import { findGame } from '../games/repository';
import { IdParamSchema, firstIssueMessage } from '../../contract/common';
import {
  PROOF_MAX_BYTES,
  PROOF_MESSAGES,
  ProofNoteSchema,
  ReviewBodySchema,
  SUBMISSION_STATUSES,
  SubmissionAnswerSchema,
  SubmissionListSchema,
  type ReviewBody,
} from '../../contract/submission';
import { processProofImage } from './images';
import { findSubmissionRow, listClanSubmissions, listGameSubmissions, loadSubmission } from './repository';
import { checkSubmitter, reviewSubmission, storedBytes, submitProof, undoReview, type SubmissionChange } from './service';
import { checkUploadRoom } from '../quotas/repository';
import { notifyProofWaiting, notifyReview } from '../push/service';

const GAME = '/clan/:clanId/events/:eventId/game/:gameId';
/** Room for the multipart envelope and the other fields around an 8 MiB image, in bytes. */
const MULTIPART_SLACK = 64 * 1024;

/** The path ids: a game's, a submission's under its game or its clan, and a submission's alone. */
const GAME_IDS = ids({ ...EVENT_ID_LABELS, gameId: 'game id' });
const GAME_SUBMISSION_IDS = ids({ ...EVENT_ID_LABELS, gameId: 'game id', id: 'submission id' });
const CLAN_IDS = ids({ clanId: 'clan id' });
const CLAN_SUBMISSION_IDS = ids({ clanId: 'clan id', id: 'submission id' });
const SUBMISSION_IDS = ids({ id: 'submission id' });

/** GET /clan/{clanId}/submissions's query: `status`, pending when absent; 400 PROOF_MESSAGES.statusQuery for another text. */
const ClanSubmissionsQuerySchema = v.object({ status: v.optional(v.picklist(SUBMISSION_STATUSES, PROOF_MESSAGES.statusQuery), 'pending') });

const SubmissionAnswer = named('SubmissionAnswer', SubmissionAnswerSchema);
const SubmissionList = named('SubmissionList', SubmissionListSchema);
const Review = named('ReviewBody', ReviewBodySchema);

/** Who reviews and what: the manager, the clan, the game (null on the short path) and the submission id. */
interface ReviewScope {
  user: SessionUser;
  clanId: number;
  gameId: number | null;
  id: number;
}

/** The clan of the path checked for a manager: 401 signed out, 400 bad ids, 404 unknown clan, 403 not a manager. */
async function clanManagerScope<P extends { clanId: number }>(c: Context<AppEnv, string, { out: { param: P } }>) {
  const user = requireUser(c);
  checkIds(c, ['clanId']);
  await requireManager(c.get('deps').db, Number(c.req.param('clanId')), user.id);
  return { ...valid(c, 'param'), user };
}

/**
 * After a committed change of a submission: the game's progress (its task states changed), the
 * log entries, and `submission_update` to the members and managers rooms (docs/server.md
 * §9). Never fails the answer (the change is saved; clients catch up on join_game).
 */
async function announceSubmission(c: Context<AppEnv>, gameId: number, change: SubmissionChange): Promise<void> {
  await announce(c, gameId, 'progress', change.log);
  await c.get('deps').broadcaster.submissionChanged(change.submissionId);
}

/** The submission in the contract shape (it exists: it was just changed). */
async function answerOf(c: Context<AppEnv>, id: number) {
  const submission = await loadSubmission(c.get('deps').db, id);
  if (!submission) throw notFound(PROOF_MESSAGES.notFound);
  return { submission };
}

/**
 * The fields of a proof upload (docs/server.md §9), read as they arrive (server/http/uploads.ts,
 * docs/server.md §8): 400 for a multipart body that does not parse, a missing or malformed
 * `team_id` (PROOF_MESSAGES.teamRequired), no `image` file (imageRequired) or a bad `note` (the
 * text rule, at most 500 characters); 413 for an image over PROOF_MAX_BYTES (8 MiB).
 */
async function readUpload(c: Context<AppEnv>): Promise<{ teamId: number; image: Buffer; note: string }> {
  const form = await readUploadForm(c, PROOF_MAX_BYTES);
  if (!form) throw badRequest('The proof must be a multipart/form-data body with team_id and image fields.');
  const team = v.safeParse(IdParamSchema, form.fields.team_id?.trim());
  if (!team.success) throw badRequest(PROOF_MESSAGES.teamRequired);
  const image = form.files.image;
  if (!image || image.size === 0) throw badRequest(PROOF_MESSAGES.imageRequired);
  if (image.size > PROOF_MAX_BYTES || !image.bytes) throw new ApiError(413, PROOF_MESSAGES.tooLarge);
  const rawNote = form.fields.note ?? (form.files.note ? null : '');
  if (rawNote === null) throw badRequest('Note must be text.');
  const note = v.safeParse(ProofNoteSchema, rawNote);
  if (!note.success) throw badRequest(firstIssueMessage(note.issues) || PROOF_MESSAGES.noteTooLong);
  return { teamId: team.output, image: image.bytes, note: note.output };
}

/** Reviews the submission (PUT .../review) and answers it as it is now; the change is announced. */
async function review(c: Context<AppEnv>, s: ReviewScope, body: ReviewBody): Promise<Response> {
  const { db, dialect } = c.get('deps');
  const change = await reviewSubmission(db, dialect, { clanId: s.clanId, gameId: s.gameId, id: s.id, reviewer: { id: s.user.id, username: s.user.username }, body });
  const row = await findSubmissionRow(db, s.id);
  if (row) await announceSubmission(c, row.game_id, change);
  const answer = await answerOf(c, s.id);
  const { submission } = answer;
  await recordAudit(db, s.clanId, s.user.id, body.decision === 'approve' ? 'review.approve' : 'review.deny', submission.team_name,
    `Square ${submission.square_index}: ${submission.task_description}${body.decision === 'deny' && body.reason ? ` (reason: ${body.reason})` : ''}`);
  // The team's pushes, queued after the commit (docs/server.md §20); never fails the answer.
  await notifyReview(c.get('deps'), s.id, s.user.id, s.user.username);
  return c.json(answer);
}

/** Undoes the submission's review (DELETE .../review) and answers it pending again; the change is announced. */
async function undo(c: Context<AppEnv>, s: ReviewScope): Promise<Response> {
  const { db, dialect } = c.get('deps');
  const change = await undoReview(db, dialect, { clanId: s.clanId, gameId: s.gameId, id: s.id, referee: { id: s.user.id, username: s.user.username }, now: Date.now() });
  const row = await findSubmissionRow(db, s.id);
  if (row) await announceSubmission(c, row.game_id, change);
  const answer = await answerOf(c, s.id);
  await recordAudit(db, s.clanId, s.user.id, 'review.undo', answer.submission.team_name, `Square ${answer.submission.square_index}: back to pending`);
  return c.json(answer);
}

/**
 * Task proof and referee review (docs/server.md §9). Every path also answers with a
 * trailing slash; errors are `{"error": ...}`: 401 signed out, 400 bad ids or bodies, 404 unknown
 * clan, event, game or submission (or one of another clan), 403 not a member / not a manager.
 * - POST   .../game/{gameId}/submissions multipart team_id, image (PNG, JPEG, WebP or GIF by its
 *   bytes; 8 MiB, else 413), note? → 201 {submission}. Clan members with an IGN on the team
 *   (else 409), while the game is in-progress or paused and the team's state is open or denied
 *   (else 409 with the reason); 400 for an image that is not one of the four types or does not
 *   decode; 413 uploadQuotaMessage when the image would take the clan past its upload quota
 *   (docs/server.md §18 "Quotas"; nothing is stored). The team's state becomes `submitted`;
 *   logged and broadcast (submission_update).
 *   Read, decoded and stored holding an upload slot (503 with Retry-After after 10 s of waiting
 *   for one, docs/server.md §8).
 * - GET    .../game/{gameId}/submissions → {submissions} newest first (clan members)
 * - GET    /clan/{clanId}/submissions?status=pending → {submissions} oldest first over all the
 *   clan's games (managers; status defaults to pending, any other SUBMISSION_STATUSES allowed)
 * - PUT    .../submissions/{id}/review {decision, reason} → {submission} (managers): under the game
 *   path or the shorter /clan/{clanId}/submissions/{id}/review; 403 own submission, 409 not pending
 * - DELETE .../submissions/{id}/review → {submission} pending again: within 5 minutes of the
 *   review and while the team has not moved since (409 otherwise)
 * - GET    /submissions/{id}/image and /thumb → the stored bytes with their type,
 *   Cache-Control: private and nosniff; clan members only (401 signed out, 403 not a member)
 */
export function submissionRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post(
    `${GAME}/submissions`,
    describe({
      tag: 'submissions', access: 'member', status: 201, answer: SubmissionAnswer,
      summary: "Submits a screenshot as proof of the team's task (8 MiB; 413 over; 503 with Retry-After after 10 s waiting for an upload slot).",
      multipart: {
        fields: {
          team_id: { type: 'string', pattern: '^[1-9][0-9]{0,9}$', description: 'The team the proof is for.' },
          image: { type: 'string', contentMediaType: 'image/png', description: 'PNG, JPEG, WebP or GIF (by its bytes), at most 8 MiB.' },
          note: { type: 'string', maxLength: 500, description: 'An optional note.' },
        },
        required: ['team_id', 'image'],
      },
    }),
    input('param', GAME_IDS),
    async (c, next) => {
      await gameScope(c, false);
      await next();
    },
    uploadGate(PROOF_MAX_BYTES + MULTIPART_SLACK),
    routeBodyLimit(PROOF_MAX_BYTES + MULTIPART_SLACK, PROOF_MESSAGES.tooLarge),
    async (c) => {
      const s = await gameScope(c, false);
      const upload = await readUpload(c);
      const { db, dialect, images } = s.deps;
      // The cheap checks first, so a refused sender never costs a decode; submitProof repeats them
      // on the locked game row.
      await checkSubmitter(db, await findGame(db, s.scope), upload.teamId, s.user.id);
      // The clan's upload quota (docs/server.md §18 "Quotas"): a clan already at it is refused
      // before the decode, and again with the re-encoded sizes before anything is stored.
      await checkUploadRoom(db, s.deps.config, s.clanId, 0);
      const image = await processProofImage(upload.image);
      await checkUploadRoom(db, s.deps.config, s.clanId, storedBytes(image));
      const change = await submitProof(db, dialect, images, { scope: s.scope, teamId: upload.teamId, userId: s.user.id, note: upload.note, image });
      await announceSubmission(c, s.gameId, change);
      // 'Proof waiting' to the clan's managers, queued after the commit (docs/server.md §20).
      await notifyProofWaiting(s.deps, s.clanId, s.user.id);
      return c.json(await answerOf(c, change.submissionId), 201);
    },
  );

  app.get(
    `${GAME}/submissions`,
    describe({ tag: 'submissions', access: 'member', summary: "The game's submissions, newest first.", answer: SubmissionList }),
    input('param', GAME_IDS),
    async (c) => {
      const s = await gameScope(c, false);
      return c.json({ submissions: await listGameSubmissions(s.deps.db, s.gameId) });
    },
  );

  app.get(
    '/clan/:clanId/submissions',
    describe({ tag: 'submissions', access: 'manager', summary: "The clan's submissions of one status over all its games, oldest first.", answer: SubmissionList }),
    input('param', CLAN_IDS),
    input('query', ClanSubmissionsQuerySchema, { about: { status: 'Default pending.' } }),
    async (c) => {
      const { clanId } = await clanManagerScope(c);
      const { status } = valid(c, 'query');
      return c.json({ submissions: await listClanSubmissions(c.get('deps').db, clanId, status) });
    },
  );

  app.put(
    `${GAME}/submissions/:id/review`,
    describe({ tag: 'submissions', access: 'manager', summary: 'Approves or denies a pending submission.', answer: SubmissionAnswer }),
    input('param', GAME_SUBMISSION_IDS),
    input('json', Review),
    async (c) => {
      const s = await gameScope(c, true);
      return review(c, { user: s.user, clanId: s.clanId, gameId: s.gameId, id: s.id }, valid(c, 'json'));
    },
  );

  app.delete(
    `${GAME}/submissions/:id/review`,
    describe({ tag: 'submissions', access: 'manager', summary: 'Undoes a review (within 5 minutes, while the team has not moved).', answer: SubmissionAnswer }),
    input('param', GAME_SUBMISSION_IDS),
    async (c) => {
      const s = await gameScope(c, true);
      return undo(c, { user: s.user, clanId: s.clanId, gameId: s.gameId, id: s.id });
    },
  );

  app.put(
    '/clan/:clanId/submissions/:id/review',
    describe({ tag: 'submissions', access: 'manager', summary: 'Approves or denies a pending submission (short path).', answer: SubmissionAnswer }),
    input('param', CLAN_SUBMISSION_IDS),
    input('json', Review),
    async (c) => {
      const s = await clanManagerScope(c);
      return review(c, { ...s, gameId: null }, valid(c, 'json'));
    },
  );

  app.delete(
    '/clan/:clanId/submissions/:id/review',
    describe({ tag: 'submissions', access: 'manager', summary: 'Undoes a review (short path).', answer: SubmissionAnswer }),
    input('param', CLAN_SUBMISSION_IDS),
    async (c) => {
      const s = await clanManagerScope(c);
      return undo(c, { ...s, gameId: null });
    },
  );

  for (const kind of ['image', 'thumb'] as const) {
    app.get(
      `/submissions/:id/${kind}`,
      describe({
        tag: 'submissions', access: 'member',
        summary: kind === 'image' ? "A submission's screenshot (clan members)." : "A submission's thumbnail (clan members).",
        answer: { contentType: 'image/*', description: kind === 'image' ? 'The stored image.' : 'The stored thumbnail.' },
      }),
      input('param', SUBMISSION_IDS),
      async (c) => {
        const user = requireUser(c);
        const { id } = valid(c, 'param');
        const { db, images } = c.get('deps');
        const row = await findSubmissionRow(db, id);
        if (!row) throw notFound(PROOF_MESSAGES.notFound);
        await requireMember(db, row.clan_id, user.id);
        const key = kind === 'image' ? row.image_key : row.thumb_key;
        // A Wise Old Man total's submission has no image (empty keys; image_url null, docs/server.md §17).
        if (key === '') throw notFound(PROOF_MESSAGES.noImage);
        const bytes = await images.get(key);
        if (!bytes) throw notFound('The image is no longer stored.');
        return c.body(new Uint8Array(bytes), 200, {
          'Content-Type': kind === 'image' ? row.image_type : row.thumb_type,
          'Cache-Control': 'private',
          'X-Content-Type-Options': 'nosniff',
          'Content-Length': String(bytes.length),
        });
      },
    );
  }

  return app;
}
