// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { teamSizeText, type Team, type TeamMember } from '../../contract/team';
import { teamListMachine, type TeamListEvent } from '../../machines/teamList.machine';
import { EventTeamsView } from '../../src/features/teams/EventTeamsView';
import type { TeamsEffects } from '../../src/features/teams/teamsEffects';
import type { FakeEffects } from '../support/effects';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { firstLoadShows, loadExecutors, renderAt, type ListWorld as World, type Loaded } from '../support/listScreens';

/**
 * Model-based test of the teamList chart, built by the list-loader factory, through the Event Teams view: the fake server answering or failing the load, Members, Delete Team: shortest paths
 * generated from the REAL chart by the chart-model harness, each step caused through the screen
 * and every state asserted on the screen with the documented texts (docs/client.md §1, §11). A
 * load fails without a message of its own, so the list's fallback text shows.
 */

const BLUE: Team = { id: 5, name: 'Blue Wizards', color: '#2a5db0', member_count: 2, discord_role_id: null };
const RED: Team = { id: 6, name: 'Red Dragons', color: '#c0392b', member_count: 0, discord_role_id: null };
const WOOX: TeamMember = { id: 100, osrs_ign: 'Woox', osrs_ign_id: 21, role: 'Leader', discord_id: 'd2' };
/** The member count the member manager reports once it has loaded (WOOX alone). */
const LOADED_COUNT = 1;

type TeamSnap = SnapshotFrom<typeof teamListMachine>;
type TeamEvent = TeamListEvent | Loaded<'loadTeams', Team>;

const TEAMS_FAILED = 'Failed to fetch teams.';
const teamsEffects = (fx: FakeEffects): TeamsEffects => ({
  fetchTeams: fx.fn('loadTeams'),
  createTeam: fx.fn('createTeam'),
  updateTeam: fx.fn('updateTeam'),
  deleteTeam: fx.fn('deleteTeam'),
  fetchTeamMembers: fx.fn('fetchTeamMembers'),
  addTeamMember: fx.fn('addTeamMember'),
  updateTeamMemberRole: fx.fn('updateTeamMemberRole'),
  removeTeamMember: fx.fn('removeTeamMember'),
});

/** The rows on screen: name and 'N Members' of each team, and which member manager is open. */
async function expectTeamRows(s: TeamSnap) {
  // The teams table comes first; an open member manager adds its own table inside a row.
  const [table] = await screen.findAllByRole('table');
  if (s.context.items.length === 0) expect(within(table).getByText('No teams created for this event. Click "Create New Team" to start!')).toBeTruthy();
  for (const t of s.context.items) {
    const row = within(table).getByRole('rowheader', { name: t.name }).closest('tr')!;
    expect(within(row).getByText(teamSizeText(t.member_count))).toBeTruthy();
    expect(within(row).getByRole('button', { name: `Members of ${t.name}` }).getAttribute('aria-expanded')).toBe(String(s.context.expandedTeamId === t.id));
  }
}

modelTests<TeamSnap, TeamEvent, World>({
  name: 'teamList',
  machine: teamListMachine,
  dropPrefixPaths: true,
  render: renderAt('/', (fx) => <EventTeamsView clanId={7} eventId={3} onBack={() => {}} effects={teamsEffects(fx)} />),
  events: (s) => {
    const loads: TeamEvent[] = [
      { type: 'xstate.done.actor.loadTeams', output: s.context.items.length ? [BLUE] : [BLUE, RED] },
      { type: 'xstate.error.actor.loadTeams', error: new Error('') },
    ];
    if (s.matches('loading') || s.matches('reloading')) return loads;
    if (s.matches('failed')) return [{ type: 'teams.reload' }];
    const rows: TeamEvent[] = s.context.items.map((t) => ({ type: 'team.toggleMembers', teamId: t.id }));
    const open = s.context.items.find((t) => t.id === s.context.expandedTeamId);
    // The open member manager reports its size once it has loaded (once per opening).
    if (open && open.member_count !== LOADED_COUNT) rows.push({ type: 'team.memberCountChanged', teamId: open.id, count: LOADED_COUNT });
    // A reload from the list: deleting a team (RED) reloads it; only while no row is open.
    if (s.context.items.some((t) => t.id === RED.id) && !open) rows.push({ type: 'teams.reload' });
    return rows;
  },
  executors: {
    'teams.reload': async (w) => {
      const retry = screen.queryByRole('button', { name: 'Retry' });
      if (retry) return w.user.click(retry);
      await w.user.click(screen.getByRole('button', { name: `Delete ${RED.name}` }));
      await w.user.click(await screen.findByRole('button', { name: 'Delete Team' }));
      await act(() => w.fx.resolve('deleteTeam', { ok: true, message: `Team "${RED.name}" deleted.` }));
      // Done: the modal closes by itself (the message fades in the banner).
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    },
    'team.toggleMembers': async (w, { event }) => {
      const team = [BLUE, RED].find((t) => t.id === (event as { teamId: number }).teamId)!;
      await w.user.click(screen.getByRole('button', { name: `Members of ${team.name}` }));
    },
    'team.memberCountChanged': async (w) => {
      await act(() => w.fx.resolve('fetchTeamMembers', { team_members: [WOOX], eligible_members: [] }));
    },
    ...loadExecutors<'loadTeams', TeamSnap, TeamEvent>('loadTeams'),
  } satisfies Record<TeamEvent['type'], ModelExecutor<World, TeamSnap, TeamEvent>>,
  assertions: {
    loading: firstLoadShows('Loading teams...', () => screen.queryByRole('table')),
    loaded: async (s) => {
      await expectTeamRows(s);
      // A failed reload keeps the rows, with the error above them and no Retry.
      if (s.context.error) expect(screen.getByText(TEAMS_FAILED)).toBeTruthy();
      else expect(screen.queryByText(TEAMS_FAILED)).toBeNull();
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    },
    reloading: async (s) => {
      // The rows stay while the list reloads after a change; no first-load spinner.
      await expectTeamRows(s);
      expect(screen.queryByText('Loading teams...')).toBeNull();
    },
    failed: async () => {
      expect(await screen.findByText(TEAMS_FAILED)).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
      expect(screen.queryByRole('table')).toBeNull();
    },
  },
});
