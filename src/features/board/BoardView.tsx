import { memo, startTransition, useEffect, useId, useMemo, useRef, useState, type CSSProperties, type FocusEvent, type JSX, type KeyboardEvent, type MouseEvent } from 'react';
import { boardSide, cellToSquare, squareToCell } from '../../../contract/game/board';
import { isSpecialDescription, type Connection } from '../../../contract/game/connection';
import { TIER_LABELS, type Tier } from '../../../contract/game/tiers';
import {
  BOARD_INFO_DEFAULT,
  pawnColor,
  squareKindOf,
  type SquareKind,
  CELL,
  boardExtent,
  cellCenter,
  cellOrigin,
  headAngle,
  isDrawable,
  ladderLines,
  MARK_BASELINE,
  NUMBER_TOP,
  pawnOffsets,
  pawnRadius,
  snakePath,
  snakePointAt,
  squareInfoText,
  wrapLabel,
  type Point,
} from '../../../contract/game/boardGeometry';
import { progressLabel, progressShare, type TeamProgress } from '../../../contract/progress';
import { MAX_FRAMES, ProgressMark } from './ProgressMark';

/** One square as the board needs it (contract BoardSquare without ids). */
interface BoardViewSquare {
  square_index: number;
  task_description: string;
  task_difficulty: Tier | null;
}

/** One team's pawn: name, colour and square, and its team total on that square. */
export interface BoardViewTeam {
  team_id: number;
  team_name: string;
  team_color: string;
  current_position: number;
  /** The team total of the task on its square (docs/server.md §17), drawn around that square; null or absent: none. */
  progress?: TeamProgress | null;
}

/**
 * A pawn the roll moment moves: drawn on `square` while it walks, or along the drawn
 * snake or ladder from square `from` to `to`, `progress` 0..1 of the way, while it follows one.
 */
export type PawnMotion =
  | { team_id: number; square: number }
  | { team_id: number; via: 'snake' | 'ladder'; from: number; to: number; progress: number };

/** Props of BoardView: the board, its connections and pawns, and how much to show. */
export interface BoardViewProps {
  /** N, the number of squares (25 ... 225). */
  boardSize: number;
  /** Squares 1..N (missing ones are drawn blank). */
  squares: readonly BoardViewSquare[];
  /** Snakes and ladders; pairs that do not fit the board are left out. */
  connections: readonly Connection[];
  /** Team pawns, drawn in team colours. */
  teams?: readonly BoardViewTeam[];
  /** Numbers only, no task text (small previews). */
  compact?: boolean;
  /** Accessible name of the board. */
  label?: string;
  /** The pawn the roll moment moves, drawn where the moment has it instead of on its square. */
  motion?: PawnMotion | null;
  /** Called once every square, snake, ladder and pawn is drawn (after the last drawing step). */
  onDrawn?: () => void;
  /**
   * Drawn whole in the first render and for the eye only, as the server's first drawing of a
   * spectator page renders it (server/http/firstDrawing.ts, react-dom/server; docs/client.md §9
   * "First drawing"): every row at once, no task text and no squares' names or titles (the page's
   * HTML stays small), no square focusable, the zoom buttons disabled, pawns placed by a transform
   * attribute (the page's CSP allows no style attribute), none of the data attributes the app's
   * board is found by, and the info text named `first-drawing` for element timing (src/boot.ts
   * starts the app once it is painted).
   */
  still?: boolean;
}

/** Board zoom: 100% (fits the width) up to 300% in steps of 50%; the zoomed board scrolls. */
const ZOOM_MIN = 1;
const ZOOM_MAX = 3;
const ZOOM_STEP = 0.5;
/** About how many squares one step of the drawing adds (whole rows: 2 rows of a 225-square board). */
const SQUARES_PER_STEP = 30;



