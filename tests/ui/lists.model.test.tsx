// @vitest-environment jsdom
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';
import type { LobbyGame, SpectateGame } from '../../contract/lobby';
import { teamSizeText, type Team, type TeamMember } from '../../contract/team';
import { gamesLobbyMachine, type GamesLobbyEvent } from '../../machines/gamesLobby.machine';
import { spectateListMachine, type SpectateListEvent } from '../../machines/spectateList.machine';
import { teamListMachine, type TeamListEvent } from '../../machines/teamList.machine';
import { GamesLobbyPage } from '../../src/features/lobby/GamesLobbyPage';
import { SpectateListPage } from '../../src/features/spectate/SpectateListPage';
import { EventTeamsView } from '../../src/features/teams/EventTeamsView';
import type { TeamsEffects } from '../../src/features/teams/teamsEffects';

/**
 * Model-based tests of the three list charts built by the list-loader factory (gamesLobby,
 * spectateList, teamList) through the screens that render them: shortest paths generated from the
 * REAL charts by the chart-model harness, each step caused through the screen (the fake server answering
 * or failing the load, a click on Try again / Retry / Members / Delete Team, 30 s of fake time for
 * the spectate poll) and every state asserted on the screen with the documented texts (docs/client.md §1,
 * §11). A load fails without a message of its own, so the list's fallback text shows.
 */

const GAMES: LobbyGame[] = [
  { game_id: 1, clan_id: 7, clan_name: 'Iron Legion', event_id: 3, event_name: 'Summer Ladder', board_size: 25, status: 'in-progress', player_ign: 'Zezima', teams: [] },
];
const SPECTATE: SpectateGame[] = [
  { game_id: 4, event_name: 'Winter Bingo', clan_name: 'Iron Legion', status: 'in-progress', board_size: 100, team_count: 2, created_at: '2025-05-01T10:00:00.000Z' },
  { game_id: 8, event_name: 'Spring Sprint', clan_name: 'Iron Legion', status: 'READY', board_size: 49, team_count: 1, created_at: '2025-05-02T10:00:00.000Z' },
  { game_id: 9, event_name: 'Autumn Race', clan_name: 'Iron Legion', status: 'finished', board_size: 25, team_count: 2, created_at: '2025-04-02T10:00:00.000Z' },
];
const BLUE: Team = { id: 5, name: 'Blue Wizards', color: '#2a5db0', member_count: 2 };
const RED: Team = { id: 6, name: 'Red Dragons', color: '#c0392b', member_count: 0 };
const WOOX: TeamMember = { id: 100, osrs_ign: 'Woox', osrs_ign_id: 21, role: 'Leader', discord_id: 'd2' };
/** The member count the member manager reports once it has loaded (WOOX alone). */
const LOADED_COUNT = 1;
const POLL = 30_000;

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
}
type Loaded<A extends string, T> = { type: `xstate.done.actor.${A}`; output: T[] } | { type: `xstate.error.actor.${A}`; error: Error };

/** Settles the pending load of `name` (a failure without a message: the chart's fallback text shows). */
const settle = (w: World, name: string, e: { type: string; output?: unknown }) =>
  act(() => (e.type.startsWith('xstate.done') ? w.fx.resolve(name, e.output) : w.fx.reject(name, new Error(''))));
/** Executors of the load actor `name`'s done and error steps: the fake server answers or fails. */
const loadExecutors = <A extends string, S, E extends { type: string }>(name: A) => {
  const run: ModelExecutor<World, S, E> = async (w, { event }) => settle(w, name, event);
  return { [`xstate.done.actor.${name}`]: run, [`xstate.error.actor.${name}`]: run } as Record<`xstate.done.actor.${A}` | `xstate.error.actor.${A}`, ModelExecutor<World, S, E>>;
};
/** The first-load screen: the documented loading text, and `absent()` (the list or its error) not shown. */
const firstLoadShows = (text: string, absent: () => Element | null) => async () => {
  expect(await screen.findByText(text)).toBeTruthy();
  expect(absent()).toBeNull();
};
const advance = (ms: number) => act(async () => void vi.advanceTimersByTime(ms));
const notSent = (type: string) => async () => {
  throw new Error(`${type} is not sent by this screen`);
};

/** Renders `screen` at the route `path` with fake effects; user-event follows fake time when the chart has delays. */
const renderAt = (path: string, screenOf: (fx: FakeEffects) => ReactElement, fakeTimers = false) => (): World => {
  const fx = new FakeEffects();
  render(<MemoryRouter initialEntries={[path]}>{screenOf(fx)}</MemoryRouter>);
  return { fx, user: userEvent.setup(fakeTimers ? { delay: null, advanceTimers: vi.advanceTimersByTime } : {}) };
};

// ---------------------------------------------------------------------------------------------
// gamesLobby through the Game Lobby (/games)
// ---------------------------------------------------------------------------------------------

type LobbySnap = SnapshotFrom<typeof gamesLobbyMachine>;
type LobbyEvent = GamesLobbyEvent | Loaded<'loadGames', LobbyGame>;

