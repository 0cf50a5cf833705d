// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { ClanDesk } from '../../contract/clanDesk';
import type { RecentNotification } from '../../contract/push';
import { statusLabel } from '../../contract/game/status';
import type { User } from '../../contract/user';
import { clanDesksMachine, type ClanDesksEvent } from '../../machines/clanDesks.machine';
import { DashboardPage } from '../../src/features/dashboard/DashboardPage';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';
import { fakeUser, renderRoutes, signedInSessionLogic } from '../support/render';

/**
 * Model-based test of the clanDesks chart (a manager's dashboard, docs/game-rules.md §1: the
 * live games of the clans they manage and the getting-started steps of a clan that has had no
 * game) through the rendered /dashboard of an Owner of one clan and an Admin of another: paths
 * from the real chart with the one harness; the fake server answers (a new clan with its task pool
 * imported, a clan with a game live and another paused) or fails, and Retry loads again. Every
 * state is asserted on the screen: the loading note, the steps with their ticks and links, the
 * Clan Games rows with their status and Watch / Manage links, the error with Retry. Beside them,
 * whatever the desks do, the Notifications widget shows an approval's 'Proof approved' with its
 * text as text and a link to the game (docs/server.md §20 "In the page").
 */

type Snap = SnapshotFrom<typeof clanDesksMachine>;
type ModelEvent = ClanDesksEvent | { type: 'xstate.done.actor.loadDesks'; output: ClanDesk[] } | { type: 'xstate.error.actor.loadDesks'; error: Error };

const MANAGER: User = fakeUser({
  clan_memberships_list: [
    { clan_id: 5, name: 'Fresh Legion', role: 'Owner', joined_at: '2026-01-01T00:00:00.000Z' },
    { clan_id: 8, name: 'Proof Legion', role: 'Admin', joined_at: '2026-01-01T00:00:00.000Z' },
    { clan_id: 9, name: 'Other Clan', role: 'Member', joined_at: '2026-01-01T00:00:00.000Z' },
  ],
});
const FAILED = "Failed to load your clans' games.";

/** An approval of the manager's team's proof, as GET /api/user/me/notifications/recent answers it; the reason-like text is shown as typed. */
const APPROVED: RecentNotification = {
  id: 7,
  title: 'Proof approved',
  body: 'Red <b>Team</b>, square 12: approved by referee.',
  url: '/games/clan/8/events/44/game/12',
  created_at: '2026-01-02T10:00:00.000Z',
};

/** A new clan (tasks imported, one event without teams) and a clan with a live and a paused game. */
const DESKS: ClanDesk[] = [
  { clanId: 5, name: 'Fresh Legion', games: [], steps: { tasks: true, event: true, teams: false, game: false, eventId: 41 } },
  {
    clanId: 8,
    name: 'Proof Legion',
    steps: null,
    games: [
      { game_id: 12, event_id: 44, event_name: 'Proof Night', status: 'in-progress', board_size: 100, team_count: 2 },
      { game_id: 11, event_id: 43, event_name: 'Quiet Night', status: 'paused', board_size: 100, team_count: 3 },
    ],
  },
];
/** Both clans have had games, none of them live. */
const SETTLED: ClanDesk[] = DESKS.map((d) => ({ ...d, games: [], steps: null }));

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
}

