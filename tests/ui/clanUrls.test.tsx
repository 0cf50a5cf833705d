// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countingSession, fakeUser, renderRoutes } from '../support/render';
import type { ClanMember } from '../../contract/clan';
import { ClanManagePage } from '../../src/features/clan/ClanManagePage';
import type { ClanManageEffects } from '../../src/features/clan/effects';
import type { EventsRoute } from '../../src/base/paths';

// The tabs have their own tests; here they are stand-ins that show where they were sent.
vi.mock('../../src/features/events/EventsTab', () => ({
  EventsTab: ({ route }: { route: EventsRoute }) => <p>Events tab at {route.view === 'list' ? 'the list' : `${route.view} of event ${route.eventId}`}</p>,
}));
vi.mock('../../src/features/tasks/TasksTab', () => ({ TasksTab: () => <p>Tasks tab</p> }));

/**
 * The clan management screen's URLs: each tab is a URL, so Back returns to the
 * tab before, and a URL (reload, bookmark) opens its tab and event view; /clans/manage/{id} shows
 * Members, an unknown sub-path goes to /members.
 */

const CLAN_ID = 7;
const OWNER: ClanMember = { member_id: 1, username: 'Olga', role: 'Owner', joined_at: '2026-01-02T10:00:00.000Z', last_login: null, clan_name: 'Iron Snakes', discord_id: null };
const never = () => new Promise<never>(() => {});
const effects: ClanManageEffects = {
  loadClan: async () => ({ clan_id: CLAN_ID, clan_name: 'Iron Snakes', members: [OWNER] }),
  loadAvailableUsers: async () => [],
  addMember: never,
  changeRole: never,
  kickMember: never,
  leaveClan: never,
  renameClan: never,
  disbandClan: never,
};

function renderAt(path: string) {
  const session = countingSession(fakeUser({ id: OWNER.member_id, username: OWNER.username }));
  return renderRoutes([{ path: '/clans/manage/:clanId/*', element: <ClanManagePage effects={effects} /> }], path, session.logic);
}

const selectedTab = () => screen.getAllByRole('tab').find((t) => t.getAttribute('aria-selected') === 'true')?.textContent;

describe('clan management URLs', () => {
  afterEach(cleanup);

  it('/clans/manage/{id} shows Members; each tab is a URL, and Back returns to the tab before', async () => {
    const { router } = renderAt(`/clans/manage/${CLAN_ID}`);
    await waitFor(() => expect(selectedTab()).toBe('Members'));
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Events' }));
    await screen.findByText('Events tab at the list');
    expect(router.state.location.pathname).toBe(`/clans/manage/${CLAN_ID}/events`);
    await user.click(screen.getByRole('tab', { name: 'Tasks' }));
    await screen.findByText('Tasks tab');
    expect(router.state.location.pathname).toBe(`/clans/manage/${CLAN_ID}/tasks`);
    await user.click(screen.getByRole('tab', { name: 'Members' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/clans/manage/${CLAN_ID}/members`));
    await act(() => router.navigate(-1));
    await screen.findByText('Tasks tab');
    await act(() => router.navigate(-1));
    await screen.findByText('Events tab at the list');
    expect(selectedTab()).toBe('Events');
  });

  it('choosing the tab already shown adds no history entry', async () => {
    const { router } = renderAt(`/clans/manage/${CLAN_ID}/members`);
    await waitFor(() => expect(selectedTab()).toBe('Members'));
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Events' }));
    await screen.findByText('Events tab at the list');
    await user.click(screen.getByRole('tab', { name: 'Events' }));
    await act(() => router.navigate(-1));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/clans/manage/${CLAN_ID}/members`));
    await waitFor(() => expect(selectedTab()).toBe('Members'));
  });

  it('an event view URL opens the Events tab at that view of that event', async () => {
    for (const [path, text] of [
      ['events/5/game', 'game of event 5'],
      ['events/5/teams', 'teams of event 5'],
      ['events/5/tasks', 'gameTasks of event 5'],
    ]) {
      renderAt(`/clans/manage/${CLAN_ID}/${path}`);
      await screen.findByText(`Events tab at ${text}`);
      expect(selectedTab()).toBe('Events');
      cleanup();
    }
  });

  it('an unknown sub-path goes to the Members tab', async () => {
    const { router } = renderAt(`/clans/manage/${CLAN_ID}/events/5/board`);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/clans/manage/${CLAN_ID}/members`));
    await waitFor(() => expect(selectedTab()).toBe('Members'));
  });
});