modelTests<LobbySnap, LobbyEvent, World>({
  name: 'gamesLobby',
  machine: gamesLobbyMachine,
  render: renderAt('/games', (fx) => <GamesLobbyPage loadGames={fx.fn('loadGames')} />),
  events: (s) =>
    s.matches('loading')
      ? [{ type: 'xstate.done.actor.loadGames', output: GAMES }, { type: 'xstate.error.actor.loadGames', error: new Error('') }]
      : s.matches('failed')
        ? [{ type: 'lobby.reload' }]
        : [],
  executors: {
    'lobby.reload': async (w) => w.user.click(screen.getByRole('button', { name: 'Try again' })),
    ...loadExecutors<'loadGames', LobbySnap, LobbyEvent>('loadGames'),
  } satisfies Record<LobbyEvent['type'], ModelExecutor<World, LobbySnap, LobbyEvent>>,
  uncovered: {
    'loaded -> lobby.reload': "Neither the Game Lobby nor the My Games widget offers a reload once the games are shown: 'Try again' appears only with a failure (docs/client.md §4).",
  },
  assertions: {
    loading: firstLoadShows('Loading your games...', () => screen.queryByText('Active Snakes & Ladders Games')),
    loaded: async () => {
      expect(await screen.findByText('Active Snakes & Ladders Games')).toBeTruthy();
      expect(screen.getByText('Summer Ladder')).toBeTruthy();
      expect(screen.queryByText('Failed to fetch game data.')).toBeNull();
      expect(screen.queryByText('Loading your games...')).toBeNull();
    },
    failed: async () => {
      expect(await screen.findByText('Failed to fetch game data.')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
      expect(screen.queryByText('Active Snakes & Ladders Games')).toBeNull();
    },
  },
});

// ---------------------------------------------------------------------------------------------
// spectateList through the spectate list (/games/spectate), 30 s poll on fake timers
// ---------------------------------------------------------------------------------------------

type SpectateSnap = SnapshotFrom<typeof spectateListMachine>;
type SpectateEvent =
  | SpectateListEvent
  | Loaded<'loadGames', SpectateGame>
  | { type: 'xstate.after.pollInterval.spectateList.loaded' }
  | { type: 'xstate.after.pollInterval.spectateList.failed' };

const SPECTATE_FAILED = 'Failed to load spectatable games. Please check the server connection.';
const expectSpectateRows = async (games: SpectateGame[]) => {
  if (games.length === 0) expect(await screen.findByText('No games to spectate right now. Check back soon.')).toBeTruthy();
  for (const g of games) {
    const row = (await screen.findByText(g.event_name)).closest('li')!;
    // Results only for a game that has started: a READY game has no move to show.
    const results = within(row).queryByRole('link', { name: 'Results' });
    if (g.status === 'READY') expect(results).toBeNull();
    else expect(results?.getAttribute('href')).toBe(`/games/${g.game_id}/results`);
  }
};

modelTests<SpectateSnap, SpectateEvent, World>({
  name: 'spectateList',
  machine: spectateListMachine,
  fakeTimers: true,
  render: renderAt('/games/spectate', (fx) => <SpectateListPage loadGames={fx.fn('loadGames')} />, true),
  events: (s) => {
    const loads: SpectateEvent[] = [
      { type: 'xstate.done.actor.loadGames', output: s.context.items.length ? [] : SPECTATE },
      { type: 'xstate.error.actor.loadGames', error: new Error('') },
    ];
    if (s.matches('loading') || s.matches('reloading')) return loads;
    // 'spectate.reload' has no control on this screen: the list reloads by its 30 s poll.
    if (s.matches('loaded')) return [{ type: 'xstate.after.pollInterval.spectateList.loaded' }];
    return [{ type: 'xstate.after.pollInterval.spectateList.failed' }];
  },
  notDriven: ['spectate.reload'],
  uncovered: {
    'loaded -> spectate.reload': 'The spectate list has no reload control: it reloads only by its 30 s poll (docs/client.md §4), driven here as after(pollInterval).',
    'failed -> spectate.reload': 'The spectate list has no reload control, not even after a failure: it retries only by its 30 s poll (docs/client.md §4), driven here as after(pollInterval).',
  },
  executors: {
    'spectate.reload': notSent('spectate.reload'),
    ...loadExecutors<'loadGames', SpectateSnap, SpectateEvent>('loadGames'),
    'xstate.after.pollInterval.spectateList.loaded': async () => advance(POLL),
    'xstate.after.pollInterval.spectateList.failed': async () => advance(POLL),
  } satisfies Record<SpectateEvent['type'], ModelExecutor<World, SpectateSnap, SpectateEvent>>,
  assertions: {
    loading: firstLoadShows('Loading spectatable games...', () => screen.queryByTestId('spectate-error')),
    loaded: async (s) => {
      await expectSpectateRows(s.context.items);
      expect(screen.queryByTestId('spectate-error')).toBeNull();
      expect(screen.queryByText('Loading spectatable games...')).toBeNull();
    },
    reloading: async (s) => {
      // The list stays on screen while it reloads; no first-load spinner.
      await expectSpectateRows(s.context.items);
      expect(screen.queryByText('Loading spectatable games...')).toBeNull();
    },
    failed: async (s) => {
      expect((await screen.findByTestId('spectate-error')).textContent).toBe(SPECTATE_FAILED);
      await expectSpectateRows(s.context.items);
    },
  },
});

// ---------------------------------------------------------------------------------------------
// teamList through the Event Teams view
// ---------------------------------------------------------------------------------------------

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
