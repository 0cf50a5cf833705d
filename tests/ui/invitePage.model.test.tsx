// @vitest-environment jsdom
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { INVITE_PAGE_TEXTS, type InviteMembership, type InvitePreview, type InviteViewer } from '../../contract/invite';
import { invitePageMachine, type InvitePageEvent, type InvitePageInput } from '../../machines/invitePage.machine';
import { sessionMachine, type LogoutInput } from '../../machines/session.machine';
import { InvitePage } from '../../src/features/invites/InvitePage';
import type { AuthStatus, User } from '../../contract/user';
import { modelTests, type ActorSteps, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';
import { fakeUser, renderRoutes } from '../support/render';

/**
 * Model-based test of the page an invite link opens, the invitePage chart (docs/client.md §15;
 * docs/server.md §18), through the rendered page for each viewer (signed out, signed in without
 * an IGN, ready to join): the invite loaded, gone (404 unknown, 410 expired or used up: the
 * server's text) or failed (Retry); 'Join {clan}' leading to sign-in or onboarding with this page
 * to come back to, or joining, refused with the server's text, or joined with links to the clan.
 */

type Snap = SnapshotFrom<typeof invitePageMachine>;
type Event = InvitePageEvent | ActorSteps<'loadInvite', InvitePreview> | ActorSteps<'acceptInvite', InviteMembership>;

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  router: ReturnType<typeof renderRoutes>['router'];
}

const CODE = 'AbCdEfGhIjKlMnOpQrStUvWx';
const PREVIEW: InvitePreview = { clan: { id: 42, name: 'Iron <b>Legion</b>', member_count: 7 }, expires_at: '2026-12-05T10:00:00.000Z' };
const MEMBERSHIP: InviteMembership = { clan_id: 42, name: PREVIEW.clan.name, role: 'Member', joined_at: '2026-11-28T10:00:00.000Z' };
const JOIN = INVITE_PAGE_TEXTS.join(PREVIEW.clan.name);

/** An API failure as src/api raises it: the server's text and the status. */
const failure = (message: string, status: number) => Object.assign(new Error(message), { status });
const GONE_404 = failure('This invite does not exist or has been revoked.', 404);
const EXPIRED = failure('This invite has expired.', 410);
const USED_UP = failure('This invite has been used up.', 410);
const OFFLINE = failure('Network error. Failed to connect to the server.', 0);
const ALREADY = failure('You are already a member of this clan.', 409);

/** A session chart settled as `viewer`: signed out, or signed in as a user with or without an IGN. */
function sessionAs(viewer: InviteViewer) {
  const user: User = fakeUser(viewer === 'needsIgn' ? { igns: [] } : {});
  return sessionMachine.provide({
    actors: {
      checkAuthStatus: fromPromise<AuthStatus, void>(async () => ({
        authorized: viewer !== 'signedOut', has_token: viewer !== 'signedOut', session_keys: [], error: null, dev_login: true, discord_login: false,
      })),
      loadUser: fromPromise<User, void>(async () => user),
      logout: fromPromise<void, LogoutInput>(async () => undefined),
      devLogin: fromPromise<void, { username: string }>(async () => undefined),
    },
  });
}

const INPUTS: InvitePageInput[] = (['signedOut', 'needsIgn', 'ready'] as const).map((viewer) => ({ code: CODE, viewer }));

function render(input: unknown): World {
  const { viewer } = input as InvitePageInput;
  const fx = new FakeEffects();
  const { router } = renderRoutes(
    [
      { path: '/invite/:code', element: <InvitePage effects={{ loadInvite: fx.fn('load'), acceptInvite: fx.fn('accept') }} /> },
      { path: '/', element: <p>login page</p> },
      { path: '/onboarding', element: <p>onboarding page</p> },
    ],
    `/invite/${CODE}`,
    sessionAs(viewer),
  );
  return { fx, user: userEvent.setup(), router };
}

const settle = (w: World, name: string, e: Event) => act(() => w.fx.settle(name, e));
const joinButton = () => screen.queryByRole('button', { name: JOIN }) as HTMLButtonElement | null;

/** The invite as loaded: the clan's name as text (never markup), its members, until when, and what comes before joining. */
async function inviteShown(s: Snap): Promise<void> {
  expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(PREVIEW.clan.name);
  expect(document.querySelector('.invite-page b')).toBeNull();
  expect(screen.getByTestId('invite-facts').textContent).toContain('7 members');
  expect(screen.getByTestId('invite-facts').querySelector('time')?.getAttribute('dateTime')).toBe(PREVIEW.expires_at);
  // Its day too: an invite lasts up to 30 days, so a clock time alone would not say which day.
  expect(screen.getByTestId('invite-facts').querySelector('time')?.textContent).toBe(new Date(PREVIEW.expires_at).toLocaleString());
  if (s.context.viewer === 'ready') expect(screen.queryByTestId('invite-before')).toBeNull();
  else expect(screen.getByTestId('invite-before').textContent).toMatch(s.context.viewer === 'signedOut' ? /^You sign in with Discord first/ : /^You link your in-game names first/);
}

