import { useActorRef, useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect, useId, useMemo } from 'react';
import { fromPromise } from 'xstate';
import type { BoardSimulation } from '../../../contract/game/forecast';
import { mostLanded, type SimulationRequest, type SimulatorBoard } from '../../../contract/game/simulatorView';
import { TIER_LABELS, TIERS } from '../../../contract/game/tiers';
import { winChanceText } from '../../../contract/forecastView';
import { boardSimulatorMachine, SIMULATOR_RUNS } from '../../../machines/boardSimulator.machine';
import * as sel from '../../../machines/boardSimulator.selectors';
import { runSimulation } from './runSimulation';

/** The histogram loads with uPlot only when a simulation is shown. */
const RollsHistogram = lazy(() => import('./RollsHistogram'));

/** Runs one simulation (default: in a web worker); replaceable in tests. */
export type Simulate = (request: SimulationRequest, signal: AbortSignal) => Promise<BoardSimulation>;

/** Hours as the simulator says them: '37.5 h', '3 d 4 h' from 48 h on. */
function hoursText(h: number): string {
  if (h < 48) return `${Math.round(h * 10) / 10} h`;
  const days = Math.floor(h / 24);
  return `${days} d ${Math.round(h - days * 24)} h`;
}

/**
 * The board simulator (docs/game-rules.md §14): 10,000 single-team games of `board` in a web worker
 * (boardSimulator chart), showing the histogram of rolls to finish (uPlot), the mean rolls, the
 * expected event length from the hours per tier (editable; outside 0..1,000 refused with the
 * form's message), the chance the hours fit in the event (when it has an end) and a heat map of the
 * squares landed on most, drawn on the board's grid with its legend (the colour scale; snake and
 * ladder starts hatched, never a resting place) and the five most landed named. A new `board`
 * (snakes or ladders changed) runs it again.
 */
