// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Connection } from '../../contract/game/generate';
import { BoardView, type BoardViewTeam } from '../../src/features/board/BoardView';
import { CELL, MARK_BASELINE, PAWN_BAND_TOP, cellOrigin, pawnColor, pawnOffsets, pawnRadius } from '../../contract/game/boardGeometry';
import type { TeamProgress } from '../../contract/progress';

/**
 * The board drawing (square numbers and START/FINISH always legible): the layers in
 * paint order (SVG paints later siblings on top), every label above the snakes and ladders, and
 * pawns sized to their cell, side by side in its lower band, below the number and the mark; a
 * team's total as a frame around its square, named as its bar in Team Positions (docs/server.md §17).
 */

const N = 100;
const squares = Array.from({ length: N }, (_, i) => ({
  square_index: i + 1,
  task_description: i === 0 ? 'Start' : i === N - 1 ? 'Finish' : `Task ${i + 1}`,
  task_difficulty: i === 0 || i === N - 1 ? null : ('EASY' as const),
}));
const connections: Connection[] = [
  { type: 'snake', start: 83, end: 57 },
  { type: 'ladder', start: 6, end: 27 },
];
const team = (id: number, position: number): BoardViewTeam => ({ team_id: id, team_name: `Team ${id}`, team_color: '#aa3311', current_position: position });

/** The pawn's centre from its `translate(xpx, ypx)` style and its radius. */
function pawnCircle(pawn: Element): { x: number; y: number; r: number } {
  const match = /translate\(([-\d.]+)px, ([-\d.]+)px\)/.exec((pawn as SVGGElement).style.transform);
  if (!match) throw new Error(`pawn without a translate: ${(pawn as SVGGElement).style.transform}`);
  return { x: Number(match[1]), y: Number(match[2]), r: Number(pawn.querySelector('circle')!.getAttribute('r')) };
}

afterEach(cleanup);

describe('BoardView layers', () => {
  it('paints squares, then snakes and ladders, then the labels, then the pawns', () => {
    const { container } = render(<BoardView boardSize={N} squares={squares} connections={connections} teams={[team(1, 1)]} />);
    const svg = container.querySelector('svg')!;
    expect([...svg.children].map((g) => g.getAttribute('class'))).toEqual(['board__cells', 'board__links', 'board__labels', 'board__pawns']);
    expect(container.querySelectorAll('[data-square]')).toHaveLength(N);
    // Every number, and START/FINISH, is in the label layer; none is left under the connections.
    const labels = svg.querySelector('.board__labels')!;
    const numbers = [...labels.querySelectorAll('.board__num')].map((t) => Number(t.textContent));
    expect(numbers).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    expect([...labels.querySelectorAll('.board__mark')].map((t) => t.textContent)).toEqual(['START', 'FINISH']);
    expect(svg.querySelector('.board__cells text')).toBeNull();
    expect(svg.querySelectorAll('.board__links .board__snake')).toHaveLength(1);
    expect(svg.querySelectorAll('.board__links .board__ladder')).toHaveLength(1);
    // The squares stay the buttons, with their full text as the accessible name.
    expect(svg.querySelector('[data-square="57"]')!.getAttribute('aria-label')).toBe('Square 57 (Easy): Task 57');
  });

  it('sizes pawns to the cell and sets them side by side below the number and the mark', () => {
    const teams = [team(1, 1), team(2, 1), team(3, 1), team(4, 100), ...Array.from({ length: 7 }, (_, i) => team(10 + i, 42))];
    const { container } = render(<BoardView boardSize={N} squares={squares} connections={connections} teams={teams} />);
    const bySquare = new Map<number, Element[]>();
    for (const pawn of container.querySelectorAll('.board__pawn')) {
      const square = Number(pawn.getAttribute('data-position'));
      bySquare.set(square, [...(bySquare.get(square) ?? []), pawn]);
    }
    expect([...bySquare.keys()].sort((a, b) => a - b)).toEqual([1, 42, 100]);
    for (const [square, pawns] of bySquare) {
      const o = cellOrigin(square, N);
      const circles = pawns.map(pawnCircle);
      for (const c of circles) {
        expect(c.r).toBe(pawnRadius(pawns.length));
        // Inside its own cell, below the number and the START/FINISH mark.
        expect(c.y - c.r).toBeGreaterThanOrEqual(o.y + PAWN_BAND_TOP);
        expect(c.y - c.r).toBeGreaterThan(o.y + MARK_BASELINE);
        expect(c.y + c.r).toBeLessThanOrEqual(o.y + CELL);
        expect(c.x - c.r).toBeGreaterThanOrEqual(o.x);
        expect(c.x + c.r).toBeLessThanOrEqual(o.x + CELL);
      }
      for (let i = 0; i < circles.length; i += 1) {
        for (let j = i + 1; j < circles.length; j += 1) {
          expect(Math.hypot(circles[i].x - circles[j].x, circles[i].y - circles[j].y)).toBeGreaterThanOrEqual(circles[i].r + circles[j].r);
        }
      }
    }
    // A lone pawn is about a third of the cell across, not a dot.
    expect(2 * pawnCircle(bySquare.get(100)![0]).r).toBeGreaterThanOrEqual(CELL * 0.3);
  });
});