modelTests<Snap, Event, World>({
  name: 'invitePage',
  machine: invitePageMachine,
  inputs: INPUTS,
  serialize: (s) => JSON.stringify([s.value, s.context.error]),
  events: (s) => {
    if (s.matches('loading')) {
      return [
        { type: 'xstate.done.actor.loadInvite', output: PREVIEW },
        ...[GONE_404, EXPIRED, USED_UP, OFFLINE].map((error) => ({ type: 'xstate.error.actor.loadInvite' as const, error })),
      ];
    }
    if (s.matches('failed')) return [{ type: 'invite.reload' }];
    if (s.matches('shown')) return [{ type: 'invite.join' }];
    if (s.matches('joining')) {
      return [
        { type: 'xstate.done.actor.acceptInvite', output: MEMBERSHIP },
        { type: 'xstate.error.actor.acceptInvite', error: ALREADY },
        { type: 'xstate.error.actor.acceptInvite', error: USED_UP },
      ];
    }
    return [];
  },
  executors: {
    'xstate.done.actor.loadInvite': (w, { event }) => settle(w, 'load', event),
    'xstate.error.actor.loadInvite': (w, { event }) => settle(w, 'load', event),
    'xstate.done.actor.acceptInvite': (w, { event }) => settle(w, 'accept', event),
    'xstate.error.actor.acceptInvite': (w, { event }) => settle(w, 'accept', event),
    'invite.reload': async (w) => w.user.click(screen.getByRole('button', { name: 'Retry' })),
    'invite.join': async (w) => w.user.click(joinButton()!),
  } satisfies Record<Event['type'], ModelExecutor<World, Snap, Event>>,
  assertions: {
    loading: async () => {
      expect(await screen.findByText('Loading the invite...')).toBeTruthy();
      expect(joinButton()).toBeNull();
    },
    failed: (s) => {
      expect(screen.getByText(s.context.error!)).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
      expect(joinButton()).toBeNull();
    },
    unavailable: (s) => {
      expect(screen.getByTestId('invite-unavailable').textContent).toBe(s.context.error);
      expect(['This invite does not exist or has been revoked.', 'This invite has expired.', 'This invite has been used up.']).toContain(s.context.error);
      expect(joinButton()).toBeNull();
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    },
    shown: async (s) => {
      await inviteShown(s);
      expect(joinButton()!.disabled).toBe(false);
      if (s.context.error) expect(screen.getByTestId('invite-error').textContent).toBe(s.context.error);
      else expect(screen.queryByTestId('invite-error')).toBeNull();
    },
    leaving: async (s, w) => {
      // Away to sign-in or onboarding, with this page to come back to.
      expect(await screen.findByText(s.context.viewer === 'signedOut' ? 'login page' : 'onboarding page')).toBeTruthy();
      expect(w.router.state.location.pathname).toBe(s.context.viewer === 'signedOut' ? '/' : '/onboarding');
      expect(w.router.state.location.state).toEqual({ from: `/invite/${CODE}` });
      expect(w.fx.calls('accept')).toEqual([]);
    },
    joining: async (s) => {
      await inviteShown(s);
      expect(joinButton()!.disabled).toBe(true);
      expect(screen.getByText('Joining...')).toBeTruthy();
    },
    joined: async (_s, w) => {
      expect((await screen.findByTestId('invite-joined')).textContent).toBe(INVITE_PAGE_TEXTS.joined(MEMBERSHIP.name));
      expect(screen.getByRole('link', { name: `Open ${MEMBERSHIP.name}` }).getAttribute('href')).toBe('/clans/manage/42/members');
      expect(screen.getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).toBe('/dashboard');
      expect(joinButton()).toBeNull();
      expect(w.fx.calls('accept')).toEqual([[CODE]]);
    },
  },
  render,
});

describe('the invite page', () => {
  it('loads the invite of the path\'s code, once the session has settled', async () => {
    const w = render({ code: CODE, viewer: 'ready' });
    await act(() => w.fx.resolve('load', PREVIEW));
    expect(w.fx.calls('load')).toEqual([[CODE]]);
    expect(await screen.findByRole('button', { name: JOIN })).toBeTruthy();
  });
});
