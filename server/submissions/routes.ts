import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/context';
import { pathId, readJson, requireUser } from '../http/context';
import { routeBodyLimit } from '../http/bodyLimit';
import { readUploadForm, uploadGate } from '../http/uploads';
import { ApiError, badRequest, notFound } from '../errors';
import { requireManager, requireMember } from '../clans/access';
import { announce, gameScope } from '../http/gameScope';
import { findGame } from '../games/repository';
import { IdParamSchema, firstIssueMessage } from '../../contract/common';
import {
  PROOF_MAX_BYTES,
  PROOF_MESSAGES,
  ProofNoteSchema,
  ReviewBodySchema,
  SUBMISSION_STATUSES,
} from '../../contract/submission';
import { processProofImage } from './images';
import { findSubmissionRow, listClanSubmissions, listGameSubmissions, loadSubmission } from './repository';
import { checkSubmitter, reviewSubmission, submitProof, undoReview, type SubmissionChange } from './service';

const GAME = '/clan/:clanId/events/:eventId/game/:gameId';
/** Room for the multipart envelope and the other fields around an 8 MiB image, in bytes. */
const MULTIPART_SLACK = 64 * 1024;

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

/** The `{id}` of a submission path: 400 'Invalid submission id.' unless a positive integer id. */
const submissionId = (c: Context<AppEnv>) => pathId(c, 'id', 'submission id');

/**
 * Task proof and referee review (docs/server.md §9). Every path also answers with a
 * trailing slash; errors are `{"error": ...}`: 401 signed out, 400 bad ids or bodies, 404 unknown
 * clan, event, game or submission (or one of another clan), 403 not a member / not a manager.
 * - POST   .../game/{gameId}/submissions multipart team_id, image (PNG, JPEG, WebP or GIF by its
 *   bytes; 8 MiB, else 413), note? → 201 {submission}. Clan members with an IGN on the team
 *   (else 409), while the game is in-progress or paused and the team's state is open or denied
 *   (else 409 with the reason); 400 for an image that is not one of the four types or does not
 *   decode. The team's state becomes `submitted`; logged and broadcast (submission_update).
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
      const image = await processProofImage(upload.image);
      const change = await submitProof(db, dialect, images, { scope: s.scope, teamId: upload.teamId, userId: s.user.id, note: upload.note, image });
      await announceSubmission(c, s.gameId, change);
      return c.json(await answerOf(c, change.submissionId), 201);
    },
  );

  app.get(`${GAME}/submissions`, async (c) => {
    const s = await gameScope(c, false);
    return c.json({ submissions: await listGameSubmissions(s.deps.db, s.gameId) });
  });

  app.get('/clan/:clanId/submissions', async (c) => {
    const user = requireUser(c);
    const clanId = pathId(c, 'clanId', 'clan id');
    const { db } = c.get('deps');
    await requireManager(db, clanId, user.id);
    const status = c.req.query('status') ?? 'pending';
    const known = v.safeParse(v.picklist(SUBMISSION_STATUSES), status);
    if (!known.success) throw badRequest(PROOF_MESSAGES.statusQuery);
    return c.json({ submissions: await listClanSubmissions(db, clanId, known.output) });
  });

  /** The clan (and, under the game path, the game) of a review call, checked for a manager. */
  const reviewScope = async (c: Context<AppEnv>) => {
    if (c.req.param('gameId') !== undefined) {
      const s = await gameScope(c, true);
      return { user: s.user, clanId: s.clanId, gameId: s.gameId as number | null };
    }
    const user = requireUser(c);
    const clanId = pathId(c, 'clanId', 'clan id');
    await requireManager(c.get('deps').db, clanId, user.id);
    return { user, clanId, gameId: null };
  };

  for (const path of [`${GAME}/submissions/:id/review`, '/clan/:clanId/submissions/:id/review']) {
    app.put(path, async (c) => {
      const s = await reviewScope(c);
      const id = submissionId(c);
      const body = await readJson(c, ReviewBodySchema);
      const { db, dialect } = c.get('deps');
      const change = await reviewSubmission(db, dialect, { clanId: s.clanId, gameId: s.gameId, id, reviewer: { id: s.user.id, username: s.user.username }, body });
      const row = await findSubmissionRow(db, id);
      if (row) await announceSubmission(c, row.game_id, change);
      return c.json(await answerOf(c, id));
    });

    app.delete(path, async (c) => {
      const s = await reviewScope(c);
      const id = submissionId(c);
      const { db, dialect } = c.get('deps');
      const change = await undoReview(db, dialect, { clanId: s.clanId, gameId: s.gameId, id, referee: { id: s.user.id, username: s.user.username }, now: Date.now() });
      const row = await findSubmissionRow(db, id);
      if (row) await announceSubmission(c, row.game_id, change);
      return c.json(await answerOf(c, id));
    });
  }

  for (const kind of ['image', 'thumb'] as const) {
    app.get(`/submissions/:id/${kind}`, async (c) => {
      const user = requireUser(c);
      const id = submissionId(c);
      const { db, images } = c.get('deps');
      const row = await findSubmissionRow(db, id);
      if (!row) throw notFound(PROOF_MESSAGES.notFound);
      await requireMember(db, row.clan_id, user.id);
      const bytes = await images.get(kind === 'image' ? row.image_key : row.thumb_key);
      if (!bytes) throw notFound('The image is no longer stored.');
      return c.body(new Uint8Array(bytes), 200, {
        'Content-Type': kind === 'image' ? row.image_type : row.thumb_type,
        'Cache-Control': 'private',
        'X-Content-Type-Options': 'nosniff',
        'Content-Length': String(bytes.length),
      });
    });
  }

  return app;
}
