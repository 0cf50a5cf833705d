import { assign, setup } from 'xstate';
import { loadStep } from './listLoader';
import type { ClanMember } from '../contract/clan';
import type { ClanSettings } from '../contract/joins';

/** A loaded clan: its name, settings and members (the GET /api/clan/{clanId}/members answer). */
export interface LoadedClan {
  clan_id: number;
  clan_name: string;
  /** Join policy and listing (docs/server.md §18); absent from an answer that predates them. */
  clan?: ClanSettings;
  members: ClanMember[];
}

export interface ClanDataContext {
  clanId: number;
  clanName: string;
  members: ClanMember[];
  /** The clan's join policy and listing, or null when the answer had none. */
  settings: ClanSettings | null;
  /** The clan-load error text (docs/client.md §11), or null. */
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

/** The list-loader load step over one clan with its members. */
const clan = loadStep<LoadedClan, ClanDataContext, 'loadClan', { clanId: number }>({
  id: 'clanData',
  actor: 'loadClan',
  fallback: 'Failed to load clan data.',
  input: (context) => ({ clanId: context.clanId }),
  onLoaded: (_, loaded) => ({ clanName: loaded.clan_name, members: loaded.members, settings: loaded.clan ?? null }),
});

/**
 * The clan data of the clan management screen (docs/client.md §1, §11; docs/game-rules.md §6): the
 * list-loader load step (listLoader.ts) over the clan with its members. It loads them (`loading`
 * → `ready`), reloads in the background on `clan.reload` (`ready.reloading`, keeping what is
 * shown), removes a kicked row locally and renames locally. A failed load shows the error the
 * `loadClan` actor raised (its message is the documented text: 404 'Clan ID {id} not found.', 403 the
 * permission text, else 'Failed to load clan data.'); a 401 enters `signedOut`, whose entry
 * action `goToLogin` (provided from src/) leaves the page for /.
 */
export const clanDataMachine = setup({
  types: {
    context: {} as ClanDataContext,
    events: {} as ClanDataEvent,
    input: {} as { clanId: number },
  },
  actors: clan.actors,
  guards: {
    isUnauthorized: (_, error: unknown) => isUnauthorizedError(error),
  },
  actions: {
    assignLoaded: assign(({ context }, loaded: LoadedClan) => clan.loaded(context, loaded)),
    assignError: assign((_, error: unknown) => clan.failed(error)),
    removeMember: assign(({ context }, memberId: number) => ({ members: context.members.filter((m) => m.member_id !== memberId) })),
    assignName: assign((_, name: string) => ({ clanName: name })),
    goToLogin: () => {},
  },
}).createMachine({
  id: 'clanData',
  context: ({ input }) => ({ clanId: input.clanId, clanName: '', members: [], settings: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: clan.load({ done: 'ready', catches: [{ guard: 'isUnauthorized', target: 'signedOut' }] }),
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
          invoke: clan.load({
            id: 'reloadClan',
            done: 'current',
            failed: '#clanData.failed',
            catches: [{ guard: 'isUnauthorized', target: '#clanData.signedOut' }],
          }),
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
