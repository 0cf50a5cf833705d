import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { isActiveStatus } from '../../../contract/game/status';
import type { LobbyGame } from '../../../contract/lobby';
import { gamesLobbyMachine } from '../../../machines/gamesLobby.machine';
import { selectLobbyError, selectLobbyGames, selectLobbyLoading } from '../../../machines/gamesLobby.selectors';
import { fetchLobbyGames } from '../../api/lobby';
import { SessionContext } from '../../base/session';
import { sameClans, selectClanMemberships, selectIsRefreshing, selectManagedClans, selectUser } from '../../../machines/session.selectors';
import type { ClanMembership } from '../../../contract/user';
import type { ClanDesk, ClanEventsDesk } from '../../../contract/clanDesk';
import { Avatar } from '../../ui/Avatar';
import { StatusBadge } from '../play/StatusBadge';
import { gamePlayPath } from '../../base/paths';
import { ClanGames, GettingStartedList, useClanDesks } from './ClanDesks';
import { ClanEventsWidget } from './ClanEvents';
import { OwnJoinRequests } from '../joins/OwnJoinRequests';
import { fetchRecentNotifications } from '../../api/push';
import type { RecentNotification } from '../../../contract/push';
import { RecentNotifications } from './RecentNotifications';

/** The managed clans' calls load with their first use, so the events and tasks code stays out of every page's first load. */
const loadClanDesks = (clans: readonly ClanMembership[]) => import('./clanDesks').then((m) => m.loadClanDesks(clans));
/** Every clan's upcoming events, loaded the same way. */
const loadClanEvents = (clans: readonly ClanMembership[]) => import('./clanEvents').then((m) => m.loadClanEvents(clans));

/**
 * /dashboard (docs/game-rules.md §1): a welcome header and three widgets: My Profile, My Games
 * (up to three current games with their status, from GET /api/games), Spectate Live Games. For a
 * manager (Owner or Admin) of a clan, also the getting-started steps of a clan that has had no
 * game yet, and a Clan Games widget with the live games of the clans they manage (the clanDesks
 * chart). For every member of a clan, whatever the role, the Clan Events widget (docs/client.md
 * §1): the way by clicks to each clan's events, their Sign-ups and a running draft. For everyone,
 * the Notifications widget: the latest notifications the pushes carry, shown in the page for those
 * without push (docs/server.md §20 "In the page"). `loadGames`, `loadDesks`, `loadEvents` and
 * `loadNotifications` replace the calls in tests.
 */
export function DashboardPage({
  loadGames = fetchLobbyGames,
  loadDesks = loadClanDesks,
  loadEvents = loadClanEvents,
  loadNotifications = fetchRecentNotifications,
}: {
  loadGames?: () => Promise<LobbyGame[]>;
  loadDesks?: (clans: readonly ClanMembership[]) => Promise<ClanDesk[]>;
  loadEvents?: (clans: readonly ClanMembership[]) => Promise<ClanEventsDesk[]>;
  loadNotifications?: () => Promise<RecentNotification[]>;
}) {
  const user = SessionContext.useSelector(selectUser);
  const managed = SessionContext.useSelector(selectManagedClans, sameClans);
  if (!user) return null;
  // A new chart when the managed clans or their names change (Refresh stats, a promotion, a rename).
  const key = managed.map((m) => `${m.clan_id}:${m.name}`).join(',');
  return managed.length > 0 ? (
    <ManagerDashboard key={key} managed={managed} loadGames={loadGames} loadDesks={loadDesks} loadEvents={loadEvents} loadNotifications={loadNotifications} />
  ) : (
    <Dashboard loadGames={loadGames} loadEvents={loadEvents} loadNotifications={loadNotifications} />
  );
}

/** The dashboard of a manager: the clanDesks chart over the managed clans, shown through Dashboard. */
function ManagerDashboard({
  managed,
  loadGames,
  loadDesks,
  loadEvents,
  loadNotifications,
}: {
  managed: readonly ClanMembership[];
  loadGames: () => Promise<LobbyGame[]>;
  loadDesks: (clans: readonly ClanMembership[]) => Promise<ClanDesk[]>;
  loadEvents: (clans: readonly ClanMembership[]) => Promise<ClanEventsDesk[]>;
  loadNotifications: () => Promise<RecentNotification[]>;
}) {
  const desks = useClanDesks(managed, loadDesks);
  return <Dashboard loadGames={loadGames} loadEvents={loadEvents} loadNotifications={loadNotifications} desks={desks} />;
}

