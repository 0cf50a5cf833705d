// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { useActorRef } from '@xstate/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { LastMove } from '../../contract/socket';
import { ROLL_MOMENT_TIMING as T, rollMomentMachine, type RollMomentEvent, type RollMomentInput } from '../../machines/rollMoment.machine';
import { BoardView } from '../../src/features/board/BoardView';
import { RollStrip, useLogHold, usePawnMotion, type RollMomentRef } from '../../src/features/play/RollMoment';
import { modelTests, type ModelExecutor } from '../support/chartModel';

/**
 * Model-based test of the rollMoment chart (the roll moment every viewer of a game sees) through
 * the rendered roll strip, board and a log held as the Live Game Log holds it: paths generated
 * from the real chart for a viewer with and without reduced motion; `roll.moved` is what the game
 * screen sends it (a plain move, a move up a ladder, and a new roll while one plays), the four
 * delays are fake time. Every state is asserted on the screen: the die tumbling (never showing the
 * final face) then settled on the server's value, the announcement, the moving pawn on the square
 * the chart has it (or along the ladder), the log lines of the roll held until the pawn arrives,
 * and the arrival reported to the parent exactly once per arrival.
 */

type Snap = SnapshotFrom<typeof rollMomentMachine>;
const TUMBLE = 'xstate.after.tumbleTick.rollMoment.tumbling';
const WALK = 'xstate.after.walkStep.rollMoment.walking';
const FOLLOW = 'xstate.after.followFrame.rollMoment.following';
const LINGER = 'xstate.after.linger.rollMoment.arrived';
type ModelEvent = RollMomentEvent | { type: typeof TUMBLE } | { type: typeof WALK } | { type: typeof FOLLOW } | { type: typeof LINGER };

const NAMES: Record<number, string> = { 11: 'Red Dragons', 12: 'Blue Moons' };
/** Red Dragons from 4 to 7, then up the ladder to 30; Blue Moons from 1 to 3. */
const LADDER_MOVE: LastMove = { team_id: 11, die: 3, from: 4, landing: 7, to: 30, via: 'ladder', path: [4, 5, 6, 7] };
const PLAIN_MOVE: LastMove = { team_id: 12, die: 2, from: 1, landing: 3, to: 3, via: null, path: [1, 2, 3] };
/** The Live Game Log before the roll (id 1) and the roll's lines (ids 2, 3): the log head is 1. */
const LOG = [3, 2, 1];
const LOG_HEAD = 1;
const moved = (move: LastMove): RollMomentEvent => ({ type: 'roll.moved', move, logHead: LOG_HEAD });

/** What the screen, fake time or the game screen can cause in a state (one new roll mid-walk, to keep the model small). */
function eventsOf(s: Snap): ModelEvent[] {
  if (s.matches('idle')) return [moved(LADDER_MOVE), moved(PLAIN_MOVE)];
  if (s.matches('tumbling')) return [{ type: TUMBLE }];
  if (s.matches('walking')) return s.context.move?.team_id === LADDER_MOVE.team_id && s.context.step === 1 ? [{ type: WALK }, moved(PLAIN_MOVE)] : [{ type: WALK }];
  if (s.matches('following')) return [{ type: FOLLOW }];
  // Under reduced motion a second roll can come while the first has just arrived.
  return s.context.reducedMotion && s.context.move?.team_id === LADDER_MOVE.team_id ? [{ type: LINGER }, moved(PLAIN_MOVE)] : [{ type: LINGER }];
}

interface World {
  actor: () => RollMomentRef;
  /** Arrivals the chart reported to its parent, and how many the path has made so far. */
  reported: string[];
  arrivals: number;
}

let current: RollMomentRef | null = null;
function Host({ input, reported }: { input: RollMomentInput; reported: string[] }) {
  const actor = useActorRef(rollMomentMachine.provide({ actions: { reportArrival: ({ context }) => void reported.push(`${context.move?.team_id}@${context.move?.to}`) } }), { input });
  current = actor;
  const motion = usePawnMotion(actor);
  const hold = useLogHold(actor);
  return (
    <>
      <RollStrip actor={actor} teamName={(id) => NAMES[id]} lastLogged={null} />
      <BoardView
        boardSize={36}
        squares={[]}
        connections={[{ type: 'ladder', start: 7, end: 30 }]}
        teams={[
          { team_id: 11, team_name: NAMES[11], team_color: '#cc2222', current_position: 4 },
          { team_id: 12, team_name: NAMES[12], team_color: '#2244cc', current_position: 1 },
        ]}
        motion={motion}
      />
      <ol data-testid="log">
        {LOG.filter((id) => hold === null || id <= hold).map((id) => (
          <li key={id}>{id}</li>
        ))}
      </ol>
    </>
  );
}

const advance = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));
/** The board draws in steps (React transitions on the real macrotask queue; only setTimeout is fake). */
async function boardDrawn() {
  for (let i = 0; i < 50 && !document.querySelector('.board__pawn'); i += 1) await act(async () => void (await new Promise((r) => setImmediate(r))));
  expect(document.querySelector('.board__pawn')).not.toBeNull();
}