export function BoardSimulator({ board, simulate = runSimulation }: { board: SimulatorBoard | null; simulate?: Simulate }) {
  const id = useId();
  const logic = useMemo(() => boardSimulatorMachine.provide({ actors: { simulate: fromPromise(({ input, signal }: { input: SimulationRequest; signal: AbortSignal }) => simulate(input, signal)) } }), [simulate]);
  const actor = useActorRef(logic);
  useEffect(() => {
    if (board) actor.send({ type: 'board.changed', board });
  }, [actor, board]);
  const result = useSelector(actor, sel.selectSimulation);
  const hours = useSelector(actor, sel.selectHoursDraft);
  const busy = useSelector(actor, sel.selectIsSimulating);
  const failed = useSelector(actor, sel.selectHasFailed);
  const error = useSelector(actor, sel.selectHoursError);
  const errorId = `${id}-error`;
  return (
    <section className="game-area simulator" aria-labelledby={`${id}-title`} data-testid="board-simulator" data-busy={busy}>
      <h3 id={`${id}-title`}>Board simulator</h3>
      <p className="muted">What this board is like: {SIMULATOR_RUNS.toLocaleString('en-US')} simulated games of one team from square 1 to the finish.</p>
      {/* A table, not labels named after the tiers: the settings form beside it already has fields labelled Easy, Medium, ... */}
      <table className="simulator__hours">
        <caption className="field__label">Hours per task</caption>
        <thead>
          <tr>
            {TIERS.map((tier) => (
              <th key={tier} scope="col">
                {TIER_LABELS[tier]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            {TIERS.map((tier, i) => (
              <td key={tier}>
                <input
                  className="input"
                  type="number"
                  inputMode="decimal"
                  min={0}
                  max={1000}
                  step={0.5}
                  value={hours[tier]}
                  aria-label={`Hours per task, tier ${i + 1}`}
                  aria-invalid={error !== null && error.includes(` ${tier.toLowerCase()} `)}
                  aria-describedby={error ? errorId : undefined}
                  onChange={(e) => actor.send({ type: 'hours.change', tier, value: e.target.value })}
                />
              </td>
            ))}
          </tr>
        </tbody>
      </table>
      {error && (
        <p id={errorId} className="notice notice--error" role="alert" data-testid="simulator-error">
          {error}
        </p>
      )}
      {failed && <p className="notice notice--error">The simulation failed. Change a value to try again.</p>}
      {busy && !result && <p className="muted">Simulating…</p>}
      {result && <SimulationResult result={result} board={board} />}
    </section>
  );
}

function SimulationResult({ result, board }: { result: BoardSimulation; board: SimulatorBoard | null }) {
  const top = mostLanded(result);
  return (
    <div className="simulator__result" data-testid="simulation" data-mean-rolls={result.mean_rolls.toFixed(3)}>
      <dl className="simulator__facts">
        <div>
          <dt>Rolls to finish</dt>
          <dd data-testid="sim-mean-rolls">{result.mean_rolls.toFixed(1)} on average</dd>
        </div>
        <div>
          <dt>Expected event length</dt>
          <dd data-testid="sim-hours">{hoursText(result.mean_hours)} of tasks</dd>
        </div>
        <div>
          <dt>Chance to finish before the event ends</dt>
          <dd data-testid="sim-finish-chance">{result.finish_chance === null ? 'The event has no end time.' : winChanceText(result.finish_chance)}</dd>
        </div>
      </dl>
      <Suspense fallback={<p className="muted">Loading the chart…</p>}>
        <div className="simulator__histogram" data-testid="sim-histogram" data-rolls={result.rolls.join(',')}>
          <RollsHistogram rolls={result.rolls} runs={result.runs} />
        </div>
      </Suspense>
      {board && <HeatMap landings={result.landings} size={board.board.board_size} connections={board.board.connections} />}
      <p className="simulator__top" data-testid="sim-top-squares">
        Landed on most: {top.map((t) => `square ${t.square} (${(t.share * 100).toFixed(1)}%)`).join(', ')}
      </p>
    </div>
  );
}

/**
 * The board's squares as a grid (square 1 bottom left, rows alternating), each shaded by how often a
 * roll ended there; the scale is set by the squares between start and finish (every game ends on N).
 * A square where a snake or ladder starts is hatched instead (a pawn never rests there: it moves on
 * at once), START and FINISH are left plain. The legend under it explains the colour scale (from
 * none to the share of all landings of the darkest square) and both marks.
 */
function HeatMap({ landings, size, connections }: { landings: readonly number[]; size: number; connections: readonly { start: number; end: number }[] }) {
  // An id usable inside url(#...): useId's characters are not all safe there.
  const hatch = `${useId().replace(/[^a-zA-Z0-9_-]/g, '')}-hatch`;
  const side = Math.round(Math.sqrt(size));
  const max = Math.max(1, ...landings.slice(2, size));
  const total = landings.reduce((a, b) => a + b, 0) || 1;
  const starts = new Map(connections.map((c) => [c.start, c.end > c.start ? 'ladder' : 'snake'] as const));
  const cells = [];
  for (let square = 1; square <= size; square += 1) {
    const row = Math.floor((square - 1) / side);
    const inRow = (square - 1) % side;
    const col = row % 2 === 0 ? inRow : side - 1 - inRow;
    const via = starts.get(square);
    const heat = via || square === 1 || square === size ? 0 : (landings[square] ?? 0) / max;
    cells.push(
      <g key={square} transform={`translate(${col * 10} ${(side - 1 - row) * 10})`} data-square={square} data-via={via}>
        <rect width={10} height={10} fill={via ? `url(#${hatch})` : `rgba(190, 40, 20, ${(0.06 + heat * 0.9).toFixed(3)})`} stroke="#c9b07a" strokeWidth={0.3} />
        <text x={5} y={6.4} textAnchor="middle" fontSize={side > 10 ? 2.6 : 3.2} fill={heat > 0.6 ? '#fff' : '#3d2c08'}>
          {square}
        </text>
      </g>,
    );
  }
  return (
    <figure className="simulator__heat">
      <svg viewBox={`0 0 ${side * 10} ${side * 10}`} role="img" aria-label="Heat map of the squares landed on most" data-testid="sim-heat-map">
        <defs>
          <HatchPattern id={hatch} />
        </defs>
        {cells}
      </svg>
      <figcaption className="simulator__legend" data-testid="sim-heat-legend">
        <span className="simulator__scale">
          <span className="simulator__scale-end">Never</span>
          <span className="simulator__scale-bar" aria-hidden="true" />
          <span className="simulator__scale-end">{`${((max / total) * 100).toFixed(1)}% of all landings`}</span>
        </span>
        <span className="simulator__legend-text">Darker squares are landed on more often.</span>
        <span className="simulator__legend-item">
          <svg className="simulator__swatch" viewBox="0 0 10 10" aria-hidden="true">
            <defs>
              <HatchPattern id={`${hatch}-key`} />
            </defs>
            <rect width={10} height={10} fill={`url(#${hatch}-key)`} stroke="#c9b07a" strokeWidth={0.6} />
          </svg>
          Hatched: a snake or ladder starts there, so a pawn never stops on it (it moves on at once).
        </span>
        <span className="simulator__legend-item">
          <svg className="simulator__swatch" viewBox="0 0 10 10" aria-hidden="true">
            <rect width={10} height={10} fill="rgba(190, 40, 20, 0.06)" stroke="#c9b07a" strokeWidth={0.6} />
          </svg>
          START and FINISH are left out of the scale: every game starts and ends there.
        </span>
      </figcaption>
    </figure>
  );
}

/** Grey diagonal stripes, the heat map's mark for a square a pawn never rests on. */
function HatchPattern({ id }: { id: string }) {
  return (
    <pattern id={id} width={2.5} height={2.5} patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width={2.5} height={2.5} fill="#ece4cf" />
      <line x1={0} y1={0} x2={0} y2={2.5} stroke="#8f8570" strokeWidth={1} />
    </pattern>
  );
}
