import { describe, it, expect } from 'vitest';
import * as v from 'valibot';
import { formatDuration } from '../../contract/duration';
import {
  arrivalState,
  formatAgo,
  hasTask,
  mayRoll,
  PROOF_MESSAGES,
  ReviewBodySchema,
  ReviewReasonSchema,
  timeOnSquare,
} from '../../contract/submission';

/** The pure rules of docs/server.md §9 in contract/submission.ts, shared by server and client. */
describe('task proof contract', () => {
  const task = { task_description: 'Kill Cerberus 10 times', task_difficulty: 'HARD' };

  it('a square has a task only with a tier and a task text (not Start, Finish, Snake, Ladder or Unassigned)', () => {
    expect(hasTask(task)).toBe(true);
    for (const description of ['Start', 'Finish', 'Snake', 'Ladder']) expect(hasTask({ task_description: description, task_difficulty: null })).toBe(false);
    expect(hasTask({ task_description: '', task_difficulty: 'EASY' })).toBe(false);
    expect(hasTask(undefined)).toBe(false);
  });

  it('arrival: open after a roll, approved after a revert, none without a task or after a win', () => {
    expect(arrivalState(task, 'roll')).toBe('open');
    expect(arrivalState(task, 'revert')).toBe('approved');
    expect(arrivalState(task, 'won')).toBe('none');
    expect(arrivalState({ task_description: 'Start', task_difficulty: null }, 'revert')).toBe('none');
  });

  it('the roll gate: only none and approved roll when proof is required', () => {
    expect((['none', 'open', 'submitted', 'denied', 'approved'] as const).filter((s) => mayRoll(true, s))).toEqual(['none', 'approved']);
    expect((['none', 'open', 'submitted', 'denied', 'approved'] as const).every((s) => mayRoll(false, s))).toBe(true);
    expect(PROOF_MESSAGES.rollGate(41, 'Red')).toBe('Complete the task on square 41 first: a referee must approve its proof before Red can roll again.');
  });

  it('review bodies: deny needs a reason of 1..300 characters; approve ignores it', () => {
    expect(v.parse(ReviewBodySchema, { decision: 'approve' })).toEqual({ decision: 'approve', reason: null });
    expect(v.parse(ReviewBodySchema, { decision: 'deny', reason: ' Wrong boss. ' })).toEqual({ decision: 'deny', reason: 'Wrong boss.' });
    for (const reason of [undefined, null, '', '   ']) {
      const r = v.safeParse(ReviewBodySchema, { decision: 'deny', reason });
      expect(r.success).toBe(false);
      if (!r.success) expect(r.issues[0].message).toBe(PROOF_MESSAGES.reasonRequired);
    }
    expect(v.safeParse(ReviewBodySchema, { decision: 'deny', reason: 'x'.repeat(301) }).success).toBe(false);
    // The text rule (docs/server.md §8): line breaks allowed in a reason, NUL refused.
    expect(v.parse(ReviewReasonSchema, 'Line one\nline two')).toBe('Line one\nline two');
    expect(v.safeParse(ReviewReasonSchema, 'bad\u0000').success).toBe(false);
  });

  it('time on square', () => {
    const since = '2026-01-01T10:00:00.000Z';
    const at = (minutes: number) => Date.parse(since) + minutes * 60_000;
    expect(timeOnSquare(41, since, at(134))).toBe('reached square 41, 2 h 14 min ago');
    expect(timeOnSquare(41, since, at(0.5))).toBe('reached square 41, just now');
    expect(timeOnSquare(1, since, at(1))).toBe('reached square 1, 1 min ago');
    expect(formatAgo(5 * 60_000)).toBe('5 min ago');
    expect(formatDuration(30_000, 'min')).toBe('less than a minute');
    expect(formatDuration(5 * 60_000, 'min')).toBe('5 min');
    expect(formatDuration(134 * 60_000 + 59_000, 'min')).toBe('2 h 14 min');
    expect(formatDuration(24 * 3_600_000, 'min')).toBe('1 d');
    expect(formatDuration(27 * 3_600_000, 'min')).toBe('1 d 3 h');
  });
});