/**
 * THE board (docs/client.md §9), drawn as SVG and reused by the game play
 * screen and the Event Game view's preview: a grid of side ceil(sqrt(N)) numbered from the bottom
 * row upward in alternating direction; each square shows its number and task text (not on Snake or
 * Ladder squares; long text is cut, the full text is in the square's <title>), tinted by tier,
 * Start and Finish marked; snakes as green wavy shapes with a head, ladders as brown ladders with 7
 * rungs; team pawns in team colours, side by side in the lower band of their cell (sized to the
 * cell, never over a number or START/FINISH), gliding when a position changes; a team standing on
 * a team-total square has a thin frame around that square filled to its share of the total, in
 * its colour, named like its bar in Team Positions (ProgressMark; not on a pawn the roll moment
 * moves, nor in the still drawing). Layers, bottom to top: the square buttons, the snakes and
 * ladders, the team-total frames (only while a team has one), the labels (numbers, START/FINISH,
 * task text, each with a halo), the pawns, so no connection hides a number. Squares are buttons (click,
 * Enter or Space; arrow keys move between them) that toggle the info box: the task,
 * 'Snake/Ladder starts here, leading to square N' or 'Square N.'.
 * Scales with its container (viewBox), filling the width on a phone, where the task text gives way
 * to larger numbers; Zoom in / Zoom out buttons (100% to 300%) enlarge it inside a scrolling
 * frame (besides the browser's own pinch zoom).
 */
