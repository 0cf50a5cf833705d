import * as v from 'valibot';
import { ErrorBodySchema } from '../../contract/common';
import { SubmissionAnswerSchema, SubmissionListSchema, type ReviewBody, type Submission } from '../../contract/submission';
import { ApiRequestError, request } from './client';

/**
 * The proof and review calls of docs/server.md §9, one function per endpoint, answers
 * parsed with the contract/submission.ts schemas; failures raise ApiRequestError with the
 * server's `error` text (or a fallback).
 */

const gamePath = (clanId: number, eventId: number, gameId: number) => `clan/${clanId}/events/${eventId}/game/${gameId}`;
/** The review of one submission: the referee queue spans the clan's games, so it is addressed under the clan. */
const reviewPath = (clanId: number, submissionId: number) => `clan/${clanId}/submissions/${submissionId}/review`;

const NETWORK_ERROR = 'Network error. Failed to connect to the server.';

/** What a proof upload carries. */
export interface ProofUpload {
  teamId: number;
  image: Blob;
  note: string;
}

/** Upload progress: bytes sent of the body's total. */
export type UploadProgress = (loaded: number, total: number) => void;

/**
 * POST /api/clan/{clanId}/events/{eventId}/game/{gameId}/submissions, multipart (team_id, image,
 * note) → the new submission (201). Sent with XMLHttpRequest so the upload reports its progress
 * (fetch cannot report upload progress over HTTP/1.1). 413 → the server's text or 'The image is
 * too large: at most 8 MiB.'; other refusals the server's `error`.
 */
export function uploadProof(clanId: number, eventId: number, gameId: number, upload: ProofUpload, onProgress: UploadProgress): Promise<Submission> {
  const body = new FormData();
  body.append('team_id', String(upload.teamId));
  body.append('image', upload.image, upload.image instanceof File ? upload.image.name : 'proof.png');
  if (upload.note.trim() !== '') body.append('note', upload.note);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/${gamePath(clanId, eventId, gameId)}/submissions`);
    xhr.withCredentials = true;
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    };
    xhr.onerror = () => reject(new ApiRequestError(NETWORK_ERROR, 0));
    xhr.onabort = () => reject(new ApiRequestError('The upload was cancelled.', 0));
    xhr.onload = () => {
      let json: unknown;
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        json = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const parsed = v.safeParse(SubmissionAnswerSchema, json);
        if (parsed.success) resolve(parsed.output.submission);
        else reject(new ApiRequestError('The server sent an answer this page cannot read.', xhr.status));
        return;
      }
      const error = v.safeParse(ErrorBodySchema, json);
      const fallback = xhr.status === 413 ? 'The image is too large: at most 8 MiB.' : 'Failed to send the proof.';
      reject(new ApiRequestError(error.success && error.output.error ? error.output.error : fallback, xhr.status));
    };
    xhr.send(body);
  });
}

/** GET .../game/{gameId}/submissions → the game's submissions, newest first (clan members). */
export async function fetchGameSubmissions(clanId: number, eventId: number, gameId: number): Promise<Submission[]> {
  const answer = await request(SubmissionListSchema, (h) => h.get(`${gamePath(clanId, eventId, gameId)}/submissions`), 'Failed to load the proofs.');
  return answer.submissions;
}

/** GET /api/clan/{clanId}/submissions?status=pending → the referee queue over all the clan's games, oldest first (managers). */
export async function fetchReviewQueue(clanId: number): Promise<Submission[]> {
  const answer = await request(
    SubmissionListSchema,
    (h) => h.get(`clan/${clanId}/submissions`, { searchParams: { status: 'pending' } }),
    'Failed to load the submissions waiting for review.',
  );
  return answer.submissions;
}

/** PUT .../submissions/{id}/review {decision, reason} → the reviewed submission (managers). */
export async function reviewSubmission(clanId: number, submissionId: number, body: ReviewBody): Promise<Submission> {
  const answer = await request(SubmissionAnswerSchema, (h) => h.put(reviewPath(clanId, submissionId), { json: body }), 'Failed to review the submission.');
  return answer.submission;
}

/** DELETE .../submissions/{id}/review → the submission, pending again (undo within 5 minutes, before the team rolls). */
export async function undoReview(clanId: number, submissionId: number): Promise<Submission> {
  const answer = await request(SubmissionAnswerSchema, (h) => h.delete(reviewPath(clanId, submissionId)), 'Failed to undo the review.');
  return answer.submission;
}
