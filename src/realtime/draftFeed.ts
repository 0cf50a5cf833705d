import * as v from 'valibot';
import { fromCallback } from 'xstate';
import { DraftStateSchema } from '../../contract/signup';
import { ActionErrorSchema } from '../../contract/socket';
import type { DraftFeedCommand, DraftRoomEvent } from '../../machines/draftRoom.machine';
import { openFeed, openGameSocket, type GameSocketLike } from './gameSocket';

/**
 * The `feed` actor of the draftRoom chart for event `eventId` (docs/server.md §16): opens a socket with `open`, sends
 * `join_draft` {event_id} on every connect (a reconnect's join answers the whole state, so nothing
 * missed while away stays missing), reports each `draft_state` of this event as `draft.updated`
 * and each `action_error` as `draft.refused` (payloads parsed with the contract schemas, a malformed
 * one dropped), and sends `draft_pick` for the chart's `pick` command. Stopping it leaves the room
 * and releases the socket (a lease on the tab's one socket: the room is left by its last holder only).
 */
export function draftFeedActor(eventId: number, open: () => GameSocketLike = openGameSocket) {
  return fromCallback<DraftFeedCommand, void>(({ sendBack, receive }) => {
    const send = (event: DraftRoomEvent) => sendBack(event);
    const onConnect = (socket: GameSocketLike) => socket.emit('join_draft', { event_id: eventId });
    const onState = (payload: unknown) => {
      const parsed = v.safeParse(DraftStateSchema, payload);
      if (parsed.success && parsed.output.event_id === eventId) send({ type: 'draft.updated', state: parsed.output });
    };
    const onError = (payload: unknown) => {
      const parsed = v.safeParse(ActionErrorSchema, payload);
      if (parsed.success) send({ type: 'draft.refused', message: parsed.output.message });
    };
    const feed = openFeed(open, onConnect, [['draft_state', onState], ['action_error', onError]]);
    receive((command) => {
      feed.socket.emit('draft_pick', { event_id: eventId, signup_id: command.signupId });
    });
    return () =>
      feed.stop(() => {
        if (feed.socket.connected) feed.socket.emit('leave_draft', { event_id: eventId });
      });
  });
}
