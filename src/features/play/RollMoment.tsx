import { shallowEqual, useSelector } from '@xstate/react';
import { useEffect, useState, type RefObject } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { LogEntry } from '../../../contract/gameApi';
import type { rollMomentMachine } from '../../../machines/rollMoment.machine';
import * as rm from '../../../machines/rollMoment.selectors';
import type { PawnMotion } from '../board/BoardView';
import { keepSquaresInView } from '../board/followSquare';
import { prefersReducedMotion } from './confetti';
import { isSoundOn, setSoundOn } from './sound';

/** The roll moment chart invoked by gamePlay. */
export type RollMomentRef = ActorRefFrom<typeof rollMomentMachine>;

/** Pips of each face on a 3x3 grid (cells 0..8, row by row). */
const PIPS: Record<number, number[]> = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

/**
 * A die showing `face` (1..6) as pips, or a blank die before any roll; it tumbles (CSS animation,
 * none under prefers-reduced-motion) while `tumbling`. `data-value` is the face shown, `data-state`
 * 'tumbling' or 'settled'. Decorative: the roll is announced in text beside it.
 */
function Die({ face, tumbling }: { face: number | null; tumbling: boolean }) {
  const pips = face ? PIPS[face] ?? [] : [];
  return (
    <span className={tumbling ? 'die die--tumbling' : 'die'} data-testid="die" data-value={face ?? ''} data-state={tumbling ? 'tumbling' : 'settled'} aria-hidden="true">
      {Array.from({ length: 9 }, (_, i) => (
        <span key={i} className={pips.includes(i) ? 'die__pip die__pip--on' : 'die__pip'} />
      ))}
    </span>
  );
}

/**
 * The roll strip above the board ("the roll moment"): the die of the last roll (tumbling, then the
 * server's value), a live text 'Red Dragons rolled a 5' once it shows, and the optional sound
 * toggle (off by default, remembered in this browser). Before any roll plays on this screen it
 * shows `lastLogged`, the newest roll of the Live Game Log (its team and die, docs/game-rules.md
 * §9), settled and without tumbling; 'No roll yet.' only when the game has no roll.
 */
export function RollStrip({ actor, teamName, lastLogged }: { actor: RollMomentRef; teamName: (teamId: number) => string; lastLogged: LogEntry | null }) {
  const moment = useSelector(actor, rm.selectDieFace);
  const tumbling = useSelector(actor, rm.selectIsTumbling);
  const move = useSelector(actor, rm.selectMove);
  const face = moment ?? lastLogged?.die ?? null;
  const said = move
    ? tumbling
      ? 'Rolling…'
      : `${teamName(move.team_id)} rolled a ${move.die}`
    : lastLogged?.die
      ? `${lastLogged.team_name} rolled a ${lastLogged.die}`
      : 'No roll yet.';
  const [sound, setSound] = useState(isSoundOn);
  return (
    <div className="roll-strip">
      <Die face={face} tumbling={tumbling} />
      <p className="roll-strip__text" role="status" aria-live="polite" data-testid="die-announcement">
        {said}
      </p>
      <button
        type="button"
        className="btn btn--small roll-strip__sound"
        aria-pressed={sound}
        onClick={() => {
          setSoundOn(!sound);
          setSound(!sound);
        }}
      >
        {sound ? 'Sound on' : 'Sound off'}
      </button>
    </div>
  );
}

/** Where the roll moment draws the moving pawn (BoardView `motion`), or null when pawns stand on their squares. */
export function usePawnMotion(actor: RollMomentRef): PawnMotion | null {
  const team = useSelector(actor, rm.selectMovingTeam);
  const square = useSelector(actor, rm.selectMovingSquare);
  const progress = useSelector(actor, rm.selectFollowProgress);
  const move = useSelector(actor, rm.selectMove);
  if (team === null || !move) return null;
  if (progress !== null && move.via) return { team_id: team, via: move.via, from: move.landing, to: move.to, progress };
  if (square !== null) return { team_id: team, square };
  return null;
}

/** The id above which Live Game Log entries wait (the moment's log head) while the moment plays, else null. */
export function useLogHold(actor: RollMomentRef): number | null {
  const holds = useSelector(actor, rm.selectHoldsLog);
  const head = useSelector(actor, rm.selectLogHead);
  return holds ? head : null;
}

/**
 * Keeps what the roll moment shows (rollMoment selectFollowSquares: the whole move while the die
 * tumbles, then the pawn's square, the final square) in view inside `board`, clear of the sticky
 * bars `covers`, with `keep` (the roll strip inside `board`, so the die shows with the pawn) when it
 * fits (keepSquaresInView); smooth scrolling unless the viewer prefers reduced motion.
 */
export function useFollowPawn(actor: RollMomentRef, board: RefObject<Element | null>, covers: string, keep: string): void {
  const squares = useSelector(actor, rm.selectFollowSquares, shallowEqual);
  // A new roll starts where the last one ended: the move is in the dependencies so the board
  // scrolls back to the pawn even when the squares are the same and the page was scrolled away.
  const move = useSelector(actor, rm.selectMove);
  useEffect(() => {
    if (squares.length > 0 && board.current) keepSquaresInView(board.current, squares, { smooth: !prefersReducedMotion(), covers, keep });
  }, [squares, move, board, covers, keep]);
}
