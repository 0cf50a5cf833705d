import { and, assign, not, setup } from 'xstate';

export interface ReplayInput {
  /** The number of moves in the history: frames run from 0 (every team on square 1) to `moves`. */
  moves: number;
}

export interface ReplayContext {
  /** The frame on the board: the positions after move `frame` (0 = before the first move). */
  frame: number;
  /** The last frame (the number of moves). */
  last: number;
  /** Playback speed: 1, 2 or 4 moves per REPLAY_STEP_MS. */
  speed: ReplaySpeed;
}

/** The speeds the replay offers (moves per step time). */
export const REPLAY_SPEEDS = [1, 2, 4] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

/** Milliseconds one move stays on the board while playing at speed 1. */
export const REPLAY_STEP_MS = 800;

export type ReplayEvent =
  | { type: 'replay.play' }
  | { type: 'replay.pause' }
  | { type: 'replay.step' }
  | { type: 'replay.back' }
  /** The scrubber moved to `frame` (clamped to 0..last). */
  | { type: 'replay.seek'; frame: number }
  | { type: 'replay.speed'; speed: ReplaySpeed };

const clamp = (frame: number, last: number) => Math.min(Math.max(0, Math.round(frame) || 0), last);

/**
 * The replay of a game's history on the results page: which frame the board shows
 * and whether it plays.
 * - `paused` (initial, at frame 0; never on the last frame): `replay.play` plays,
 *   `replay.step` / `replay.back` move one frame (a step onto the last frame ends), `replay.seek`
 *   jumps (the scrubber; a seek to the last frame ends).
 * - `playing`: after the named delay `moveTime` (REPLAY_STEP_MS / speed) the next frame shows;
 *   showing the last frame ends in `ended`; `replay.pause` pauses; `replay.seek` jumps and plays on
 *   (a seek to the last frame ends); `replay.back` / `replay.step` pause on the frame they reach.
 * - `ended`: the last frame; `replay.play` plays again from frame 0, `replay.back` and a seek
 *   before the end pause there.
 * `replay.speed` is taken in every state (while playing, the move time starts again at the new speed). A history without moves never plays (`paused` at 0).
 */
export const replayMachine = setup({
  types: {
    context: {} as ReplayContext,
    events: {} as ReplayEvent,
    input: {} as ReplayInput,
  },
  delays: {
    moveTime: ({ context }) => REPLAY_STEP_MS / context.speed,
  },
  guards: {
    hasMoves: ({ context }) => context.last > 0,
    isNotAtStart: ({ context }) => context.frame > 0,
    nextIsLast: ({ context }) => context.frame + 1 >= context.last,
    seeksToEnd: ({ context, event }) => event.type === 'replay.seek' && clamp(event.frame, context.last) >= context.last,
  },
  actions: {
    rewind: assign({ frame: 0 }),
    stepForward: assign({ frame: ({ context }) => Math.min(context.frame + 1, context.last) }),
    stepBack: assign({ frame: ({ context }) => Math.max(context.frame - 1, 0) }),
    seek: assign({ frame: ({ context, event }) => (event.type === 'replay.seek' ? clamp(event.frame, context.last) : context.frame) }),
    setSpeed: assign({ speed: ({ context, event }) => (event.type === 'replay.speed' ? event.speed : context.speed) }),
  },
}).createMachine({
  id: 'replay',
  context: ({ input }) => ({ frame: 0, last: Math.max(0, Math.floor(input.moves)), speed: 1 }),
  initial: 'paused',
  on: {
    'replay.speed': { actions: 'setSpeed' },
  },
  states: {
    paused: {
      on: {
        'replay.play': { guard: 'hasMoves', target: 'playing' },
        'replay.step': [
          { guard: and(['hasMoves', 'nextIsLast']), target: 'ended', actions: 'stepForward' },
          { guard: 'hasMoves', actions: 'stepForward' },
        ],
        'replay.back': { guard: 'isNotAtStart', actions: 'stepBack' },
        'replay.seek': [
          { guard: 'seeksToEnd', target: 'ended', actions: 'seek' },
          { guard: 'hasMoves', actions: 'seek' },
        ],
      },
    },
    playing: {
      after: {
        moveTime: [
          { guard: 'nextIsLast', target: 'ended', actions: 'stepForward' },
          { target: 'playing', reenter: true, actions: 'stepForward' },
        ],
      },
      on: {
        'replay.pause': 'paused',
        // A new speed counts from now: the move time starts again at that speed.
        'replay.speed': { target: 'playing', reenter: true, actions: 'setSpeed' },
        'replay.step': [
          { guard: 'nextIsLast', target: 'ended', actions: 'stepForward' },
          { target: 'paused', actions: 'stepForward' },
        ],
        'replay.back': { target: 'paused', actions: 'stepBack' },
        'replay.seek': [
          { guard: 'seeksToEnd', target: 'ended', actions: 'seek' },
          { target: 'playing', reenter: true, actions: 'seek' },
        ],
      },
    },
    ended: {
      on: {
        'replay.play': { target: 'playing', actions: 'rewind' },
        'replay.back': { target: 'paused', actions: 'stepBack' },
        'replay.seek': { guard: not('seeksToEnd'), target: 'paused', actions: 'seek' },
      },
    },
  },
});