describe('pawn layout', () => {
  it('keeps up to 16 pawns of one square apart, in the pawn band, and as large as fits', () => {
    let previous = Infinity;
    for (let count = 1; count <= 16; count += 1) {
      const offsets = pawnOffsets(count);
      const r = pawnRadius(count);
      expect(offsets).toHaveLength(count);
      expect(r).toBeLessThanOrEqual(previous);
      expect(r).toBeGreaterThanOrEqual(CELL * 0.05);
      previous = r;
      for (const o of offsets) {
        expect(CELL / 2 + o.y - r).toBeGreaterThanOrEqual(PAWN_BAND_TOP);
        expect(CELL / 2 + o.y + r).toBeLessThanOrEqual(CELL);
        expect(Math.abs(o.x) + r).toBeLessThanOrEqual(CELL / 2);
      }
      for (let i = 0; i < count; i += 1) {
        for (let j = i + 1; j < count; j += 1) {
          expect(Math.hypot(offsets[i].x - offsets[j].x, offsets[i].y - offsets[j].y)).toBeGreaterThanOrEqual(2 * r);
        }
      }
    }
  });

  it("draws a team's total as a frame around its square, named like its bar, updated with the game, off for a moving pawn", () => {
    const total = (have: number, need: number, unit: string): TeamProgress => ({ have, need, unit, by: [], errors: [], updated_at: '2031-06-01T18:00:00.000Z' });
    const teams = [{ ...team(1, 42), progress: total(300, 500, 'items') }, { ...team(2, 42), team_color: '#2244cc', progress: total(0, 3, 'kills') }, team(3, 7)];
    const { container, getByRole, rerender } = render(<BoardView boardSize={N} squares={squares} connections={connections} teams={teams} />);
    const svg = container.querySelector('svg')!;
    // The frames sit above the snakes and ladders and below the numbers and pawns.
    expect([...svg.children].map((g) => g.getAttribute('class'))).toEqual(['board__cells', 'board__links', 'board__progress', 'board__labels', 'board__pawns']);
    const marks = () => [...container.querySelectorAll('[data-testid="board-progress"]')];
    expect(marks().map((m) => [m.getAttribute('data-progress-square'), m.getAttribute('aria-label'), m.getAttribute('data-share')])).toEqual([
      ['42', 'Team 1: team total 300 / 500 items', '60'],
      ['42', 'Team 2: team total 0 / 3 kills', '0'],
    ]);
    const first = getByRole('img', { name: 'Team 1: team total 300 / 500 items' });
    const fill = first.querySelector('.board__progress-fill')!;
    expect(fill.getAttribute('stroke')).toBe(pawnColor('#aa3311'));
    expect(fill.getAttribute('stroke-dasharray')).toBe('60 100');
    expect(fill.getAttribute('pathLength')).toBe('100');
    // Both frames lie inside square 42's cell, the second inside the first.
    const o = cellOrigin(42, N);
    const extent = (m: Element) => {
      const d = m.querySelector('path')!.getAttribute('d')!;
      const xs = [...d.matchAll(/H(-?[\d.]+)/g)].map((x) => Number(x[1]));
      const ys = [...d.matchAll(/V(-?[\d.]+)/g)].map((y) => Number(y[1]));
      return { left: Math.min(...xs) - 8, right: Math.max(...xs) + 8, top: Math.min(...ys) - 8, bottom: Math.max(...ys) + 8 };
    };
    const [outer, inner] = marks().map(extent);
    expect(outer.left).toBeGreaterThan(o.x);
    expect(outer.right).toBeLessThan(o.x + CELL);
    expect(outer.top).toBeGreaterThan(o.y);
    expect(outer.bottom).toBeLessThan(o.y + CELL);
    expect(inner.left).toBeGreaterThan(outer.left);
    expect(inner.bottom).toBeLessThan(outer.bottom);

    // The next game state: the total grows past the need (a full frame), the square's pawns stay.
    const grown = [{ ...teams[0], progress: total(520, 500, 'items') }, teams[1], teams[2]];
    rerender(<BoardView boardSize={N} squares={squares} connections={connections} teams={grown} />);
    expect(getByRole('img', { name: 'Team 1: team total 520 / 500 items' }).querySelector('.board__progress-fill')!.getAttribute('stroke-dasharray')).toBe('100 100');
    // While the roll moment walks team 1 away, its frame is off and team 2's takes the outer ring.
    rerender(<BoardView boardSize={N} squares={squares} connections={connections} teams={grown} motion={{ team_id: 1, square: 44 }} />);
    expect(marks().map((m) => m.getAttribute('aria-label'))).toEqual(['Team 2: team total 0 / 3 kills']);
    expect(extent(marks()[0])).toEqual(outer);
    // No total on the board: no frame layer at all.
    rerender(<BoardView boardSize={N} squares={squares} connections={connections} teams={[team(1, 42), team(3, 7)]} />);
    expect(container.querySelector('.board__progress')).toBeNull();
  });

  it('leaves the frames out of the still drawing', () => {
    const progress: TeamProgress = { have: 1, need: 2, unit: 'posts', by: [], errors: [], updated_at: '2031-06-01T18:00:00.000Z' };
    const { container } = render(<BoardView boardSize={N} squares={squares} connections={connections} teams={[{ ...team(1, 42), progress }]} still />);
    expect(container.querySelectorAll('.board__pawn')).toHaveLength(1);
    expect(container.querySelector('.board__progress')).toBeNull();
  });
});