const executors = {
  'xstate.done.actor.loadDesks': async (w, { event }) => {
    await w.fx.resolve('loadDesks', (event as { output: ClanDesk[] }).output);
    const [clans] = w.fx.calls('loadDesks').at(-1)!;
    // Only the managed clans are loaded, in their order.
    expect((clans as User['clan_memberships_list']).map((c) => c.clan_id)).toEqual([5, 8]);
  },
  'xstate.error.actor.loadDesks': async (w) => w.fx.reject('loadDesks', new Error('')),
  'desks.reload': async (w) => w.user.click(within(screen.getByTestId('clan-games')).getByRole('button', { name: 'Retry' })),
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

/** The Notifications widget lists the approval: its title linking to the game, its text as typed. */
async function expectApproval(): Promise<void> {
  const panel = screen.getByTestId('recent-notifications');
  const link = await within(panel).findByRole('link', { name: APPROVED.title });
  expect(link.getAttribute('href')).toBe(APPROVED.url);
  expect(within(panel).getByText(APPROVED.body)).toBeTruthy();
  expect(panel.querySelector('b')).toBeNull();
}

const STEP_TEXTS = ['Import tasks', 'Create an event', "Build the event's teams", 'Create the game'];

modelTests<Snap, ModelEvent, World>({
  name: 'clanDesks',
  machine: clanDesksMachine,
  dropPrefixPaths: true,
  events: (s) =>
    s.matches('loading')
      ? [
          { type: 'xstate.done.actor.loadDesks', output: DESKS },
          { type: 'xstate.done.actor.loadDesks', output: SETTLED },
          { type: 'xstate.error.actor.loadDesks', error: new Error('') },
        ]
      : s.matches('failed')
        ? [{ type: 'desks.reload' }]
        : [],
  executors,
  assertions: {
    loading: async () => {
      expect(await within(await screen.findByTestId('clan-games')).findByText("Loading your clans' games...")).toBeTruthy();
      expect(screen.queryByTestId('getting-started')).toBeNull();
    },
    loaded: async (s) => {
      const desks = s.context.items;
      const widget = screen.getByTestId('clan-games');
      await waitFor(() => expect(within(widget).queryByText("Loading your clans' games...")).toBeNull());
      // The getting-started steps of the clans that have had no game, ticked and linked.
      const starting = desks.filter((d) => d.steps !== null);
      const sections = screen.queryAllByTestId('getting-started');
      expect(sections.map((el) => within(el).getByRole('heading').textContent)).toEqual(starting.map((d) => `Get ${d.name} ready for its first game`));
      for (const [i, desk] of starting.entries()) {
        const items = within(sections[i]).getAllByRole('listitem');
        expect(items.map((li) => within(li).getByRole('link').textContent)).toEqual(STEP_TEXTS);
        expect(items.map((li) => li.dataset.done)).toEqual(['true', 'true', 'false', 'false']);
        expect(items.map((li) => within(li).getByRole('link').getAttribute('href'))).toEqual([
          `/clans/manage/${desk.clanId}/tasks`,
          `/clans/manage/${desk.clanId}/events`,
          `/clans/manage/${desk.clanId}/events/41/teams`,
          `/clans/manage/${desk.clanId}/events/41/game`,
        ]);
      }
      // The live games of every managed clan, named with their clan, with Watch and Manage.
      const games = desks.flatMap((d) => d.games.map((g) => ({ ...g, clanId: d.clanId, clan: d.name })));
      const rows = within(widget).queryAllByRole('listitem');
      expect(rows.map((r) => r.textContent)).toEqual(games.map((g) => `${g.event_name} · ${g.clan}${statusLabel(g.status)}WatchManage`));
      for (const g of games) {
        expect(within(widget).getByRole('link', { name: `Watch ${g.event_name}` }).getAttribute('href')).toBe(`/games/clan/${g.clanId}/events/${g.event_id}/game/${g.game_id}`);
        expect(within(widget).getByRole('link', { name: `Manage ${g.event_name}` }).getAttribute('href')).toBe(`/clans/manage/${g.clanId}/events/${g.event_id}/game`);
      }
      if (games.length === 0) expect(within(widget).getByText('No live games in your clans.')).toBeTruthy();
      await expectApproval();
    },
    failed: async () => {
      const widget = screen.getByTestId('clan-games');
      expect(await within(widget).findByText(FAILED)).toBeTruthy();
      expect(within(widget).getByRole('button', { name: 'Retry' })).toBeTruthy();
      expect(screen.queryByTestId('getting-started')).toBeNull();
      await expectApproval();
    },
  },
  uncovered: {
    'loaded -> desks.reload':
      'The dashboard sends desks.reload only from Retry on a failed load (ClanDesks.tsx); a loaded list is replaced by a new chart when the managed clans change, never reloaded.',
  },
  render: async () => {
    const fx = new FakeEffects();
    renderRoutes([{ path: '/dashboard', element: <DashboardPage loadGames={async () => []} loadDesks={fx.fn('loadDesks')} loadEvents={async () => []} loadNotifications={async () => [APPROVED]} /> }], '/dashboard', signedInSessionLogic(MANAGER));
    await screen.findByText('Welcome, alice!');
    return { fx, user: userEvent.setup() };
  },
});
