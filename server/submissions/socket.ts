import { isManagerRole } from '../../contract/user';
import { JoinReviewsSchema, managersRoom, type JoinReviewsAnswer } from '../../contract/submission';
import { clanRole, currentUser, parsePayload, type HandlerContext } from '../realtime/handlerContext';
import { managerInClanRoom, type IoSocket } from '../realtime/types';

/**
 * join_reviews {clan_id} (docs/server.md §9): a signed-in Owner or Admin of the clan joins
 * its managers room `clan:<id>:managers` (and their per-user room of it, managerInClanRoom, so a
 * demotion, kick or leave moves them out), where every submission_update of the clan's games
 * arrives. Anyone else joins nothing and is told nothing (the contract: joins nothing); a bad
 * payload gets `action_error`. A client that passes a Socket.IO acknowledgement gets
 * `{joined: boolean}` once the join is done, so it knows when updates start to arrive.
 */
export async function joinReviews(ctx: HandlerContext, socket: IoSocket, raw: unknown, ack?: (answer: JoinReviewsAnswer) => void): Promise<void> {
  const { clan_id: clanId } = parsePayload(JoinReviewsSchema, 'join_reviews', raw);
  const joined = await ctx.roomJoinReads(async () => {
    const userId = await currentUser(ctx, socket);
    const role = await clanRole(ctx, clanId, userId);
    if (userId === null || role === null || !isManagerRole(role)) return false;
    await socket.join([managersRoom(clanId), managerInClanRoom(clanId, userId)]);
    return true;
  });
  ack?.({ joined });
}
