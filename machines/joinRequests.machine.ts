import { assign, setup } from 'xstate';
import type { ClanJoinRequest } from '../contract/joins';
import { listLoad, type ListContext } from './listLoader';

/** The managers' list with the clan's pending count as the live socket last said it (null before any word). */
export interface JoinRequestsContext extends ListContext<ClanJoinRequest> {
  pending: number | null;
}

export type JoinRequestsEvent =
  | { type: 'joinRequests.reload' }
  /** A fact from the managers' room: the clan's count of pending requests changed (`join_request`). */
  | { type: 'joinRequests.counted'; pending: number };

/** The list-loader load step; a load is the truth as of now, so its rows give the count. */
const requests = listLoad<ClanJoinRequest, JoinRequestsContext, 'loadJoinRequests'>({
  id: 'joinRequests',
  actor: 'loadJoinRequests',
  fallback: 'Failed to load the requests to join.',
  onLoaded: (_, items) => ({ pending: items.length }),
});

/**
 * The managers' requests to join on the clan page (docs/client.md §5; docs/server.md §18): the
 * list-loader load step over the `loadJoinRequests` actor. It loads the clan's pending requests
 * (`loading`: 'Loading requests to join...'), reloads them in place on `joinRequests.reload`
 * (after an approve or a deny; `reloading` keeps the rows, and a failed reload keeps them beside
 * the error). `joinRequests.counted`, the live count, is shown at once and reloads the rows so
 * they follow it: from `loaded`, and from `reloading` by starting the load again (one begun before
 * the change may miss it); during the first load or after a failure it only sets the count.
 */
export const joinRequestsMachine = setup({
  types: { context: {} as JoinRequestsContext, events: {} as JoinRequestsEvent },
  actors: requests.actors,
  actions: {
    assignItems: assign(({ context }, items: ClanJoinRequest[]) => requests.loaded(context, items)),
    assignError: assign((_, error: unknown) => requests.failed(error)),
    assignCount: assign((_, pending: number) => ({ pending })),
  },
}).createMachine({
  id: 'joinRequests',
  context: { items: [], error: null, pending: null },
  initial: 'loading',
  on: {
    'joinRequests.counted': { actions: { type: 'assignCount', params: ({ event }) => event.pending } },
  },
  states: {
    loading: { tags: ['busy'], invoke: requests.load() },
    loaded: {
      on: {
        'joinRequests.reload': 'reloading',
        'joinRequests.counted': { target: 'reloading', actions: { type: 'assignCount', params: ({ event }) => event.pending } },
      },
    },
    reloading: {
      tags: ['busy'],
      invoke: requests.load({ failed: 'loaded' }),
      on: {
        'joinRequests.counted': { target: 'reloading', reenter: true, actions: { type: 'assignCount', params: ({ event }) => event.pending } },
      },
    },
    failed: { on: { 'joinRequests.reload': 'loading' } },
  },
});
