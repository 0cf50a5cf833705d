import { useSelector } from '@xstate/react';
import { useCallback, useRef } from 'react';
import * as sel from '../../../machines/gamePlay.selectors';
import { revealApp } from '../../base/firstDrawing';
import { BoardView, type BoardViewProps } from '../board/BoardView';
import type { GamePlayRef } from './GamePanels';
import { RollStrip, useFollowPawn, usePawnMotion, type RollMomentRef } from './RollMoment';

/**
 * The board of a game screen (docs/client.md §9): the shared BoardView
 * fed from the gamePlay chart: squares with their task text, snakes, ladders and the team pawns;
 * above it the roll strip (die, the roll in words, sound toggle), and the pawn of the last roll
 * walking, climbing or sliding as the roll moment chart has it, the board scrolling to keep it in
 * view on any screen (clear of the navigation bar and a phone's sticky action panel).
 */
export function GameBoard({ actor }: { actor: GamePlayRef }) {
  const boardSize = useSelector(actor, (s) => s.context.game?.board_size ?? 0);
  const squares = useSelector(actor, (s) => s.context.game?.board_squares);
  const connections = useSelector(actor, (s) => s.context.game?.board_connections);
  const teams = useSelector(actor, (s) => s.context.game?.team_states);
  const eventName = useSelector(actor, (s) => s.context.game?.event_name ?? 'Game');
  const rollMoment = useSelector(actor, sel.selectRollMoment);
  const lastLogged = useSelector(actor, sel.selectLastLoggedRoll);
  const teamName = useCallback(
    (teamId: number) => actor.getSnapshot().context.game?.team_states.find((t) => t.team_id === teamId)?.team_name ?? 'A team',
    [actor],
  );
  if (!boardSize || !squares || !connections) return null;
  // Once drawn, the board takes the place of the server's first drawing, if the page had one.
  const board: BoardViewProps = { boardSize, squares, connections, teams, label: `${eventName} board`, onDrawn: revealApp };
  return (
    <section className="panel game-board" aria-label="Board">
      {rollMoment && <RollStrip actor={rollMoment} teamName={teamName} lastLogged={lastLogged} />}
      {rollMoment ? <MovingBoard board={board} rollMoment={rollMoment} /> : <BoardView {...board} />}
    </section>
  );
}

/** What may cover the board while the page scrolls: the sticky navigation bar and a phone's sticky action panel. */
const BOARD_COVERS = '.navbar, .game-actions--sticky';

function MovingBoard({ board, rollMoment }: { board: BoardViewProps; rollMoment: RollMomentRef }) {
  const motion = usePawnMotion(rollMoment);
  const frame = useRef<HTMLDivElement>(null);
  useFollowPawn(rollMoment, frame, BOARD_COVERS);
  return (
    <div ref={frame} className="game-board__frame">
      <BoardView {...board} motion={motion} />
    </div>
  );
}
