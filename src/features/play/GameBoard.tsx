import { useSelector } from '@xstate/react';
import { BoardView } from '../board/BoardView';
import type { GamePlayRef } from './GamePanels';

/**
 * The board of a game screen (product-spec section 2 "Game play screen"): the shared BoardView
 * fed from the gamePlay chart: squares with their task text, snakes, ladders and the team pawns,
 * which glide when a position changes.
 */
export function GameBoard({ actor }: { actor: GamePlayRef }) {
  const boardSize = useSelector(actor, (s) => s.context.game?.board_size ?? 0);
  const squares = useSelector(actor, (s) => s.context.game?.board_squares);
  const connections = useSelector(actor, (s) => s.context.game?.board_connections);
  const teams = useSelector(actor, (s) => s.context.game?.team_states);
  const eventName = useSelector(actor, (s) => s.context.game?.event_name ?? 'Game');
  if (!boardSize || !squares || !connections) return null;
  return (
    <section className="panel game-board" aria-label="Board">
      <BoardView boardSize={boardSize} squares={squares} connections={connections} teams={teams} label={`${eventName} board`} />
    </section>
  );
}
