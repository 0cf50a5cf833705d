import { JSDOM } from 'jsdom';
import { performance } from 'node:perf_hooks';

/**
 * Client-side cost of one step of a walking pawn (the roll moment, whose weight every viewer pays):
 * the game screen re-renders THE board with the pawn one square further on every step, for every
 * viewer, up to 6 steps a roll plus the frames along a snake or ladder. Measured in jsdom (React
 * 19's production build, react-dom's flushSync, so each step is one whole render and commit), a 225-square board with
 * task text on every square and 4 pawns, 2 of them standing on team-total squares (their frames
 * drawn around their squares; BENCH_TOTALS=0 leaves the totals out), against a bare baseline in
 * the same run: an SVG holding only the 4 pawns (the least a step has to redraw). BENCH_STEPS steps
 * per sample (default 30), BENCH_REPEAT samples each (default 9), alternating; prints medians (ms
 * per step) and the ratio.
 *
 * Run: `npm run bench:board` (React's production build).
 */
// React's production build, as the browser gets it (the development build's checks would dominate).
process.env.NODE_ENV = 'production';
const dom = new JSDOM('<!doctype html><html><body></body></html>', { pretendToBeVisual: true });
const g = globalThis as Record<string, unknown>;
for (const key of ['window', 'document', 'navigator', 'Element', 'HTMLElement', 'SVGElement', 'Node', 'MutationObserver', 'requestAnimationFrame', 'cancelAnimationFrame']) {
  g[key] = (dom.window as unknown as Record<string, unknown>)[key];
}

const STEPS = Number(process.env.BENCH_STEPS ?? 30);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 9);
const N = 225;
const TOTALS = process.env.BENCH_TOTALS !== '0';

async function main(): Promise<void> {
  // Imported after the DOM globals exist (react-dom reads them on load).
  const { createElement: h } = await import('react');
  const { flushSync } = await import('react-dom');
  const { createRoot } = await import('react-dom/client');
  const { BoardView } = await import('../src/features/board/BoardView');
  type Motion = { team_id: number; square: number } | null;

  const squares = Array.from({ length: N }, (_, i) => ({
    square_index: i + 1,
    task_description: i === 0 ? 'Start' : i === N - 1 ? 'Finish' : `Kill 50 green dragons, task ${i + 1}`,
    task_difficulty: i === 0 || i === N - 1 ? null : ('EASY' as const),
  }));
  // Teams 2 and 4 stand on team-total squares (docs/server.md §17): a frame each, unchanged from step to step.
  const progress = (have: number) => ({ have, need: 500, unit: 'items', by: [{ ign: 'Ali Cat', amount: have }], errors: [], updated_at: '2031-06-01T18:00:00.000Z' });
  const teams = [1, 2, 3, 4].map((id) => ({ team_id: id, team_name: `Team ${id}`, team_color: '#aa3311', current_position: id * 10, progress: TOTALS && id % 2 === 0 ? progress(id * 100) : null }));
  const connections = [{ type: 'snake' as const, start: 200, end: 20 }, { type: 'ladder' as const, start: 30, end: 95 }];
  // The game's squares, connections and teams are the same objects from one step to the next, as in the game screen.
  const board = (motion: Motion) => h(BoardView, { boardSize: N, squares, connections, teams, motion });
  /** The bare baseline: the same 4 pawns in an SVG, nothing else. */
  const bare = (motion: Motion) =>
    h('svg', { viewBox: '0 0 1500 1500' }, teams.map((t) => h('g', { key: t.team_id, style: { transform: `translate(${(motion?.team_id === t.team_id ? motion.square : t.current_position) * 6}px, 10px)` } }, h('circle', { r: 20, fill: t.team_color }))));

  async function sample(view: (motion: Motion) => ReturnType<typeof h>): Promise<number> {
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    // The first render, then the board's drawing steps (transitions on React's scheduler) until the
    // pawns are drawn; the bare view draws them at once.
    flushSync(() => root.render(view(null)));
    const drawnBy = Date.now() + 5_000;
    while (!host.querySelector(view === board ? '.board__pawn' : 'circle')) {
      if (Date.now() > drawnBy) throw new Error('the board was not drawn within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const t0 = performance.now();
    for (let step = 1; step <= STEPS; step += 1) flushSync(() => root.render(view({ team_id: 1, square: 10 + step })));
    const perStep = (performance.now() - t0) / STEPS;
    root.unmount();
    host.remove();
    return perStep;
  }

  const real: number[] = [];
  const baseline: number[] = [];
  await sample(board); // warm-up (module and JIT)
  await sample(bare);
  for (let i = 0; i < REPEAT; i += 1) {
    real.push(await sample(board));
    baseline.push(await sample(bare));
  }
  const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const r = median(real);
  const b = median(baseline);
  console.log(`board step (225 squares, 4 pawns, ${TOTALS ? '2 team totals' : 'no team totals'}): median ${r.toFixed(2)} ms per step over ${REPEAT} samples of ${STEPS} steps`);
  console.log(`bare pawns-only step:              median ${b.toFixed(3)} ms per step`);
  console.log(`ratio: ${(r / b).toFixed(1)}x`);
}

void main();
