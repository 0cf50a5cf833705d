import { DraftAnswerSchema, DraftRoomAnswerSchema, type DraftRoomAnswer } from '../../contract/draft';
import type { DraftState } from '../../contract/signup';
import type { DraftControl } from '../../machines/draftRoom.machine';
import { request } from './client';

/**
 * The captains' draft calls of docs/server.md §16, one function per endpoint, answers parsed with
 * contract/draft.ts schemas; failures raise ApiRequestError with the server's `error` text.
 */

const draftPath = (clanId: number, eventId: number) => `clan/${clanId}/events/${eventId}/draft`;

/** GET .../draft (members) → the draft (null without one) and the event's sign-ups. */
export async function fetchDraftRoom(clanId: number, eventId: number): Promise<DraftRoomAnswer> {
  return request(DraftRoomAnswerSchema, (h) => h.get(draftPath(clanId, eventId)), 'Failed to load the draft.');
}

/** The draft of a change's answer; an answer without one cannot be read. */
function drafted(answer: { draft_state: DraftState | null }): DraftState {
  if (!answer.draft_state) throw new Error('The server sent an answer this page cannot read.');
  return answer.draft_state;
}

/** POST .../draft {captain_signup_ids, pick_seconds} (managers) → the new draft. */
export async function startDraft(clanId: number, eventId: number, captainIds: number[], pickSeconds: number): Promise<DraftState> {
  return drafted(await request(DraftAnswerSchema, (h) => h.post(draftPath(clanId, eventId), { json: { captain_signup_ids: captainIds, pick_seconds: pickSeconds } }), 'Failed to start the draft.'));
}

/** POST .../draft/{pause|resume|undo|end} (managers) → the draft after it. */
export async function controlDraft(clanId: number, eventId: number, action: DraftControl): Promise<DraftState> {
  return drafted(await request(DraftAnswerSchema, (h) => h.post(`${draftPath(clanId, eventId)}/${action}`), 'Failed to change the draft.'));
}
