import { and, assign, sendParent, setup } from 'xstate';
import type { LastMove } from '../contract/socket';

/** Milliseconds and counts of the roll moment's named delays ("the roll moment"). */
export const ROLL_MOMENT_TIMING = {
  /** One face change of the tumbling die. */
  tumbleTick: 80,
  /** Face changes before the die shows the server's value. */
  tumbleTicks: 8,
  /** One square of the pawn's walk. */
  walkStep: 220,
  /** One frame of the climb or slide along the drawn ladder or snake. */
  followFrame: 40,
  /** Frames of the climb or slide. */
  followFrames: 20,
  /** How long the arrived state lasts before the chart rests. */
  linger: 1500,
} as const;

export interface RollMomentInput {
  /** The viewer asked for reduced motion: the pawn jumps straight to its square, the die shows its value at once. */
  reducedMotion?: boolean;
}

export interface RollMomentContext {
  reducedMotion: boolean;
  /** The roll being shown (or last shown), from a progress update's last_move. */
  move: LastMove | null;
  /** Id of the newest Live Game Log entry held when the move arrived: later entries wait until the pawn arrives. */
  logHead: number;
  /** Tumble ticks, squares walked or frames followed so far in the current state. */
  step: number;
}

/** A roll reported by a progress update (fact), with the newest log entry id held at that time. */
export type RollMomentEvent = { type: 'roll.moved'; move: LastMove; logHead: number };

/** What the chart tells its parent (the game screen): the pawn stands on its final square. */
export type RollMomentReport = { type: 'roll.arrived' };

/**
 * The roll moment every viewer of a game sees: a progress update's last_move starts it
 * (`roll.moved`, also while a previous moment plays: the new one replaces it).
 * - `tumbling`: the die changes face every `tumbleTick` for `tumbleTicks` ticks (action
 *   `tickDie`), then shows the server's value (`landDie`);
 * - `walking`: the pawn walks the move's path square by square every `walkStep` (`stepPawn`);
 * - `following` (only when the move went via a snake or ladder): `followFrames` frames along the
 *   drawn connection every `followFrame`;
 * - `arrived`: the pawn is on its final square and the log entries of the move show; entering it
 *   tells the parent (`reportArrival`: `roll.arrived`, so the game screen shows what the roll
 *   changed only now); after `linger` the chart rests in `idle` (the die keeps showing the last
 *   value).
 * States tagged `moving` hold back log entries newer than `logHead`. Under reduced motion a move
 * goes straight to `arrived` (and reports it at once). The sound actions (`tickDie`, `landDie`, `stepPawn`) do nothing
 * unless given from src/ (the optional sound, off by default).
 */
export const rollMomentMachine = setup({
  types: {
    context: {} as RollMomentContext,
    events: {} as RollMomentEvent,
    input: {} as RollMomentInput,
  },
  delays: {
    tumbleTick: ROLL_MOMENT_TIMING.tumbleTick,
    walkStep: ROLL_MOMENT_TIMING.walkStep,
    followFrame: ROLL_MOMENT_TIMING.followFrame,
    linger: ROLL_MOMENT_TIMING.linger,
  },
  guards: {
    prefersReducedMotion: ({ context }) => context.reducedMotion,
    isTumbleDone: ({ context }) => context.step >= ROLL_MOMENT_TIMING.tumbleTicks - 1,
    isWalkDone: ({ context }) => context.step >= (context.move?.path.length ?? 1) - 1,
    wentViaConnection: ({ context }) => context.move?.via != null && context.move.to !== context.move.landing,
    isFollowDone: ({ context }) => context.step >= ROLL_MOMENT_TIMING.followFrames,
  },
  actions: {
    assignMove: assign((_, params: { move: LastMove; logHead: number }) => ({ move: params.move, logHead: params.logHead, step: 0 })),
    resetStep: assign({ step: 0 }),
    nextStep: assign(({ context }) => ({ step: context.step + 1 })),
    tickDie: () => {},
    landDie: () => {},
    stepPawn: () => {},
    reportArrival: sendParent({ type: 'roll.arrived' } satisfies RollMomentReport),
  },
}).createMachine({
  id: 'rollMoment',
  context: ({ input }) => ({ reducedMotion: input.reducedMotion ?? false, move: null, logHead: 0, step: 0 }),
  initial: 'idle',
  on: {
    'roll.moved': [
      { guard: 'prefersReducedMotion', target: '.arrived', reenter: true, actions: { type: 'assignMove', params: ({ event }) => event } },
      { target: '.tumbling', reenter: true, actions: { type: 'assignMove', params: ({ event }) => event } },
    ],
  },
  states: {
    idle: {},
    tumbling: {
      tags: ['moving'],
      after: {
        tumbleTick: [
          { guard: 'isTumbleDone', target: 'walking', actions: ['resetStep', 'landDie'] },
          { target: 'tumbling', reenter: true, actions: ['nextStep', 'tickDie'] },
        ],
      },
    },
    walking: {
      tags: ['moving'],
      after: {
        walkStep: [
          { guard: and(['isWalkDone', 'wentViaConnection']), target: 'following', actions: 'resetStep' },
          { guard: 'isWalkDone', target: 'arrived' },
          { target: 'walking', reenter: true, actions: ['nextStep', 'stepPawn'] },
        ],
      },
    },
    following: {
      tags: ['moving'],
      after: {
        followFrame: [
          { guard: 'isFollowDone', target: 'arrived' },
          { target: 'following', reenter: true, actions: 'nextStep' },
        ],
      },
    },
    arrived: {
      entry: 'reportArrival',
      after: { linger: 'idle' },
    },
  },
});
