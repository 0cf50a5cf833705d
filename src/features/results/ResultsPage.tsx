import './results.css';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { Link, useParams } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { GAME_VIEW_MESSAGES } from '../../../contract/game/viewTexts';
import { historyCsvPath } from '../../../contract/history';
import { countMoves, countsText, TURNS_EXPLAINED } from '../../../contract/game/counts';
import { formatDuration } from '../../../contract/duration';
import { raceSeries, replayFrames, standings, teamStats, type ResultsData, type Standing } from '../../../contract/results';
import { RESULTS_REFRESH_MS, resultsMachine } from '../../../machines/results.machine';
import * as sel from '../../../machines/results.selectors';
import { Breadcrumb } from '../../ui/Breadcrumb';
import { LoadFailed } from '../../ui/LoadFailed';
import { NotFoundPage } from '../../ui/NotFoundPage';
import { Podium } from '../../ui/Podium';
import { Spinner } from '../../ui/Spinner';
import { verifyPath } from '../../base/paths';
import { boardSizeText, StatusBadge } from '../play/StatusBadge';
import { routeId } from '../play/effects';
import { resultsEffects, type ResultsEffects } from './effects';
import { Replay } from './Replay';
import { ChancesOverGame } from './ChancesOverGame';
import { TableHead } from '../../ui/TableHead';

const PREVIOUS = { to: '/games/spectate', label: 'Spectate Games' };
const HEX = /^#[0-9a-fA-F]{6}$/;
const swatch = (color: string) => (HEX.test(color) ? color : '#cccccc');

/**
 * The results page of a game at /games/{gameId}/results, public like the spectator
 * view: final standings with a podium, the race chart (every team's square over time, one line per
 * team in its colour), per-team statistics (a table where it fits, else one card per team, never
 * scrolling sideways), the replay and the CSV download
 * (/api/public/game/{gameId}/history.csv). Loading, not-found, failed (with Retry) and no-moves
 * states; while the game is still on, 'Standings So Far' read again every RESULTS_REFRESH_MS.
 * `effects` replaces the load and the chart in tests.
 */
// The router loads this page with a lazy import (src/app/routes.tsx).
// ts-unused-exports:disable-next-line
export function ResultsPage({ effects = resultsEffects }: { effects?: ResultsEffects }) {
  const gameId = routeId(useParams().gameId);
  if (!gameId) return <ResultsNotFound />;
  return <Results key={gameId} gameId={gameId} effects={effects} />;
}

function ResultsNotFound() {
  return <NotFoundPage className="results" previous={PREVIOUS} current="Results" message={GAME_VIEW_MESSAGES.notFound} testId="results-error" />;
}

function Results({ gameId, effects }: { gameId: number; effects: ResultsEffects }) {
  const logic = useMemo(() => resultsMachine.provide({ actors: { loadResults: fromPromise(({ input }) => effects.loadResults(input.gameId)) } }), [effects]);
  const actor = useActorRef(logic, { input: { gameId } });
  const data = useSelector(actor, sel.selectResults);
  const loading = useSelector(actor, sel.selectIsLoading);
  const notFound = useSelector(actor, sel.selectIsNotFound);
  const error = useSelector(actor, sel.selectLoadError);
  const gameOn = useSelector(actor, sel.selectIsGameOn);
  if (notFound) return <ResultsNotFound />;
  return (
    <div className="results">
      <Breadcrumb previous={PREVIOUS} current={data ? `${data.history.game.event_name}: Results` : 'Results'} />
      {loading && <Spinner text="Loading results..." />}
      {error && (
        <section className="panel panel--narrow" data-testid="results-error">
          <LoadFailed error={error} onRetry={() => actor.send({ type: 'results.reload' })} />
        </section>
      )}
      {data && <ResultsView data={data} gameOn={gameOn} gameId={gameId} effects={effects} />}
    </div>
  );
}

function ResultsView({ data, gameOn, gameId, effects }: { data: ResultsData; gameOn: boolean; gameId: number; effects: ResultsEffects }) {
  const { history, board } = data;
  const game = history.game;
  const frames = useMemo(() => replayFrames(history), [history]);
  const rows = useMemo(() => standings(history), [history]);
  const hasMoves = history.moves.length > 0;
  const counts = useMemo(() => countMoves(history.moves), [history.moves]);
  return (
    <>
      <header className="panel game-header results__header">
        <div className="game-header__titles">
          <p className="game-header__type">{board.event_type}</p>
          <h1 className="game-header__name">{game.event_name}: Results</h1>
          <p className="game-header__clan muted">{game.clan_name}</p>
        </div>
        <div className="game-header__facts">
          <StatusBadge status={game.status} />
          <span className="game-header__size">Board: {boardSizeText(game.board_size)}</span>
          <span data-testid="results-counts" title={TURNS_EXPLAINED}>
            {countsText(counts)}
          </span>
        </div>
        {gameOn && (
          <p className="muted results__live" data-testid="results-live">
            The game is still on: these results update every {RESULTS_REFRESH_MS / 1000} seconds.
          </p>
        )}
        <nav className="results__links" aria-label="Game links">
          <a className="btn btn--small" href={historyCsvPath(gameId)} download={`game-${gameId}-history.csv`} data-testid="results-csv">
            Download CSV
          </a>
          <Link className="btn btn--small" to={verifyPath(gameId)}>
            Verify dice
          </Link>
          <Link className="btn btn--small" to={`/games/spectate/${gameId}`}>
            Watch game
          </Link>
        </nav>
      </header>
      {!hasMoves && (
        <section className="panel" data-testid="results-empty">
          <p>No moves yet: the story of this game starts with its first roll.</p>
        </section>
      )}
      <StandingsPanel rows={rows} finished={!gameOn} />
      {hasMoves && (
        <>
          <RaceChartPanel data={data} effects={effects} />
          <ChancesOverGame key={history.moves.length} frames={frames} teams={history.teams} board={board} />
          <StatsPanel data={data} />
          <Replay frames={frames} teams={history.teams} board={board} />
        </>
      )}
    </>
  );
}

