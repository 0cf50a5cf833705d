import { assign, setup } from 'xstate';
import type { Submission } from '../contract/submission';
import { countPendingProof, type PendingProof } from '../contract/pendingProofs';
import { missingCallback, missingPromise } from './shared';

export interface PendingProofsInput {
  /** The clans the viewer manages (Owner or Admin), in the order the navbar offers them. */
  clanIds: number[];
}

export interface PendingProofsContext {
  clanIds: number[];
  /** The pending submissions of those clans, as the last count and the live updates since left them. */
  pending: PendingProof[];
}

export type PendingProofsEvent =
  /** The count is to be taken again (the feed asks once the rooms are joined: what was sent before is not replayed). */
  | { type: 'reviews.reload' }
  /** Fact: a submission of a managed clan changed (socket submission_update). */
  | { type: 'submission.updated'; submission: Submission };

/**
 * The pending-proof count of the navigation bar, for managers (docs/server.md §9: the
 * referee queue and its live `submission_update`s over the clans' managers rooms).
 * - The `reviewFeed` actor (given from src/) joins every managed clan's managers room for the
 *   chart's whole life, reports each `submission.updated`, and asks for `reviews.reload` once the
 *   rooms are joined (on every connect: what was sent before updates arrive is counted).
 * - counting (`countPending`, every managed clan's queue) → counted, or failed.
 * - counted: an update is merged in place (`isPlaceable`: it leaves the queue, or its game is one
 *   the count already placed in a clan); an update of a game the count has not seen yet counts
 *   again, as does `reviews.reload`.
 * - An update or a reload while counting, or while failed, counts again, so the count never
 *   misses a change that raced the load.
 */
export const pendingProofsMachine = setup({
  types: {
    context: {} as PendingProofsContext,
    events: {} as PendingProofsEvent,
    input: {} as PendingProofsInput,
  },
  actors: {
    countPending: missingPromise<PendingProof[], { clanIds: number[] }>('pendingProofs', 'countPending'),
    reviewFeed: missingCallback<PendingProofsEvent, { clanIds: number[] }>('pendingProofs', 'reviewFeed'),
  },
  guards: {
    /** The update can be applied without a new count: it is not pending, or its game's clan is known. */
    isPlaceable: ({ context }, submission: Submission) => countPendingProof(context.pending, submission) !== null,
  },
  actions: {
    assignPending: assign((_, pending: PendingProof[]) => ({ pending })),
    applyUpdate: assign(({ context }, submission: Submission) => ({ pending: countPendingProof(context.pending, submission) ?? context.pending })),
  },
}).createMachine({
  id: 'pendingProofs',
  context: ({ input }) => ({ clanIds: input.clanIds, pending: [] }),
  invoke: { id: 'reviewFeed', src: 'reviewFeed', input: ({ context }) => ({ clanIds: context.clanIds }) },
  initial: 'counting',
  states: {
    counting: {
      tags: ['busy'],
      invoke: {
        id: 'countPending',
        src: 'countPending',
        input: ({ context }) => ({ clanIds: context.clanIds }),
        onDone: { target: 'counted', actions: { type: 'assignPending', params: ({ event }) => event.output } },
        onError: 'failed',
      },
      on: {
        'reviews.reload': { target: 'counting', reenter: true },
        'submission.updated': { target: 'counting', reenter: true },
      },
    },
    counted: {
      on: {
        'reviews.reload': 'counting',
        'submission.updated': [
          { guard: { type: 'isPlaceable', params: ({ event }) => event.submission }, actions: { type: 'applyUpdate', params: ({ event }) => event.submission } },
          { target: 'counting' },
        ],
      },
    },
    failed: {
      on: {
        'reviews.reload': 'counting',
        'submission.updated': 'counting',
      },
    },
  },
});
