import { useSelector } from '@xstate/react';
import type { GamePlayRef } from './GamePanels';

/** The board of a game screen (product-spec section 2): BoardView of issue #5 fed from the gamePlay chart. */
export function GameBoard({ actor }: { actor: GamePlayRef }) {
  const boardSize = useSelector(actor, (s) => s.context.game?.board_size ?? 0);
  return (
    <section className="panel game-board" aria-label="Game board">
      <p className="muted">Board of {boardSize} squares.</p>
    </section>
  );
}