function StandingsPanel({ rows, finished }: { rows: Standing[]; finished: boolean }) {
  return (
    <section className="panel results__standings" aria-labelledby="results-standings-title">
      <h2 id="results-standings-title">{finished ? 'Final Standings' : 'Standings So Far'}</h2>
      {rows.length === 0 ? (
        <p className="muted">This game has no teams.</p>
      ) : (
        <div className="results__standings-body">
          {finished && <Podium standings={rows} title="Podium" />}
          <ol className="standings" data-testid="standings">
            {rows.map((r) => (
              <li key={r.team.team_id} className="standings__row" data-testid="standing" data-team={r.team.name} data-place={r.place} data-position={r.position}>
                <span className="standings__place">{r.place}.</span>
                <span className="team-positions__swatch" style={{ background: swatch(r.team.color) }} aria-hidden="true" />
                <span className="standings__name">{r.team.name}</span>
                {r.winner && <span className="standings__winner">Winner</span>}
                <span className="standings__square">Square {r.position}</span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

function RaceChartPanel({ data, effects }: { data: ResultsData; effects: ResultsEffects }) {
  const host = useRef<HTMLDivElement>(null);
  const race = useMemo(() => raceSeries(data.history), [data.history]);
  const boardSize = data.history.game.board_size;
  // Drawing into the DOM node is a DOM effect (no fetch, no socket): uPlot owns the node's children.
  useEffect(() => (host.current ? effects.drawRaceChart(host.current, race, boardSize) : undefined), [effects, race, boardSize]);
  return (
    <section className="panel results__race" aria-labelledby="results-race-title">
      <h2 id="results-race-title">The Race</h2>
      <figure className="race-chart-figure" aria-describedby="results-race-summary">
        <figcaption className="muted">Every team's square over time, one line per team in its colour.</figcaption>
        <div ref={host} className="race-chart" data-testid="race-chart" />
      </figure>
      <ul className="sr-only" id="results-race-summary" data-testid="race-summary">
        {race.series.map((s) => (
          <li key={s.team.team_id} data-team={s.team.name}>
            {s.team.name}: from square 1 to square {s.positions.at(-1)}, highest square {Math.max(...s.positions)}.
          </li>
        ))}
      </ul>
    </section>
  );
}

function StatsPanel({ data }: { data: ResultsData }) {
  const stats = useMemo(() => teamStats(data.history), [data.history]);
  const withProof = data.history.reviews.length > 0;
  return (
    <section className="panel results__stats" aria-labelledby="results-stats-title">
      <h2 id="results-stats-title">Team Statistics</h2>
      <p className="muted results__note">
        Rolls count every die thrown, Reverted the rolls a revert undid, and Turns the rolls that stand. Sixes, snakes and ladders count every roll.
      </p>
      <div className="stats-box" data-testid="stats-box">
        <table className="data-table stats-table" data-testid="stats-table">
          <TableHead
            columns={['Team', 'Rolls', 'Reverted', 'Turns', 'Sixes', 'Snakes', 'Ladders', 'Median time per square', 'Longest on a square', ...(withProof ? ['Median time to approval', 'Longest time to approval'] : [])]}
          />
          <tbody>
            {stats.map((s) => (
              <tr key={s.team.team_id} data-team={s.team.name}>
                <th scope="row">
                  <span className="team-positions__swatch" style={{ background: swatch(s.team.color) }} aria-hidden="true" />
                  {s.team.name}
                </th>
                <td data-label="Rolls">{s.rolls}</td>
                <td data-label="Reverted">{s.reverts}</td>
                <td data-label="Turns">{s.turns}</td>
                <td data-label="Sixes">{s.sixes}</td>
                <td data-label="Snakes">{s.snakes}</td>
                <td data-label="Ladders">{s.ladders}</td>
                <td data-label="Median time per square">{formatDuration(s.timePerSquare.median)}</td>
                <td data-label="Longest on a square">{formatDuration(s.timePerSquare.longest)}</td>
                {withProof && <td data-label="Median time to approval">{formatDuration(s.timeToApproval.median)}</td>}
                {withProof && <td data-label="Longest time to approval">{formatDuration(s.timeToApproval.longest)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
