import { describe, expect, it } from 'vitest';
import { PROOF_MESSAGES, REVIEW_UNDO_MS, type Submission } from '../../contract/submission';
import { denyReasonProblem, isUndoable, leaderRollGate, mergeQueue, proofImageProblem, proofNoteProblem } from '../../contract/proofView';
import type { HeldGame } from '../../contract/socket';

/** The client's proof rules (contract/proofView.ts, docs/server.md §9). */

const sub = (id: number, created_at: string, status: Submission['status'] = 'pending') => ({ id, created_at, status }) as Submission;

function gameWith(proof_required: boolean, task_state: string): HeldGame {
  return {
    id: 1,
    proof_required,
    team_states: [{ team_id: 5, team_name: 'Red Dragons', current_position: 41, task_state }],
    user_teams: [{ id: 5, osrs_ign_id: 9, user_id: 1, role: 'Leader', player_ign: 'Zezima', name: 'Red Dragons', color: '#c00' }],
  } as unknown as HeldGame;
}

describe('proof view rules', () => {
  it('gates the Leader roll only while proof is awaited', () => {
    expect(leaderRollGate(gameWith(true, 'open'))).toBe(PROOF_MESSAGES.rollGate(41, 'Red Dragons'));
    expect(leaderRollGate(gameWith(true, 'submitted'))).toBe(PROOF_MESSAGES.rollGate(41, 'Red Dragons'));
    expect(leaderRollGate(gameWith(true, 'denied'))).toBe(PROOF_MESSAGES.rollGate(41, 'Red Dragons'));
    expect(leaderRollGate(gameWith(true, 'approved'))).toBeNull();
    expect(leaderRollGate(gameWith(true, 'none'))).toBeNull();
    expect(leaderRollGate(gameWith(false, 'open'))).toBeNull();
    expect(leaderRollGate(null)).toBeNull();
  });

  it('keeps the queue pending-only, oldest first', () => {
    const a = sub(1, '2026-01-01T10:00:00Z');
    const b = sub(2, '2026-01-01T10:05:00Z');
    const c = sub(3, '2026-01-01T10:02:00Z');
    expect(mergeQueue([a, b], c).map((s) => s.id)).toEqual([1, 3, 2]);
    expect(mergeQueue([a, b], { ...a, status: 'approved' }).map((s) => s.id)).toEqual([2]);
    expect(mergeQueue([a, b], { ...b, status: 'withdrawn' }).map((s) => s.id)).toEqual([1]);
    expect(mergeQueue([a, b], { ...a, note: 'x' } as Submission)).toHaveLength(2);
  });

  it('lets a review be undone for 5 minutes', () => {
    const at = '2026-01-01T10:00:00.000Z';
    const t = Date.parse(at);
    expect(isUndoable(at, t + REVIEW_UNDO_MS - 1)).toBe(true);
    expect(isUndoable(at, t + REVIEW_UNDO_MS)).toBe(false);
    expect(isUndoable(null, t)).toBe(false);
  });

  it('checks images, notes and reasons with the contract texts', () => {
    expect(proofImageProblem({ type: 'image/png', size: 10 })).toBeNull();
    expect(proofImageProblem({ type: 'text/plain', size: 10 })).toBe(PROOF_MESSAGES.notImage);
    expect(proofImageProblem({ type: 'image/webp', size: 8 * 1024 * 1024 + 1 })).toBe(PROOF_MESSAGES.tooLarge);
    expect(proofNoteProblem('')).toBeNull();
    expect(proofNoteProblem('x'.repeat(501))).toBe(PROOF_MESSAGES.noteTooLong);
    expect(denyReasonProblem('   ')).toBe(PROOF_MESSAGES.reasonRequired);
    expect(denyReasonProblem('x'.repeat(301))).toBe(PROOF_MESSAGES.reasonTooLong);
    expect(denyReasonProblem('Blurry screenshot')).toBeNull();
    expect(denyReasonProblem('bad\u0007')).toMatch(/control characters/);
  });
});
