import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import * as sel from '../../../machines/gamePlay.selectors';
import { revealApp } from '../../base/firstDrawing';
import { BoardView, type BoardViewProps } from '../board/BoardView';
import { keepClearOfGrowingBars } from '../board/followSquare';
import { prefersReducedMotion } from './confetti';
import type { GamePlayRef } from './gamePlayRef';
import { RollStrip, useFollowPawn, usePawnMotion, type RollMomentRef } from './RollMoment';

/**
 * The board of a game screen (docs/client.md §9): the shared BoardView
 * fed from the gamePlay chart: squares with their task text, snakes, ladders and the team pawns;
 * above it the roll strip (die, the roll in words, sound toggle), and the pawn of the last roll
 * walking, climbing or sliding as the roll moment chart has it, the board scrolling to keep it in
 * view on any screen, with the die when both fit (clear of the navigation bar and a phone's sticky
 * action panel). When that panel grows over the board's bottom rows (a refusal or the relief line
 * after a roll), the page scrolls so the board shows above it again.
 */
export function GameBoard({ actor }: { actor: GamePlayRef }) {
  const boardSize = useSelector(actor, (s) => s.context.game?.board_size ?? 0);
  const squares = useSelector(actor, (s) => s.context.game?.board_squares);
  const connections = useSelector(actor, (s) => s.context.game?.board_connections);
  const teams = useSelector(actor, (s) => s.context.game?.team_states);
  const eventName = useSelector(actor, (s) => s.context.game?.event_name ?? 'Game');
  const rollMoment = useSelector(actor, sel.selectRollMoment);
  const lastLogged = useSelector(actor, sel.selectLastLoggedRoll);
  const area = useRef<HTMLElement>(null);
  const drawn = Boolean(boardSize && squares && connections);
  useClearOfGrowingBars(area, drawn);
  const teamName = useCallback(
    (teamId: number) => actor.getSnapshot().context.game?.team_states.find((t) => t.team_id === teamId)?.team_name ?? 'A team',
    [actor],
  );
  if (!boardSize || !squares || !connections) return null;
  // Once drawn, the board takes the place of the server's first drawing, if the page had one.
  const board: BoardViewProps = { boardSize, squares, connections, teams, label: `${eventName} board`, onDrawn: revealApp };
  return (
    <section ref={area} className="panel game-board" aria-label="Board">
      {rollMoment && <RollStrip actor={rollMoment} teamName={teamName} lastLogged={lastLogged} />}
      {rollMoment ? <MovingBoard board={board} rollMoment={rollMoment} area={area} /> : <BoardView {...board} />}
    </section>
  );
}

/** What may cover the board while the page scrolls: the sticky navigation bar and a phone's sticky action panel. */
const BOARD_COVERS = '.navbar, .game-actions--sticky';
/** The bars that may grow over the board: the Game Action panel (sticky on a phone while a Leader can act). */
const GROWING_BARS = '.game-actions';
/** What the board keeps in view beside the pawn when both fit: the roll strip with the die. */
const KEEP_WITH_BOARD = '.roll-strip';

/** Watches the sticky bars over the board section `area` while it is drawn (keepClearOfGrowingBars). */
function useClearOfGrowingBars(area: RefObject<HTMLElement | null>, drawn: boolean): void {
  useEffect(() => {
    if (!drawn || !area.current) return undefined;
    return keepClearOfGrowingBars(area.current, GROWING_BARS, { smooth: !prefersReducedMotion(), covers: BOARD_COVERS, keep: KEEP_WITH_BOARD });
  }, [area, drawn]);
}

function MovingBoard({ board, rollMoment, area }: { board: BoardViewProps; rollMoment: RollMomentRef; area: RefObject<HTMLElement | null> }) {
  const motion = usePawnMotion(rollMoment);
  useFollowPawn(rollMoment, area, BOARD_COVERS, KEEP_WITH_BOARD);
  return (
    <div className="game-board__frame">
      <BoardView {...board} motion={motion} />
    </div>
  );
}