export const BoardView = memo(function BoardView({ boardSize, squares, connections, teams = [], compact = false, label = 'Game board', motion = null, onDrawn, still = false }: BoardViewProps) {
  const uid = useId();
  // The first render draws the frame only (zoom buttons, the empty board, the info box); the
  // squares and their labels follow a few rows at a time from the bottom, each step a transition
  // render of its own (React splits it into short slices, and the browser lays out and paints
  // each step's new rows apart), and the snakes, ladders and pawns come with the last rows, so a
  // 225-square board never blocks the page in one long task. Once drawn the DOM is
  // the same as in one step.
  const side = boardSide(boardSize);
  const rowsPerStep = Math.max(1, Math.round(SQUARES_PER_STEP / side));
  const [drawnRows, setDrawnRows] = useState(still ? side : 0);
  useEffect(() => {
    if (drawnRows < side) startTransition(() => setDrawnRows((rows) => Math.min(side, rows + rowsPerStep)));
  }, [drawnRows, side, rowsPerStep]);
  const drawnUpTo = Math.min(boardSize, drawnRows * side);
  const full = drawnUpTo >= boardSize;
  useEffect(() => {
    if (full) onDrawn?.();
  }, [full, onDrawn]);
  const svgRef = useRef<SVGSVGElement>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [focusable, setFocusable] = useState(1);
  const [zoom, setZoom] = useState(1);
  const extent = boardExtent(boardSize);
  const drawn = useMemo(() => connections.filter((c) => isDrawable(c, boardSize)), [connections, boardSize]);
  const starts = useMemo(() => new Map(drawn.map((c) => [c.start, c])), [drawn]);
  const bySquare = useMemo(() => new Map(squares.map((s) => [s.square_index, s])), [squares]);
  const selectedSquare = selected !== null && selected <= boardSize ? selected : null;
  const info =
    selectedSquare === null ? BOARD_INFO_DEFAULT : squareInfoText(selectedSquare, drawn, bySquare.get(selectedSquare)?.task_description);

  const toggle = (square: number) => {
    setSelected((current) => (current === square ? null : square));
    setFocusable(square);
  };
  const focusSquare = (square: number) => {
    setFocusable(square);
    svgRef.current?.querySelector<SVGGElement>(`[data-square="${square}"]`)?.focus();
  };
  // The squares' handlers sit once on their group (the events bubble from the square under them),
  // so a square's element holds no function of its own and an unchanged square is not drawn again.
  const onCellsClick = (e: MouseEvent<SVGGElement>) => {
    const square = squareOf(e.target);
    if (square !== null) toggle(square);
  };
  const onCellsFocus = (e: FocusEvent<SVGGElement>) => {
    const square = squareOf(e.target);
    if (square !== null) setFocusable(square);
  };
  const onCellsKeyDown = (e: KeyboardEvent<SVGGElement>) => {
    const square = squareOf(e.target);
    if (square === null) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      toggle(square);
      return;
    }
    const { row, col } = squareToCell(square, boardSize);
    const moves: Record<string, [number, number]> = { ArrowRight: [row, col + 1], ArrowLeft: [row, col - 1], ArrowUp: [row + 1, col], ArrowDown: [row - 1, col] };
    let next: number | null = null;
    if (e.key in moves) next = cellToSquare(moves[e.key][0], moves[e.key][1], boardSize);
    else if (e.key === 'Home') next = 1;
    else if (e.key === 'End') next = boardSize;
    else return;
    e.preventDefault();
    if (next !== null) focusSquare(next);
  };

  // The squares and their labels are built again only when they change (a drawing step, a new
  // board, the selection or the focusable square), not for a pawn's step.
  const { cells, labels } = useMemo(() => {
    const cells: JSX.Element[] = [];
    const labels: JSX.Element[] = [];
    for (let square = 1; square <= drawnUpTo; square += 1) {
      const s = bySquare.get(square);
      const kind = squareKindOf(square, boardSize, s?.task_description, starts);
      const o = cellOrigin(square, boardSize);
      const tier = kind === 'task' ? s?.task_difficulty ?? null : null;
      const description = s?.task_description ?? '';
      // A task square's text: its task, 'Unassigned' for a tier without one; the rest show none.
      const text = kind !== 'task' || compact || still ? '' : description && !isSpecialDescription(description) ? description : tier ? 'Unassigned' : '';
      const infoText = squareInfoText(square, drawn, description);
      const className = ['board__cell', `board__cell--${kind}`, tier ? `board__cell--${tier.toLowerCase()}` : '', selectedSquare === square ? 'board__cell--selected' : '']
        .filter(Boolean)
        .join(' ');
      cells.push(
        <SquareCell
          key={square}
          square={square}
          className={className}
          focusable={!still && square === focusable}
          pressed={selectedSquare === square}
          label={still ? '' : `Square ${square}${tier ? ` (${TIER_LABELS[tier]})` : ''}: ${infoText}`}
          title={still ? '' : `Square ${square}${tier ? ` · ${TIER_LABELS[tier]}` : ''}: ${infoText}`}
          x={o.x}
          y={o.y}
        />,
      );
      labels.push(
        <SquareLabel key={square} square={square} kind={kind} x={o.x} y={o.y} text={text} unassigned={!description} />,
      );
    }
    // The groups themselves are the same elements from one pawn step to the next, so React skips
    // them without visiting each square (their handlers only read boardSize and state setters).
    return {
      cells: (
        <g className="board__cells" onClick={onCellsClick} onKeyDown={onCellsKeyDown} onFocus={onCellsFocus}>
          {cells}
        </g>
      ),
      labels: (
        <g className="board__labels" aria-hidden="true">
          {labels}
        </g>
      ),
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the handlers read boardSize and state setters only
  }, [drawnUpTo, boardSize, bySquare, starts, drawn, selectedSquare, focusable, compact, still]);
  const links = useMemo(
    () => (
      <g className="board__links" aria-hidden="true">
        {full && drawn.filter((c) => c.type === 'ladder').map((c) => (
          <Ladder key={`l${c.start}-${c.end}`} from={cellCenter(c.start, boardSize)} to={cellCenter(c.end, boardSize)} />
        ))}
        {full && drawn.filter((c) => c.type === 'snake').map((c) => (
          <Snake key={`s${c.start}-${c.end}`} id={still ? '' : `${uid}-s${c.start}`} head={cellCenter(c.start, boardSize)} tail={cellCenter(c.end, boardSize)} />
        ))}
      </g>
    ),
    [full, drawn, boardSize, uid, still],
  );

  const teamsBySquare = new Map<number, BoardViewTeam[]>();
  const pawns: JSX.Element[] = [];
  const pawnBody = (t: BoardViewTeam, r: number) => (
    <>
      <circle r={r} strokeWidth={Math.max(1.5, r * 0.2)} fill={pawnColor(t.team_color)} />
      <circle r={r * 0.45} className="board__pawn-shine" cx={-r * 0.25} cy={-r * 0.3} />
    </>
  );
  for (const t of (full ? teams : []).slice().sort((a, b) => a.team_id - b.team_id)) {
    const moving = motion !== null && motion.team_id === t.team_id ? motion : null;
    if (moving && 'via' in moving && isDrawable({ type: moving.via, start: moving.from, end: moving.to }, boardSize)) {
      const a = cellCenter(moving.from, boardSize);
      const b = cellCenter(moving.to, boardSize);
      const p = moving.via === 'snake' ? snakePointAt(a, b, moving.progress) : { x: a.x + (b.x - a.x) * moving.progress, y: a.y + (b.y - a.y) * moving.progress };
      pawns.push(
        <g key={t.team_id} className="board__pawn board__pawn--following" style={{ transform: `translate(${p.x}px, ${p.y}px)` }} data-team={t.team_id} data-moving="following">
          <title>{`${t.team_name}: on the ${moving.via}`}</title>
          {pawnBody(t, pawnRadius(1))}
        </g>,
      );
      continue;
    }
    const square = moving && 'square' in moving ? moving.square : t.current_position;
    const at = Math.min(Math.max(1, Math.round(square) || 1), boardSize);
    teamsBySquare.set(at, [...(teamsBySquare.get(at) ?? []), t]);
  }
  // The team totals: a frame per team on its square, nested when teams share it; a handful of
  // elements beside the pawns, each left alone by React while its total stays the same.
  const marks: JSX.Element[] = [];
  if (!still) {
    for (const [square, here] of teamsBySquare) {
      const o = cellOrigin(square, boardSize);
      const totals = here.filter((t) => t.progress && (motion === null || motion.team_id !== t.team_id));
      totals.slice(0, MAX_FRAMES).forEach((t, ring) => {
        marks.push(
          <ProgressMark key={t.team_id} x={o.x} y={o.y} ring={ring} share={progressShare(t.progress!)} color={pawnColor(t.team_color)} label={progressLabel(t.team_name, t.progress!)} teamId={t.team_id} square={square} />,
        );
      });
    }
  }
  for (const [square, here] of teamsBySquare) {
    const c = cellCenter(square, boardSize);
    const offsets = pawnOffsets(here.length);
    const r = pawnRadius(here.length);
    here.forEach((t, i) => {
      const x = c.x + offsets[i].x;
      const y = c.y + offsets[i].y;
      const place = still ? { transform: `translate(${x} ${y})` } : { style: { transform: `translate(${x}px, ${y}px)` } as CSSProperties, 'data-team': t.team_id, 'data-position': square };
      const walking = motion !== null && motion.team_id === t.team_id;
      pawns.push(
        <g key={t.team_id} className={walking ? 'board__pawn board__pawn--walking' : 'board__pawn'} {...place} data-moving={walking ? 'walking' : undefined}>
          <title>{`${t.team_name}: square ${square}`}</title>
          {pawnBody(t, r)}
        </g>,
      );
    });
  }

  return (
    <figure className={compact ? 'board board--compact' : 'board'}>
      {!compact && (
        <div className="board__zoom" role="group" aria-label="Board zoom">
          <button type="button" className="btn btn--small" onClick={() => setZoom((z) => Math.max(ZOOM_MIN, z - ZOOM_STEP))} disabled={still || zoom <= ZOOM_MIN}>
            Zoom out
          </button>
          <span className="board__zoom-level" data-testid={still ? undefined : 'board-zoom'}>{Math.round(zoom * 100)}%</span>
          <button type="button" className="btn btn--small" onClick={() => setZoom((z) => Math.min(ZOOM_MAX, z + ZOOM_STEP))} disabled={still || zoom >= ZOOM_MAX}>
            Zoom in
          </button>
        </div>
      )}
      <div className={zoom > 1 ? 'board__scroll board__scroll--zoomed' : 'board__scroll'} tabIndex={zoom > 1 ? 0 : undefined} role={zoom > 1 ? 'region' : undefined} aria-label={zoom > 1 ? 'Zoomed board (scrolls)' : undefined}>
        <svg
          ref={svgRef}
          className="board__svg"
          style={zoom > 1 ? { width: `${zoom * 100}%`, maxWidth: 'none' } : undefined}
          viewBox={`0 0 ${extent} ${extent}`}
          role="group"
          aria-label={label}
        >
          {cells}
          {links}
          {marks.length > 0 && (
            <g className="board__progress" data-testid="board-progress-layer">
              {marks}
            </g>
          )}
          {labels}
          <g className="board__pawns" aria-hidden="true">
            {pawns}
          </g>
        </svg>
      </div>
      <figcaption className="board-info" aria-live="polite">
        {selectedSquare !== null && <span className="board-info__square">Square {selectedSquare}</span>}
        <span className="board-info__text" {...(still ? { elementtiming: 'first-drawing' } : {})}>{info}</span>
      </figcaption>
    </figure>
  );
});

