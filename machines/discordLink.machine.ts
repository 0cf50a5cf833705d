import { assign, setup } from 'xstate';
import type { DiscordLink } from '../contract/discordLink';
import { errorText } from '../contract/errorText';
import { missingPromise } from './shared';

/** A clan the signed-in user manages, as the page offers it. */
export interface LinkableClan {
  clan_id: number;
  name: string;
}

/** What the page starts from: the path's code and the clans the user manages (Owner or Admin). */
export interface DiscordLinkInput {
  code: string;
  clans: readonly LinkableClan[];
}

export interface DiscordLinkContext extends DiscordLinkInput {
  /** The clan picked, or null before a pick. */
  clanId: number | null;
  /** The link the server made. */
  link: DiscordLink | null;
  /** The last failure's text (the server's), or null. */
  error: string | null;
}

export type DiscordLinkEvent =
  | { type: 'clan.pick'; clanId: number }
  | { type: 'link.request' }
  | { type: 'link.confirm' }
  | { type: 'link.cancel' };

/** The page's text when the link call failed without a text of the server's. */
const LINK_FAILED = 'The clan could not be linked. Please try again.';

const errorOf = ({ event }: { event: { error: unknown } }) => event.error;

/**
 * The /discord/link/{code} page (docs/server.md §19 "Slash commands"): a signed-in manager links
 * the Discord server that ran `/snl link` to one of their clans. Without a clan they manage →
 * `noClans`. In `choosing`, `clan.pick` picks one and `link.request` (with a pick) asks to confirm
 * (`confirming`; `link.cancel` goes back); `link.confirm` links (`linking`, actor `linkGuild`) →
 * `linked`; a code that is unknown, used or expired (404) → `unavailable` with the server's text;
 * any other refusal → back to `choosing` with it.
 */
export const discordLinkMachine = setup({
  types: {
    context: {} as DiscordLinkContext,
    events: {} as DiscordLinkEvent,
    input: {} as DiscordLinkInput,
  },
  actors: {
    linkGuild: missingPromise<DiscordLink, { code: string; clanId: number }>('discordLink', 'linkGuild'),
  },
  guards: {
    managesNoClan: ({ context }) => context.clans.length === 0,
    hasPick: ({ context }) => context.clanId !== null,
    isCodeGone: (_, error: unknown) => typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 404,
  },
  actions: {
    assignPick: assign((_, clanId: number) => ({ clanId, error: null })),
    assignLink: assign((_, link: DiscordLink) => ({ link, error: null })),
    assignError: assign((_, error: unknown) => ({ error: errorText(error, LINK_FAILED) })),
  },
}).createMachine({
  id: 'discordLink',
  context: ({ input }) => ({ ...input, clanId: input.clans.length === 1 ? input.clans[0].clan_id : null, link: null, error: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'managesNoClan', target: 'noClans' }, { target: 'choosing' }],
    },
    noClans: {},
    choosing: {
      on: {
        'clan.pick': { actions: { type: 'assignPick', params: ({ event }) => event.clanId } },
        'link.request': { guard: 'hasPick', target: 'confirming' },
      },
    },
    confirming: {
      tags: ['modalOpen'],
      on: { 'link.confirm': 'linking', 'link.cancel': 'choosing' },
    },
    linking: {
      tags: ['busy', 'modalOpen'],
      invoke: {
        id: 'linkGuild',
        src: 'linkGuild',
        input: ({ context }) => ({ code: context.code, clanId: context.clanId as number }),
        onDone: { target: 'linked', actions: { type: 'assignLink', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isCodeGone', params: errorOf }, target: 'unavailable', actions: { type: 'assignError', params: errorOf } },
          { target: 'choosing', actions: { type: 'assignError', params: errorOf } },
        ],
      },
    },
    linked: {},
    unavailable: {},
  },
});
