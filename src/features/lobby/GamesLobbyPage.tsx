import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { isActiveStatus } from '../../../contract/game';
import type { LobbyGame } from '../../../contract/lobby';
import { gamesLobbyMachine } from '../../../machines/gamesLobby.machine';
import { selectLobbyError, selectLobbyGames, selectLobbyLoading } from '../../../machines/gamesLobby.selectors';
import { fetchLobbyGames } from '../../api/lobby';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { boardSizeText, StatusBadge } from '../play/StatusBadge';
import { gamePlayPath, resultsPath } from '../../base/paths';
import { DataTable } from '../../ui/DataTable';

/** Lobby rows grouped by clan and playing IGN, in the server's order (docs/client.md §1). */
export function groupLobbyGames(games: LobbyGame[]): { key: string; clan: string; ign: string; games: LobbyGame[] }[] {
  const groups: { key: string; clan: string; ign: string; games: LobbyGame[] }[] = [];
  for (const game of games) {
    const key = `${game.clan_id}|${game.player_ign}`;
    const last = groups.find((g) => g.key === key);
    if (last) last.games.push(game);
    else groups.push({ key, clan: game.clan_name, ign: game.player_ign, games: [game] });
  }
  return groups;
}

/**
 * /games, the Game Lobby (docs/client.md §4): shown only when the path ends in
 * /games (the nested spectate-auth child renders through the outlet). Two tables, 'Active Snakes &
 * Ladders Games' and 'Former (Finished) Games', with the columns Game / Event, Status, Teams &
 * Positions and Action; rows grouped by 'Clan: … | Playing As: …'; the viewer's teams starred.
 * Go To Game opens the play screen; View Results opens the game's results page.
 * `loadGames` replaces GET /api/games in tests.
 */
export function GamesLobbyPage({ loadGames = fetchLobbyGames }: { loadGames?: () => Promise<LobbyGame[]> }) {
  const location = useLocation();
  if (!/\/games\/?$/.test(location.pathname)) return <Outlet />;
  return <Lobby loadGames={loadGames} />;
}

function Lobby({ loadGames }: { loadGames: () => Promise<LobbyGame[]> }) {
  const logic = useMemo(() => gamesLobbyMachine.provide({ actors: { loadGames: fromPromise(() => loadGames()) } }), [loadGames]);
  const actor = useActorRef(logic);
  const games = useSelector(actor, selectLobbyGames);
  const loading = useSelector(actor, selectLobbyLoading);
  const error = useSelector(actor, selectLobbyError);
  const active = games.filter((g) => isActiveStatus(g.status));
  const former = games.filter((g) => !isActiveStatus(g.status));
  return (
    <div className="lobby">
      <header className="lobby__header">
        <h1>Game Lobby</h1>
        <Link className="btn btn--ghost" to="/games/spectate-auth">Spectate Games</Link>
      </header>
      {loading && <Spinner text="Loading your games..." />}
      {error && (
        <section className="panel">
          <Notice tone="error">{error}</Notice>
          <button type="button" className="btn" onClick={() => actor.send({ type: 'lobby.reload' })}>Try again</button>
        </section>
      )}
      {!loading && !error && (
        <>
          <LobbyTable
            title="Active Snakes & Ladders Games"
            games={active}
            action="Go To Game"
            empty="You have no active games. When a team you play on has a game, it appears here."
          />
          <LobbyTable title="Former (Finished) Games" games={former} action="View Results" empty="No finished games yet." />
        </>
      )}
    </div>
  );
}

function LobbyTable({ title, games, action, empty }: { title: string; games: LobbyGame[]; action: string; empty: string }) {
  const id = title.toLowerCase().replace(/[^a-z]+/g, '-');
  return (
    <section className="panel lobby__section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <DataTable className="lobby-table" columns={['Game / Event', 'Status', 'Teams & Positions', 'Action']} sections>
        {games.length === 0 ? (
          <tbody>
            <tr>
              <td colSpan={4} className="table__empty">{empty}</td>
            </tr>
          </tbody>
        ) : (
          groupLobbyGames(games).map((group) => (
            <tbody key={group.key}>
              <tr className="lobby-table__group">
                <th colSpan={4} scope="colgroup">
                  Clan: {group.clan} | Playing As: {group.ign}
                </th>
              </tr>
              {group.games.map((g) => (
                <tr key={g.game_id} className="lobby-table__row">
                  <td data-label="Game / Event">
                    <span className="lobby-table__event">{g.event_name}</span>
                    <span className="lobby-table__size">{boardSizeText(g.board_size)}</span>
                  </td>
                  <td data-label="Status">
                    <StatusBadge status={g.status} />
                  </td>
                  <td data-label="Teams & Positions">
                    <ul className="lobby-teams">
                      {g.teams.map((t) => (
                        <li key={t.id} className={t.is_mine ? 'lobby-teams__team lobby-teams__team--mine' : 'lobby-teams__team'}>
                          <span className="team-positions__swatch" style={{ background: t.color || '#cccccc' }} aria-hidden="true" />
                          <span className="lobby-teams__name">
                            {t.is_mine && <span className="star" aria-label="Your team">★{'\u00a0'}</span>}
                            {t.name}
                          </span>
                          <span className="lobby-teams__pos">Square {t.current_position}</span>
                        </li>
                      ))}
                      {g.teams.length === 0 && <li className="muted">No teams</li>}
                    </ul>
                  </td>
                  <td data-label="Action" className="lobby-table__action">
                    <Link
                      className={action === 'Go To Game' ? 'btn btn--primary btn--small' : 'btn btn--small'}
                      to={action === 'Go To Game' ? gamePlayPath(g.clan_id, g.event_id, g.game_id) : resultsPath(g.game_id)}
                    >
                      {action}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          ))
        )}
      </DataTable>
    </section>
  );
}
