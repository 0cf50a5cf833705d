import { useActorRef, useSelector } from '@xstate/react';
import { lazy, Suspense, useMemo } from 'react';
import { fromPromise } from 'xstate';
import type { ChancesRequest } from '../../../contract/game/chances';
import type { ChancePoint } from '../../../contract/forecastView';
import type { ReplayFrame } from '../../../contract/results';
import type { HistoryTeam } from '../../../contract/history';
import { gameChancesMachine } from '../../../machines/gameChances.machine';
import { computeChances } from '../forecast/runSimulation';

/** The uPlot chart loads with the panel's first points. */
const WinChanceChart = lazy(() => import('../forecast/WinChanceChart'));

/** Simulated continuations per move on the results page (fewer than a live forecast's 10,000: one per move). */
const RUNS_PER_MOVE = 2_000;

/**
 * 'Chances over the game' on the results page (docs/game-rules.md §14): each team's chance to win
 * after every move, computed in the browser from the move history (contract chancesOverGame in a
 * web worker, gameChances chart), drawn with uPlot, one line per team in its colour. Keyed by the
 * history by its caller, so a refreshed history computes again.
 */
export function ChancesOverGame({
  frames,
  teams,
  board,
  compute = computeChances,
}: {
  frames: readonly ReplayFrame[];
  teams: readonly HistoryTeam[];
  board: { board_size: number; board_connections: readonly { start: number; end: number }[] };
  compute?: (request: ChancesRequest, signal: AbortSignal) => Promise<ChancePoint[]>;
}) {
  const request = useMemo<ChancesRequest>(
    () => ({
      board: { board_size: board.board_size, connections: board.board_connections.map((c) => ({ start: c.start, end: c.end })) },
      teamIds: teams.map((t) => t.team_id),
      frames: frames.map((f) => f.positions),
      runs: RUNS_PER_MOVE,
    }),
    [frames, teams, board],
  );
  const logic = useMemo(() => gameChancesMachine.provide({ actors: { computeChances: fromPromise(({ input, signal }: { input: ChancesRequest; signal: AbortSignal }) => compute(input, signal)) } }), [compute]);
  const actor = useActorRef(logic, { input: request });
  const points = useSelector(actor, (s) => s.context.points);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const chartTeams = useMemo(() => teams.map((t) => ({ team_id: t.team_id, team_name: t.name, team_color: t.color })), [teams]);
  return (
    <section className="panel win-chances" aria-labelledby="chances-over-game-title" data-testid="chances-over-game" data-points={points.length}>
      <h2 id="chances-over-game-title">Chances over the game</h2>
      {busy && <p className="muted">Working out the chances after each move…</p>}
      {failed && <p className="muted">The chances could not be worked out in this browser.</p>}
      {points.length > 0 && (
        <Suspense fallback={<p className="muted">Loading the chart…</p>}>
          <WinChanceChart history={points} teams={chartTeams} xLabel="Move" />
        </Suspense>
      )}
      <p className="muted win-chances__note">Each team's chance to win after every move, from {RUNS_PER_MOVE.toLocaleString('en-US')} simulated continuations of the board, worked out in your browser.</p>
    </section>
  );
}
