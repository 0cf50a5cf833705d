import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { HistoryTeam } from '../../../contract/history';
import { moveText, type ReplayFrame, type ResultsData } from '../../../contract/results';
import { REPLAY_SPEEDS, replayMachine, type ReplaySpeed } from '../../../machines/replay.machine';
import * as sel from '../../../machines/replay.selectors';
import { BoardView } from '../board/BoardView';

const PLAY_TEXT = { play: 'Play', pause: 'Pause', replay: 'Play again' } as const;

/**
 * The replay of a game: the board with every team's pawn where it stood after the
 * shown move, driven by the replay chart: Play / Pause / Play again, Previous move and Next move
 * buttons, a scrubber (range input, arrow keys move one move) and a speed choice. Below the
 * board, what the shown move was and where every team stands ('replay-position' items carry
 * data-team and data-position for tests); a roll a revert undid reads 'Reverted later.' and the
 * revert names the roll it undid (contract/results moveText). Only for a history with at least one move.
 */
export function Replay({ frames, teams, board }: { frames: readonly ReplayFrame[]; teams: readonly HistoryTeam[]; board: ResultsData['board'] }) {
  const actor = useActorRef(replayMachine, { input: { moves: frames.length - 1 } });
  const frameIndex = useSelector(actor, sel.selectFrame);
  const last = useSelector(actor, sel.selectLastFrame);
  const speed = useSelector(actor, sel.selectSpeed);
  const playing = useSelector(actor, sel.selectIsPlaying);
  const intent = useSelector(actor, sel.selectPlayIntent);
  const canStep = useSelector(actor, sel.selectCanStep);
  const canBack = useSelector(actor, sel.selectCanStepBack);
  const frame = frames[Math.min(frameIndex, frames.length - 1)];
  const names = useMemo(() => new Map(teams.map((t) => [t.team_id, t.name])), [teams]);
  const pawns = useMemo(
    () => teams.map((t) => ({ team_id: t.team_id, team_name: t.name, team_color: t.color, current_position: frame.positions[t.team_id] ?? 1 })),
    [teams, frame],
  );
  return (
    <section className="panel results__replay" aria-labelledby="results-replay-title">
      <h2 id="results-replay-title">Replay</h2>
      <p className="muted results__note">Every roll and every revert, in order: a roll a revert undid says so.</p>
      <div className="replay__controls" data-testid="replay-controls" data-state={intent === 'pause' ? 'playing' : intent === 'replay' ? 'ended' : 'paused'}>
        <button type="button" className="btn btn--small" onClick={() => actor.send({ type: 'replay.back' })} disabled={!canBack} aria-label="Previous move">
          <span aria-hidden="true">◀</span>
        </button>
        <button
          type="button"
          className="btn btn--primary btn--small replay__play"
          onClick={() => actor.send({ type: intent === 'pause' ? 'replay.pause' : 'replay.play' })}
        >
          {PLAY_TEXT[intent]}
        </button>
        <button type="button" className="btn btn--small" onClick={() => actor.send({ type: 'replay.step' })} disabled={!canStep} aria-label="Next move">
          <span aria-hidden="true">▶</span>
        </button>
        <label className="replay__speed">
          Speed{' '}
          <select value={speed} onChange={(e) => actor.send({ type: 'replay.speed', speed: Number(e.target.value) as ReplaySpeed })}>
            {REPLAY_SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="replay__scrubber">
        <span className="sr-only">Replay position</span>
        <input
          type="range"
          min={0}
          max={last}
          step={1}
          value={frameIndex}
          aria-valuetext={`Move ${frameIndex} of ${last}`}
          onChange={(e) => actor.send({ type: 'replay.seek', frame: Number(e.target.value) })}
        />
      </label>
      <p className="replay__status" data-testid="replay-status" aria-live={playing ? 'off' : 'polite'}>
        <strong>
          Move {frameIndex} of {last}
        </strong>
        {': '}
        {frame.move ? moveText(frame.move, names.get(frame.move.team_id) ?? 'A team', frame.role, frame.undone) : 'every team on square 1.'}
      </p>
      <div className="replay__board">
        <BoardView boardSize={board.board_size} squares={board.board_squares} connections={board.board_connections} teams={pawns} label="Replay board" />
      </div>
      <ul className="replay__positions" aria-label="Positions at this move">
        {pawns.map((p) => (
          <li key={p.team_id} data-testid="replay-position" data-team={p.team_name} data-position={p.current_position}>
            <span className="team-positions__swatch" style={{ background: p.team_color }} aria-hidden="true" />
            {p.team_name}: square {p.current_position}
          </li>
        ))}
      </ul>
    </section>
  );
}