/** The square number of the board square an event came from (its `data-square` element), or null. */
function squareOf(target: EventTarget): number | null {
  const cell = target instanceof Element ? target.closest('[data-square]') : null;
  return cell ? Number(cell.getAttribute('data-square')) : null;
}

/**
 * One square's button (the bottom layer): its tier tint, selection, accessible name and <title>;
 * a plain group with neither when `label` is '' (BoardView's still drawing).
 * Primitive props only, so BoardView's next drawing step or a new game object leaves an unchanged
 * square alone (memo). Clicks, keys and focus are handled on the squares' group.
 */
const SquareCell = memo(function SquareCell(props: { square: number; className: string; focusable: boolean; pressed: boolean; label: string; title: string; x: number; y: number }) {
  return (
    <g className={props.className} {...(props.label ? { 'data-square': props.square, role: 'button', tabIndex: props.focusable ? 0 : -1, 'aria-pressed': props.pressed, 'aria-label': props.label } : {})}>
      {props.title && <title>{props.title}</title>}
      <rect className="board__square" x={props.x + 2} y={props.y + 2} width={CELL - 4} height={CELL - 4} rx={8} />
    </g>
  );
});

/**
 * One square's labels (the layer above the snakes and ladders): its number, START/FINISH, and
 * `text` (a task, or 'Unassigned' when `unassigned`) cut to 3 lines of 13 characters; '' for none.
 */
