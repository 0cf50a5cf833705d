import * as v from 'valibot';
import { fromCallback, type EventObject } from 'xstate';
import { JoinRequestCountSchema } from '../../contract/joins';
import type { JoinRequestsEvent } from '../../machines/joinRequests.machine';
import { openFeed, openGameSocket, type GameSocketLike } from './gameSocket';

/**
 * Watches the count of clan `clanId`'s pending join requests (docs/server.md §18): opens a socket
 * with `open`, joins the clan's managers room with `join_reviews` {clan_id} on every connect (a
 * manager's join; anyone else's joins nothing and hears nothing), and hands `deliver` each
 * `join_request` of this clan (parsed with the contract schema) as `joinRequests.counted` followed
 * by `joinRequests.reload`, so the list follows the count. Once a join is acknowledged it asks for a
 * reload too: requests made before the room was joined are not replayed. Stopping it releases the
 * socket (a lease on the tab's one socket). The joinRequests chart is given `deliver` as its send.
 */
export function joinRequestFeedActor(open: () => GameSocketLike = openGameSocket) {
  return fromCallback<EventObject, { clanId: number; deliver: (event: JoinRequestsEvent) => void }>(({ input }) => {
    const { clanId, deliver } = input;
    const onConnect = (socket: GameSocketLike) => socket.emit('join_reviews', { clan_id: clanId }, () => deliver({ type: 'joinRequests.reload' }));
    const onCount = (payload: unknown) => {
      const parsed = v.safeParse(JoinRequestCountSchema, payload);
      if (!parsed.success || parsed.output.clan_id !== clanId) return;
      deliver({ type: 'joinRequests.counted', pending: parsed.output.pending });
      deliver({ type: 'joinRequests.reload' });
    };
    const feed = openFeed(open, onConnect, [['join_request', onCount]]);
    return () => feed.stop();
  });
}
