import { assign, setup } from 'xstate';
import { missingPromise } from './shared';
import type { ClanMember } from '../contract/clan';
import { errorText } from '../contract/errorText';

/** A loaded clan: its name and members (the GET /api/clan/{clanId}/members answer). */
export interface LoadedClan {
  clan_id: number;
  clan_name: string;
  members: ClanMember[];
}

export interface ClanDataContext {
  clanId: number;
  clanName: string;
  members: ClanMember[];
  /** The clan-load error text (product-spec section 8 Clan load), or null. */
  error: string | null;
}

export type ClanDataEvent =
  | { type: 'clan.reload' }
  | { type: 'clan.memberRemoved'; memberId: number }
  | { type: 'clan.renamed'; name: string };

/** True for a failed load whose HTTP status is 401 (signed out). */
function isUnauthorizedError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 401;
}

/**
 * The clan data of the clan management screen (product-spec sections 2, 4, 8 Clan load): loads
 * the clan with its members, reloads in the background on `clan.reload` (keeping what is shown),
 * removes a kicked row locally and renames locally. A failed first load shows the error the
 * `loadClan` actor raised (its message is the spec text: 404 'Clan ID {id} not found.', 403 the
 * permission text, else 'Failed to load clan data.'); a 401 enters `signedOut`, whose entry
 * action `goToLogin` (provided from src/) leaves the page for /.
 */
export const clanDataMachine = setup({
  types: {
    context: {} as ClanDataContext,
    events: {} as ClanDataEvent,
    input: {} as { clanId: number },
  },
  actors: {
    loadClan: missingPromise<LoadedClan, { clanId: number }>('clanData', 'loadClan'),
  },
  guards: {
    isUnauthorized: (_, error: unknown) => isUnauthorizedError(error),
  },
  actions: {
    assignClan: assign((_, clan: LoadedClan) => ({ clanName: clan.clan_name, members: clan.members, error: null })),
    assignLoadError: assign((_, error: unknown) => ({
      error: errorText(error, 'Failed to load clan data.'),
    })),
    removeMember: assign(({ context }, memberId: number) => ({ members: context.members.filter((m) => m.member_id !== memberId) })),
    assignName: assign((_, name: string) => ({ clanName: name })),
    goToLogin: () => {},
  },
}).createMachine({
  id: 'clanData',
  context: ({ input }) => ({ clanId: input.clanId, clanName: '', members: [], error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadClan',
        src: 'loadClan',
        input: ({ context }) => ({ clanId: context.clanId }),
        onDone: { target: 'ready', actions: { type: 'assignClan', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }: { event: { error: unknown } }) => event.error }, target: 'signedOut' },
          { target: 'failed', actions: { type: 'assignLoadError', params: ({ event }: { event: { error: unknown } }) => event.error } },
        ],
      },
    },
    ready: {
      initial: 'current',
      on: {
        'clan.memberRemoved': { actions: { type: 'removeMember', params: ({ event }) => event.memberId } },
        'clan.renamed': { actions: { type: 'assignName', params: ({ event }) => event.name } },
      },
      states: {
        current: {
          on: { 'clan.reload': 'reloading' },
        },
        reloading: {
          on: { 'clan.reload': { target: 'reloading', reenter: true } },
          invoke: {
            id: 'reloadClan',
            src: 'loadClan',
            input: ({ context }) => ({ clanId: context.clanId }),
            onDone: { target: 'current', actions: { type: 'assignClan', params: ({ event }) => event.output } },
            onError: [
              { guard: { type: 'isUnauthorized', params: ({ event }: { event: { error: unknown } }) => event.error }, target: '#clanData.signedOut' },
              { target: '#clanData.failed', actions: { type: 'assignLoadError', params: ({ event }: { event: { error: unknown } }) => event.error } },
            ],
          },
        },
      },
    },
    failed: {
      on: { 'clan.reload': 'loading' },
    },
    signedOut: {
      entry: 'goToLogin',
    },
  },
});
