import { assign, setup } from 'xstate';
import { INVITE_PAGE_TEXTS, isInviteGone, type InviteMembership, type InvitePreview, type InviteViewer } from '../contract/invite';
import { errorText } from '../contract/errorText';
import { loadStep } from './listLoader';
import { missingPromise } from './shared';

/** What the page starts from: the path's code, and who opens it (the session, settled). */
export interface InvitePageInput {
  code: string;
  viewer: InviteViewer;
}

export interface InvitePageContext extends InvitePageInput {
  /** The clan the invite leads to, once loaded. */
  invite: InvitePreview | null;
  /** The membership the accept made. */
  membership: InviteMembership | null;
  /** The last load's or join's failure text (the server's: 'This invite has expired.', ...), or null. */
  error: string | null;
}

export type InvitePageEvent = { type: 'invite.reload' } | { type: 'invite.join' };

/**
 * The load step of the invite (the list-loader's, for one record): its actor and context updates;
 * the invoke is written out below, as a failure goes two ways with its text kept.
 */
const inviteLoad = loadStep<InvitePreview, InvitePageContext, 'loadInvite', { code: string }>({
  id: 'invitePage',
  actor: 'loadInvite',
  fallback: INVITE_PAGE_TEXTS.loadFailed,
  onLoaded: (_, invite) => ({ invite }),
});

const errorOf = ({ event }: { event: { error: unknown } }) => event.error;

/**
 * The page an invite link opens, /invite/{code} (docs/client.md §15; docs/server.md §18):
 * `loading` reads the invite (`loadInvite`) → `shown` (the clan, with 'Join {clan}'); an invite
 * that cannot be taken (404 unknown or revoked, 410 expired or used up) → `unavailable` with the
 * server's text; any other failure → `failed` (`invite.reload` tries again). In `shown`,
 * `invite.join` leads a signed-out visitor to sign-in (`leaving`, action `goToSignIn`) and one
 * without an IGN to onboarding (`leaving`, action `goToOnboarding`); both come back to this page
 * afterwards. A viewer ready to join accepts (`joining`, actor `acceptInvite`) → `joined` (action
 * `membershipChanged` reloads the session's memberships), or, refused, back to `shown` with the
 * server's text (an invite gone meanwhile: `unavailable`).
 */
export const invitePageMachine = setup({
  types: {
    context: {} as InvitePageContext,
    events: {} as InvitePageEvent,
    input: {} as InvitePageInput,
  },
  actors: {
    ...inviteLoad.actors,
    acceptInvite: missingPromise<InviteMembership, { code: string }>('invitePage', 'acceptInvite'),
  },
  guards: {
    isSignedOut: ({ context }) => context.viewer === 'signedOut',
    needsIgn: ({ context }) => context.viewer === 'needsIgn',
    isGone: (_, error: unknown) => isInviteGone(error),
  },
  actions: {
    assignLoaded: assign(({ context }, invite: InvitePreview) => inviteLoad.loaded(context, invite)),
    assignError: assign((_, error: unknown) => inviteLoad.failed(error)),
    assignJoinError: assign((_, error: unknown) => ({ error: errorText(error, INVITE_PAGE_TEXTS.joinFailed) })),
    assignMembership: assign((_, membership: InviteMembership) => ({ membership, error: null })),
    clearError: assign({ error: null }),
    goToSignIn: () => {},
    goToOnboarding: () => {},
    membershipChanged: () => {},
  },
}).createMachine({
  id: 'invitePage',
  context: ({ input }) => ({ ...input, invite: null, membership: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadInvite',
        src: 'loadInvite',
        input: ({ context }) => ({ code: context.code }),
        onDone: { target: 'shown', actions: { type: 'assignLoaded', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isGone', params: errorOf }, target: 'unavailable', actions: { type: 'assignError', params: errorOf } },
          { target: 'failed', actions: { type: 'assignError', params: errorOf } },
        ],
      },
    },
    failed: { on: { 'invite.reload': 'loading' } },
    unavailable: {},
    shown: {
      on: {
        'invite.join': [
          { guard: 'isSignedOut', target: 'leaving', actions: ['clearError', 'goToSignIn'] },
          { guard: 'needsIgn', target: 'leaving', actions: ['clearError', 'goToOnboarding'] },
          { target: 'joining', actions: 'clearError' },
        ],
      },
    },
    leaving: { tags: ['busy'] },
    joining: {
      tags: ['busy'],
      invoke: {
        id: 'acceptInvite',
        src: 'acceptInvite',
        input: ({ context }) => ({ code: context.code }),
        onDone: { target: 'joined', actions: [{ type: 'assignMembership', params: ({ event }) => event.output }, 'membershipChanged'] },
        onError: [
          { guard: { type: 'isGone', params: errorOf }, target: 'unavailable', actions: { type: 'assignJoinError', params: errorOf } },
          { target: 'shown', actions: { type: 'assignJoinError', params: errorOf } },
        ],
      },
    },
    joined: {},
  },
});