const SquareLabel = memo(function SquareLabel({ square, kind, x, y, text, unassigned }: { square: number; kind: SquareKind; x: number; y: number; text: string; unassigned: boolean }) {
  const lines = text ? wrapLabel(text, 13, 3) : [];
  return (
    <g className={`board__label board__label--${kind}`} data-label={square}>
      <text className="board__num" x={x + 8} y={y + NUMBER_TOP} dominantBaseline="hanging">
        {square}
      </text>
      {(kind === 'start' || kind === 'finish') && (
        <text className="board__mark" x={x + CELL / 2} y={y + MARK_BASELINE} textAnchor="middle">
          {kind === 'start' ? 'START' : 'FINISH'}
        </text>
      )}
      {lines.length > 0 && (
        <text className={unassigned ? 'board__task board__task--unassigned' : 'board__task'} x={x + CELL / 2} y={y + 40} textAnchor="middle">
          {lines.map((line, i) => (
            <tspan key={i} x={x + CELL / 2} dy={i === 0 ? 0 : 15}>
              {line}
            </tspan>
          ))}
        </text>
      )}
    </g>
  );
});

/** A snake from its head (the square where it starts) to its tail: a green sinuous body, head and eyes. */
function Snake({ head, tail, id }: { head: Point; tail: Point; id: string }) {
  const d = snakePath(head, tail);
  const angle = headAngle(head, tail);
  return (
    <g className="board__snake" data-id={id || undefined}>
      <path className="board__snake-outline" d={d} />
      <path className="board__snake-body" d={d} />
      <path className="board__snake-stripe" d={d} />
      <g transform={`translate(${head.x} ${head.y}) rotate(${angle})`}>
        <ellipse className="board__snake-head" rx={CELL * 0.17} ry={CELL * 0.12} />
        <circle className="board__snake-eye" cx={CELL * 0.06} cy={-CELL * 0.05} r={CELL * 0.03} />
        <circle className="board__snake-eye" cx={CELL * 0.06} cy={CELL * 0.05} r={CELL * 0.03} />
      </g>
    </g>
  );
}

/** A brown ladder from `from` (the square where it starts) to `to`, with its rungs. */
function Ladder({ from, to }: { from: Point; to: Point }) {
  const { rails, rungs } = ladderLines(from, to);
  return (
    <g className="board__ladder">
      {rails.map(([a, b], i) => (
        <line key={`r${i}`} className="board__ladder-rail" x1={a.x} y1={a.y} x2={b.x} y2={b.y} />
      ))}
      {rungs.map(([a, b], i) => (
        <line key={`g${i}`} className="board__ladder-rung" x1={a.x} y1={a.y} x2={b.x} y2={b.y} />
      ))}
    </g>
  );
}
