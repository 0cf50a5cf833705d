import type { SnapshotFrom } from 'xstate';
import { ROLL_MOMENT_TIMING, type rollMomentMachine } from './rollMoment.machine';

type S = SnapshotFrom<typeof rollMomentMachine>;

/** Named selectors of the rollMoment chart (docs/architecture.md §3: smallest slices). */
export const selectMove = (s: S) => s.context.move;
export const selectIsTumbling = (s: S) => s.matches('tumbling');
/** The log entries of the move wait while the die tumbles and the pawn moves. */
export const selectHoldsLog = (s: S) => s.hasTag('moving');
export const selectLogHead = (s: S) => s.context.logHead;
/**
 * The face the die shows: null before any roll; while tumbling a face that changes every tick
 * (never the final one until it lands); then the server's value.
 */
export const selectDieFace = (s: S): number | null => {
  const move = s.context.move;
  if (!move) return null;
  if (!s.matches('tumbling')) return move.die;
  return ((move.die + (s.context.step % 5)) % 6) + 1;
};
/** The team whose pawn the moment moves, or null when the pawn stands on its real square. */
export const selectMovingTeam = (s: S) => (s.hasTag('moving') && s.context.move ? s.context.move.team_id : null);
/** The square the moving pawn is drawn on while the die tumbles or it walks (null otherwise). */
export const selectMovingSquare = (s: S): number | null => {
  const move = s.context.move;
  if (!move) return null;
  if (s.matches('tumbling')) return move.from;
  if (s.matches('walking')) return move.path[Math.min(s.context.step, move.path.length - 1)] ?? move.landing;
  return null;
};
/**
 * The squares the board keeps in view for the moment: the whole move (start, path, end) while the
 * die tumbles, so one scroll before the walk shows it all when it fits; the pawn's square while it
 * walks; the ends of the snake or ladder while it follows one; the final square once it arrived.
 * Empty when the chart rests.
 */
export const selectFollowSquares = (s: S): number[] => {
  const move = s.context.move;
  if (!move || s.matches('idle')) return [];
  if (s.matches('tumbling')) return [move.from, ...move.path, move.to];
  if (s.matches('walking')) return [move.path[Math.min(s.context.step, move.path.length - 1)] ?? move.landing];
  if (s.matches('following')) return [move.landing, move.to];
  return [move.to];
};
/** How far along the snake or ladder the pawn is, 0..1, while it follows one (null otherwise). */
export const selectFollowProgress = (s: S): number | null =>
  s.matches('following') ? Math.min(1, s.context.step / ROLL_MOMENT_TIMING.followFrames) : null;
