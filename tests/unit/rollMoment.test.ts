import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { ROLL_MOMENT_TIMING as T, rollMomentMachine } from '../../machines/rollMoment.machine';
import * as rm from '../../machines/rollMoment.selectors';
import type { LastMove } from '../../contract/socket';

/**
 * The roll moment chart: the die tumbles then shows the server's value, the pawn walks the path
 * square by square, follows a snake or ladder, then the held log lines show and the arrival is
 * reported (`reportArrival`, once per arrival); reduced motion jumps straight to the result.
 */
const ladder: LastMove = { team_id: 11, die: 3, from: 4, landing: 7, to: 30, via: 'ladder', path: [4, 5, 6, 7] };
const plain: LastMove = { team_id: 12, die: 2, from: 1, landing: 3, to: 3, via: null, path: [1, 2, 3] };

describe('rollMoment chart', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const start = (reducedMotion = false) => {
    const sounds: string[] = [];
    const arrivals: string[] = [];
    const actor = createActor(
      rollMomentMachine.provide({
        actions: {
          tickDie: () => sounds.push('tick'),
          landDie: () => sounds.push('land'),
          stepPawn: () => sounds.push('step'),
          reportArrival: ({ context }) => arrivals.push(`${context.move?.team_id}@${context.move?.to}`),
        },
      }),
      { input: { reducedMotion } },
    ).start();
    return { actor, sounds, arrivals, snap: () => actor.getSnapshot() };
  };

  it('tumbles, lands on the value, walks the path, climbs the ladder, then shows the log and rests', () => {
    const { actor, sounds, arrivals, snap } = start();
    expect(rm.selectDieFace(snap())).toBeNull();
    expect(rm.selectFollowSquares(snap())).toEqual([]);
    actor.send({ type: 'roll.moved', move: ladder, logHead: 41 });
    expect(snap().value).toBe('tumbling');
    expect(rm.selectHoldsLog(snap())).toBe(true);
    expect(rm.selectLogHead(snap())).toBe(41);
    expect(rm.selectMovingTeam(snap())).toBe(11);
    expect(rm.selectMovingSquare(snap())).toBe(4);
    expect(rm.selectFollowSquares(snap())).toEqual([4, 4, 5, 6, 7, 30]);
    const faces = new Set<number | null>();
    for (let i = 0; i < T.tumbleTicks - 1; i += 1) {
      faces.add(rm.selectDieFace(snap()));
      vi.advanceTimersByTime(T.tumbleTick);
    }
    expect(faces.has(ladder.die)).toBe(false);
    expect(faces.size).toBeGreaterThan(1);
    vi.advanceTimersByTime(T.tumbleTick);
    expect(snap().value).toBe('walking');
    expect(rm.selectDieFace(snap())).toBe(3);
    const walked = [rm.selectMovingSquare(snap())];
    for (let i = 0; i < ladder.path.length - 1; i += 1) {
      vi.advanceTimersByTime(T.walkStep);
      walked.push(rm.selectMovingSquare(snap()));
    }
    expect(walked).toEqual([4, 5, 6, 7]);
    expect(rm.selectFollowSquares(snap())).toEqual([7]);
    expect(arrivals).toEqual([]);
    vi.advanceTimersByTime(T.walkStep);
    expect(snap().value).toBe('following');
    expect(rm.selectFollowProgress(snap())).toBe(0);
    expect(rm.selectFollowSquares(snap())).toEqual([7, 30]);
    vi.advanceTimersByTime(T.followFrame * (T.followFrames / 2));
    expect(rm.selectFollowProgress(snap())).toBeCloseTo(0.5);
    vi.advanceTimersByTime(T.followFrame * (T.followFrames / 2 + 1));
    expect(snap().value).toBe('arrived');
    expect(arrivals).toEqual(['11@30']);
    expect(rm.selectFollowSquares(snap())).toEqual([30]);
    expect(rm.selectHoldsLog(snap())).toBe(false);
    expect(rm.selectMovingTeam(snap())).toBeNull();
    expect(rm.selectDieFace(snap())).toBe(3);
    vi.advanceTimersByTime(T.linger);
    expect(snap().value).toBe('idle');
    expect(arrivals).toEqual(['11@30']);
    expect(rm.selectFollowSquares(snap())).toEqual([]);
    expect(rm.selectDieFace(snap())).toBe(3);
    expect(sounds.filter((s) => s === 'tick')).toHaveLength(T.tumbleTicks - 1);
    expect(sounds.filter((s) => s === 'land')).toHaveLength(1);
    expect(sounds.filter((s) => s === 'step')).toHaveLength(3);
  });

  it('a plain move ends after the walk; a new roll mid-moment replaces the old one', () => {
    const { actor, arrivals, snap } = start();
    actor.send({ type: 'roll.moved', move: ladder, logHead: 1 });
    vi.advanceTimersByTime(T.tumbleTick * T.tumbleTicks + T.walkStep);
    expect(snap().value).toBe('walking');
    actor.send({ type: 'roll.moved', move: plain, logHead: 5 });
    expect(snap().value).toBe('tumbling');
    expect(rm.selectMovingTeam(snap())).toBe(12);
    expect(rm.selectLogHead(snap())).toBe(5);
    vi.advanceTimersByTime(T.tumbleTick * T.tumbleTicks + T.walkStep * plain.path.length);
    expect(snap().value).toBe('arrived');
    expect(rm.selectDieFace(snap())).toBe(2);
    // Only the move that ended is reported.
    expect(arrivals).toEqual(['12@3']);
  });

  it('under reduced motion the die shows its value at once and nothing moves or waits', () => {
    const { actor, sounds, arrivals, snap } = start(true);
    actor.send({ type: 'roll.moved', move: ladder, logHead: 9 });
    expect(snap().value).toBe('arrived');
    // A second roll while the first has just arrived is reported too.
    actor.send({ type: 'roll.moved', move: plain, logHead: 10 });
    expect(arrivals).toEqual(['11@30', '12@3']);
    expect(rm.selectDieFace(snap())).toBe(2);
    expect(rm.selectIsTumbling(snap())).toBe(false);
    expect(rm.selectHoldsLog(snap())).toBe(false);
    expect(rm.selectMovingTeam(snap())).toBeNull();
    expect(sounds).toEqual([]);
  });
});
