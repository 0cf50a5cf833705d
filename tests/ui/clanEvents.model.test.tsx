// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { ClanEventsDesk } from '../../contract/clanDesk';
import type { ClanEvent } from '../../contract/event';
import type { User } from '../../contract/user';
import { clanEventsMachine, type ClanEventsEvent } from '../../machines/clanEvents.machine';
import { DashboardPage } from '../../src/features/dashboard/DashboardPage';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';
import { fakeUser, renderRoutes, signedInSessionLogic } from '../support/render';

/**
 * Model-based test of the clanEvents chart (the dashboard's Clan Events widget, docs/client.md §1,
 * §13, §14) through the rendered /dashboard of a plain Member of one clan and a Guest of another:
 * paths from the real chart with the one harness; the fake server answers (a clan whose events
 * take sign-ups, have a game in progress though the flag is open, or a running draft, and a clan
 * without events) or fails, and Retry loads again. Every state is asserted on the screen: the
 * loading note; each clan with 'All events' to its event list and its events linking to their
 * Sign-ups view, 'Sign up' only where sign-ups are taken and 'Draft live now' only while the draft
 * runs; the error with Retry.
 */

type Snap = SnapshotFrom<typeof clanEventsMachine>;
type ModelEvent = ClanEventsEvent | { type: 'xstate.done.actor.loadClanEvents'; output: ClanEventsDesk[] } | { type: 'xstate.error.actor.loadClanEvents'; error: Error };

const MEMBER: User = fakeUser({
  clan_memberships_list: [
    { clan_id: 5, name: 'Plain Legion', role: 'Member', joined_at: '2026-01-01T00:00:00.000Z' },
    { clan_id: 9, name: 'Guest House', role: 'Guest', joined_at: '2026-01-01T00:00:00.000Z' },
  ],
});
const FAILED = "Failed to load your clans' events.";
const FUTURE = '2099-01-10T18:00:00.000Z';

const event = (id: number, name: string, over: Partial<ClanEvent> = {}): ClanEvent => ({
  id, name, type: 'Snakes and Ladders', start_datetime: FUTURE, end_datetime: null, game_id: null, team_count: 0,
  game_finished: false, signups_open: false, signups_close_at: null, game_status: null, draft_status: null, ...over,
});

/** What each event must offer: Sign up (sign-ups taken) and Draft live now (draft running). */
const OFFERS: Record<string, { signUp: boolean; draft: boolean }> = {
  'Open League': { signUp: true, draft: false },
  'Started League': { signUp: false, draft: false },
  'Draft Night': { signUp: false, draft: true },
  'Quiet Cup': { signUp: false, draft: false },
};
const DESKS: ClanEventsDesk[] = [
  {
    clanId: 5,
    name: 'Plain Legion',
    events: [
      event(41, 'Open League', { signups_open: true, signups_close_at: '2099-01-09T18:00:00.000Z', game_id: 3, game_status: 'READY' }),
      // Open by the flag, but the game is in progress: the server refuses sign-ups (docs/server.md §16).
      event(42, 'Started League', { signups_open: true, game_id: 4, game_status: 'in-progress' }),
      event(43, 'Draft Night', { draft_status: 'running' }),
      // A fourth event is past the three the widget lists.
      event(44, 'Quiet Cup', { draft_status: 'paused' }),
    ],
  },
  { clanId: 9, name: 'Guest House', events: [] },
];

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
}

const executors = {
  'xstate.done.actor.loadClanEvents': async (w, { event: e }) => {
    await w.fx.resolve('loadEvents', (e as { output: ClanEventsDesk[] }).output);
    const [clans] = w.fx.calls('loadEvents').at(-1)!;
    // Every clan of the user, any role, in their order.
    expect((clans as User['clan_memberships_list']).map((c) => c.clan_id)).toEqual([5, 9]);
  },
  'xstate.error.actor.loadClanEvents': async (w) => w.fx.reject('loadEvents', new Error('')),
  'clanEvents.reload': async (w) => w.user.click(within(screen.getByTestId('clan-events')).getByRole('button', { name: 'Retry' })),
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

modelTests<Snap, ModelEvent, World>({
  name: 'clanEvents',
  machine: clanEventsMachine,
  dropPrefixPaths: true,
  events: (s) =>
    s.matches('loading')
      ? [
          { type: 'xstate.done.actor.loadClanEvents', output: DESKS },
          { type: 'xstate.error.actor.loadClanEvents', error: new Error('') },
        ]
      : s.matches('failed')
        ? [{ type: 'clanEvents.reload' }]
        : [],
  executors,
  assertions: {
    loading: async () => {
      expect(await within(await screen.findByTestId('clan-events')).findByText("Loading your clans' events...")).toBeTruthy();
    },
    loaded: async (s) => {
      const widget = screen.getByTestId('clan-events');
      await waitFor(() => expect(within(widget).queryByText("Loading your clans' events...")).toBeNull());
      for (const desk of s.context.items) {
        const clan = within(widget).getByRole('region', { name: desk.name });
        expect(within(clan).getByRole('link', { name: `All events of ${desk.name}` }).getAttribute('href')).toBe(`/clans/manage/${desk.clanId}/events`);
        const items = within(clan).queryAllByRole('listitem');
        const shown = desk.events.slice(0, 3);
        expect(items.map((li) => within(li).getAllByRole('link')[0].textContent)).toEqual(shown.map((e) => e.name));
        for (const [i, e] of shown.entries()) {
          const li = within(items[i]);
          expect(li.getByRole('link', { name: e.name }).getAttribute('href')).toBe(`/clans/manage/${desk.clanId}/events/${e.id}/signups`);
          const signUp = li.queryByRole('link', { name: `Sign up for ${e.name}` });
          expect(signUp !== null, `Sign up for ${e.name}`).toBe(OFFERS[e.name].signUp);
          if (signUp) expect(signUp.getAttribute('href')).toBe(`/clans/manage/${desk.clanId}/events/${e.id}/signups`);
          const draft = li.queryByRole('link', { name: `Draft live now: ${e.name}` });
          expect(draft !== null, `Draft live now: ${e.name}`).toBe(OFFERS[e.name].draft);
          if (draft) expect(draft.getAttribute('href')).toBe(`/clans/${desk.clanId}/events/${e.id}/draft`);
        }
        if (desk.events.length === 0) expect(within(clan).getByText('No upcoming events.')).toBeTruthy();
      }
      expect(within(widget).queryByText('Quiet Cup')).toBeNull();
    },
    failed: async () => {
      const widget = screen.getByTestId('clan-events');
      expect(await within(widget).findByText(FAILED)).toBeTruthy();
      expect(within(widget).getByRole('button', { name: 'Retry' })).toBeTruthy();
      expect(within(widget).queryAllByRole('region')).toEqual([]);
    },
  },
  uncovered: {
    'loaded -> clanEvents.reload':
      'The dashboard sends clanEvents.reload only from Retry on a failed load (ClanEvents.tsx); a loaded list is replaced by a new chart when the clans change, never reloaded.',
  },
  render: async () => {
    const fx = new FakeEffects();
    renderRoutes([{ path: '/dashboard', element: <DashboardPage loadGames={async () => []} loadEvents={fx.fn('loadEvents')} loadNotifications={async () => []} /> }], '/dashboard', signedInSessionLogic(MEMBER));
    await screen.findByText('Welcome, alice!');
    return { fx, user: userEvent.setup() };
  },
});
