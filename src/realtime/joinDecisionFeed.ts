import * as v from 'valibot';
import { fromCallback, type EventObject } from 'xstate';
import { JoinRequestDecidedSchema, type JoinRequestDecided } from '../../contract/joins';
import { openFeed, openGameSocket, type GameSocketLike } from './gameSocket';

/**
 * Listens, while the signed-in user has a request waiting, for a manager's decision on it
 * (docs/server.md §18 "Joining"): opens a lease on the tab's one socket with `open` (the server
 * puts every signed-in socket in the user's own room, so nothing is joined) and hands `deliver`
 * each `join_request_decided` (parsed with the contract schema), so the holder reloads the user
 * and the request shows its new status and the clan its membership. On every connect after the
 * first it delivers a null too: a decision made while the socket was down is then not missed.
 * Stopping it releases the lease.
 */
export function joinDecisionFeedActor(open: () => GameSocketLike = openGameSocket) {
  return fromCallback<EventObject, { deliver: (decided: JoinRequestDecided | null) => void }>(({ input }) => {
    let connects = 0;
    const onConnect = () => {
      connects += 1;
      if (connects > 1) input.deliver(null);
    };
    const onDecided = (payload: unknown) => {
      const parsed = v.safeParse(JoinRequestDecidedSchema, payload);
      if (parsed.success) input.deliver(parsed.output);
    };
    const feed = openFeed(open, onConnect, [['join_request_decided', onDecided]]);
    return () => feed.stop();
  });
}