const die = () => screen.getByTestId('die');
const said = () => screen.getByTestId('die-announcement').textContent;
const movingPawn = () => document.querySelector('.board__pawn[data-moving]');
const logShown = () => Array.from(screen.getByTestId('log').querySelectorAll('li'), (li) => Number(li.textContent));
const expectReported = (w: World) => expect(w.reported).toHaveLength(w.arrivals);

/** Counts an arrival when a step enters `arrived` (or re-enters it with a new roll). */
const counting = (run: ModelExecutor<World, Snap, ModelEvent>): ModelExecutor<World, Snap, ModelEvent> => async (w, step) => {
  await run(w, step);
  if (step.state.matches('arrived') && (!step.prev.matches('arrived') || step.event.type === 'roll.moved')) w.arrivals += 1;
};

const EXECUTORS = {
  'roll.moved': counting(async (w, { event }) => act(() => w.actor().send(event as RollMomentEvent))),
  [TUMBLE]: counting(async () => advance(T.tumbleTick)),
  [WALK]: counting(async () => advance(T.walkStep)),
  [FOLLOW]: counting(async () => advance(T.followFrame)),
  [LINGER]: counting(async () => advance(T.linger)),
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

/** The die settled on the move's value, said in words, no pawn moving, the whole log shown. */
const restingOn = (s: Snap, w: World) => {
  const move = s.context.move!;
  expect(die().dataset.state).toBe('settled');
  expect(die().dataset.value).toBe(String(move.die));
  expect(said()).toBe(`${NAMES[move.team_id]} rolled a ${move.die}`);
  expect(movingPawn()).toBeNull();
  expect(logShown()).toEqual(LOG);
  expectReported(w);
};

modelTests<Snap, ModelEvent, World>({
  name: 'rollMoment',
  // Walked without a parent: the arrival report is counted on the screen's own chart (Host).
  machine: rollMomentMachine.provide({ actions: { reportArrival: () => {} } }),
  dropPrefixPaths: true,
  inputs: [{ reducedMotion: false }, { reducedMotion: true }] satisfies RollMomentInput[],
  fakeTimers: 'manual',
  events: eventsOf,
  // A roll arriving mid-walk or just after an arrival counts as its own state, so its edge gets a path.
  serialize: (s, event, prev) => JSON.stringify([s.value, s.context.step, s.context.move?.team_id ?? null, s.context.reducedMotion, event?.type === 'roll.moved' ? prev?.value : null]),
  executors: EXECUTORS,
  assertions: {
    idle: (s, w) => {
      if (s.context.move) return restingOn(s, w);
      expect(die().dataset.state).toBe('settled');
      expect(die().dataset.value).toBe('');
      expect(said()).toBe('No roll yet.');
      expect(movingPawn()).toBeNull();
      expect(logShown()).toEqual(LOG);
      expectReported(w);
    },
    tumbling: (s, w) => {
      const move = s.context.move!;
      expect(die().dataset.state).toBe('tumbling');
      expect(Number(die().dataset.value)).not.toBe(move.die);
      expect(said()).toBe('Rolling…');
      // The pawn waits on its starting square; the roll's log lines wait too.
      expect(movingPawn()?.getAttribute('data-team')).toBe(String(move.team_id));
      expect(movingPawn()?.getAttribute('data-position')).toBe(String(move.from));
      expect(logShown()).toEqual([LOG_HEAD]);
      expectReported(w);
    },
    walking: (s, w) => {
      const move = s.context.move!;
      expect(die().dataset.state).toBe('settled');
      expect(die().dataset.value).toBe(String(move.die));
      expect(said()).toBe(`${NAMES[move.team_id]} rolled a ${move.die}`);
      expect(movingPawn()?.getAttribute('data-moving')).toBe('walking');
      expect(movingPawn()?.getAttribute('data-position')).toBe(String(move.path[s.context.step]));
      expect(logShown()).toEqual([LOG_HEAD]);
      expectReported(w);
    },
    following: (s, w) => {
      expect(die().dataset.state).toBe('settled');
      expect(movingPawn()?.getAttribute('data-moving')).toBe('following');
      expect(movingPawn()?.getAttribute('data-team')).toBe(String(s.context.move!.team_id));
      expect(logShown()).toEqual([LOG_HEAD]);
      expectReported(w);
    },
    arrived: (s, w) => {
      restingOn(s, w);
      expect(w.reported.at(-1)).toBe(`${s.context.move!.team_id}@${s.context.move!.to}`);
    },
  },
  render: async (input) => {
    const reported: string[] = [];
    render(<Host input={input as RollMomentInput} reported={reported} />);
    await boardDrawn();
    return { actor: () => current!, reported, arrivals: 0 };
  },
  guards: (paths) => {
    // Both moves end in arrived, the ladder one through following, and a new roll replaces a walk.
    const edges = new Set(paths.flatMap((p) => p.steps.slice(1).map((st, i) => `${JSON.stringify(p.steps[i].state.value)} ${st.event.type}`)));
    for (const edge of ['"walking" roll.moved', `"following" ${FOLLOW}`, `"walking" ${WALK}`, `"arrived" ${LINGER}`, '"arrived" roll.moved', '"idle" roll.moved']) expect(edges.has(edge), edge).toBe(true);
    expect(Object.keys(rollMomentMachine.implementations.delays).sort()).toEqual(['followFrame', 'linger', 'tumbleTick', 'walkStep']);
  },
});
