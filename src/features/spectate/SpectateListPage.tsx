import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { fromPromise } from 'xstate';
import type { SpectateGame } from '../../../contract/lobby';
import { spectateListMachine } from '../../../machines/spectateList.machine';
import * as sel from '../../../machines/spectateList.selectors';
import { fetchSpectateGames } from '../../api/lobby';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { boardSizeText, StatusBadge } from '../play/StatusBadge';
import { resultsPath } from '../../base/paths';
import { hasResults } from '../../../contract/results';

/**
 * The spectate list at /games/spectate (public) and /games/spectate-auth (signed in), docs/client.md §4, §11, §12; docs/server.md
 * §3: every spectatable game (GET
 * /api/games/spectate), refreshed every 30 s by the spectateList chart; each row links to
 * /games/spectate/{gameId} and, once the game has started (contract hasResults), to its results page
 * /games/{gameId}/results. `loadGames` replaces the call in tests.
 */
export function SpectateListPage({ loadGames = fetchSpectateGames }: { loadGames?: () => Promise<SpectateGame[]> }) {
  const logic = useMemo(() => spectateListMachine.provide({ actors: { loadGames: fromPromise(() => loadGames()) } }), [loadGames]);
  const actor = useActorRef(logic);
  const games = useSelector(actor, sel.selectSpectateGames);
  const error = useSelector(actor, sel.selectSpectateError);
  const firstLoad = useSelector(actor, sel.selectIsFirstLoad);
  const loaded = useSelector(actor, sel.selectHasLoaded);
  return (
    <div className="spectate">
      <header className="lobby__header">
        <h1>Spectate Games</h1>
        <p className="muted spectate__hint">Watch any clan's live board. The list refreshes every 30 seconds.</p>
      </header>
      {firstLoad && <Spinner text="Loading spectatable games..." />}
      {error && <Notice tone="error" testId="spectate-error">{error}</Notice>}
      {loaded && (
        <section className="panel">
          {games.length === 0 ? (
            <p className="spectate__empty muted">No games to spectate right now. Check back soon.</p>
          ) : (
            <ul className="spectate-list">
              {games.map((g) => (
                <li key={g.game_id} className="spectate-list__item">
                  <Link className="spectate-list__link" to={`/games/spectate/${g.game_id}`}>
                    <span className="spectate-list__name" id={`spectate-name-${g.game_id}`}>{g.event_name}</span>
                    <span className="spectate-list__clan muted">{g.clan_name}</span>
                  </Link>
                  <span className="spectate-list__facts">
                    <StatusBadge status={g.status} />
                    <span>{boardSizeText(g.board_size)}</span>
                    <span>
                      {g.team_count} team{g.team_count === 1 ? '' : 's'}
                    </span>
                    {hasResults(g.status) && (
                      <Link className="spectate-list__results" to={resultsPath(g.game_id)} aria-describedby={`spectate-name-${g.game_id}`}>
                        Results
                      </Link>
                    )}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
