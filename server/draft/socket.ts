import { ActionRefused } from '../games/play';
import { ApiError } from '../errors';
import { clanOfEvent } from '../events/repository';
import { DRAFT_MESSAGES, DraftPickSchema, JoinDraftSchema } from '../../contract/draft';
import { clanRole, currentUser, parsePayload, type HandlerContext } from '../realtime/handlerContext';
import { draftRoom, type IoSocket } from '../realtime/types';
import { loadDraftState } from './repository';
import { captainPick, draftChanged } from './service';

/**
 * join_draft {event_id} (docs/server.md §16): a signed-in member of the event's clan (any role)
 * joins the draft room `draft:<id>` and is sent the current `draft_state` at once when the event
 * has a draft (and every change after). Refused as action_error: signed out, an unknown event
 * ('Event not found.', also for an event of a clan the user is not in).
 */
export async function joinDraft(ctx: HandlerContext, socket: IoSocket, raw: unknown): Promise<void> {
  const { event_id: eventId } = parsePayload(JoinDraftSchema, 'join_draft', raw);
  await ctx.roomJoinReads(async () => {
    const userId = await currentUser(ctx, socket);
    if (userId === null) throw new ActionRefused(DRAFT_MESSAGES.signIn);
    const clanId = await clanOfEvent(ctx.deps.db, eventId);
    if (clanId === null || (await clanRole(ctx, clanId, userId)) === null) throw new ActionRefused(DRAFT_MESSAGES.eventNotFound);
    await socket.join(draftRoom(eventId));
    // Read once the socket is in the room: a change committed meanwhile is in this read or in a broadcast after it.
    const state = await loadDraftState(ctx.deps.db, eventId);
    if (state) socket.emit('draft_state', state);
  });
}

/** leave_draft {event_id}: leaves the draft room. */
export async function leaveDraft(_ctx: HandlerContext, socket: IoSocket, raw: unknown): Promise<void> {
  const { event_id: eventId } = parsePayload(JoinDraftSchema, 'leave_draft', raw);
  await socket.leave(draftRoom(eventId));
}

/**
 * draft_pick {event_id, signup_id} (docs/server.md §16; draft/service.ts captainPick): the
 * captain on the clock picks a free agent; then draft_state to the room. Anyone else's pick, a
 * pick of someone not in the pool, a paused or finished draft: action_error to the sender, and
 * nothing written.
 */
export async function draftPick(ctx: HandlerContext, socket: IoSocket, raw: unknown): Promise<void> {
  const { event_id: eventId, signup_id: signupId } = parsePayload(DraftPickSchema, 'draft_pick', raw);
  const userId = await currentUser(ctx, socket);
  if (userId === null) throw new ActionRefused(DRAFT_MESSAGES.signIn);
  try {
    const outcome = await captainPick(ctx.deps, eventId, userId, signupId);
    await draftChanged(ctx.deps, eventId, outcome, userId);
  } catch (err) {
    if (err instanceof ApiError) throw new ActionRefused(err.message);
    throw err;
  }
}