/** The dashboard's panels; `desks` (a manager's) adds the getting-started steps and Clan Games. */
function Dashboard({
  loadGames,
  loadEvents,
  loadNotifications,
  desks,
}: {
  loadGames: () => Promise<LobbyGame[]>;
  loadEvents: (clans: readonly ClanMembership[]) => Promise<ClanEventsDesk[]>;
  loadNotifications: () => Promise<RecentNotification[]>;
  desks?: ReturnType<typeof useClanDesks>;
}) {
  const user = SessionContext.useSelector(selectUser);
  const refreshing = SessionContext.useSelector(selectIsRefreshing);
  const memberships = SessionContext.useSelector(selectClanMemberships, sameClans);
  const session = SessionContext.useActorRef();
  if (!user) return null;
  const clans = user.clan_memberships_list;
  // A new Clan Events chart when the clans or their names change (a join, a leave, a rename).
  const clansKey = memberships.map((m) => `${m.clan_id}:${m.name}`).join(',');
  return (
    <div className="dashboard">
      <header className="welcome panel">
        <Avatar url={user.avatar_url} username={user.username} size={56} />
        <div>
          <h1 className="welcome__title">Welcome, {user.username}!</h1>
          <p className="muted">
            Playing as {user.igns.map((i) => i.ign).join(', ')}
            {clans.length > 0 && <> · {clans.map((c) => `${c.name} (${c.role})`).join(', ')}</>}
          </p>
        </div>
      </header>
      {desks && <GettingStartedList desks={desks} />}
      <div className="widgets">
        <RecentNotifications loadNotifications={loadNotifications} />
        {desks && <ClanGames desks={desks} />}
        {memberships.length > 0 && <ClanEventsWidget key={clansKey} clans={memberships} loadEvents={loadEvents} />}
        {(user.join_requests ?? []).length > 0 && (
          <article className="widget panel">
            <h2>My Requests to Join</h2>
            <OwnJoinRequests requests={user.join_requests ?? []} onWithdrawn={() => session.send({ type: 'session.reload' })} />
          </article>
        )}
        <article className="widget panel">
          <h2>My Profile</h2>
          <p>Update your linked IGNs, manage your clans and view your stats.</p>
          <ul className="stats">
            <li><strong>{user.igns.length}</strong> IGN{user.igns.length === 1 ? '' : 's'} linked</li>
            <li><strong>{clans.length}</strong> clan{clans.length === 1 ? '' : 's'}</li>
          </ul>
          <div className="row widget__actions">
            <Link className="btn btn--primary" to="/profile">Open Profile</Link>
            <button type="button" className="btn" disabled={refreshing} onClick={() => session.send({ type: 'session.reload' })}>
              {refreshing ? 'Refreshing...' : 'Refresh stats'}
            </button>
          </div>
        </article>
        <article className="widget panel">
          <h2>My Games</h2>
          <p>Your current games and their status: roll for your team when you lead it.</p>
          <MyGames loadGames={loadGames} />
          <Link className="btn btn--primary" to="/games">Open Game Lobby</Link>
        </article>
        <article className="widget panel">
          <h2>Spectate Live Games</h2>
          <p>Watch any clan&apos;s live board, rolls and log as they happen.</p>
          <Link className="btn btn--primary" to="/games/spectate-auth">Spectate</Link>
        </article>
      </div>
    </div>
  );
}

/** Most current games the My Games widget lists. */
const MY_GAMES_SHOWN = 3;

/** The My Games list (docs/game-rules.md §1): up to three active games, each linking to its play screen. */
function MyGames({ loadGames }: { loadGames: () => Promise<LobbyGame[]> }) {
  const logic = useMemo(() => gamesLobbyMachine.provide({ actors: { loadGames: fromPromise(() => loadGames()) } }), [loadGames]);
  const actor = useActorRef(logic);
  const games = useSelector(actor, selectLobbyGames);
  const loading = useSelector(actor, selectLobbyLoading);
  const error = useSelector(actor, selectLobbyError);
  if (loading) return <p className="muted my-games__note">Loading your games...</p>;
  if (error) return <p className="muted my-games__note">{error}</p>;
  const current = games.filter((g, i) => isActiveStatus(g.status) && games.findIndex((o) => o.game_id === g.game_id) === i).slice(0, MY_GAMES_SHOWN);
  if (current.length === 0) return <p className="muted my-games__note">No current games.</p>;
  return (
    <ul className="my-games">
      {current.map((g) => (
        <li key={g.game_id} className="my-games__item">
          <Link to={gamePlayPath(g.clan_id, g.event_id, g.game_id)} className="my-games__link">
            {g.event_name}
          </Link>
          <StatusBadge status={g.status} />
        </li>
      ))}
    </ul>
  );
}
