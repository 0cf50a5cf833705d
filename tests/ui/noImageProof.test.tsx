// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { SubmissionAnswerSchema, SubmissionSchema, type Submission } from '../../contract/submission';
import { PROOF_VIEW_TEXTS } from '../../contract/proofView';
import { hasScreenshot, NoScreenshot } from '../../src/features/dink/NoScreenshot';

/**
 * A task approved from a Wise Old Man total has no image (docs/server.md §17: `image_url` and
 * `thumb_url` null): every shape that carries a submission takes it, nothing treats it as having a
 * screenshot, and the screens show its evidence as text in place of a picture, as for a Dink
 * post sent without a screenshot (docs/server.md §13).
 */

const WOM: Submission = {
  id: 9, game_id: 3, team_id: 4, team_name: 'Blue Wizards', team_color: '#2a5db0', square_index: 12,
  task_description: 'Gain 100,000 Woodcutting XP as a team', task_difficulty: 'MEDIUM',
  submitted_by: { user_id: 2, username: 'bob', ign: 'Woox' }, note: '', image_url: null, thumb_url: null,
  status: 'approved', reviewer: null, reason: null, created_at: '2026-01-01T10:00:00.000Z', reviewed_at: '2026-01-01T10:00:00.000Z',
  source: 'wom', evidence: { type: 'XP', summary: 'Woodcutting +100,200 XP (Woox <b>+100,200</b>)' }, auto: true, screenshot: false,
};
const UPLOAD: Submission = { ...WOM, source: 'upload', evidence: null, auto: false, image_url: '/api/submissions/9/image', thumb_url: '/api/submissions/9/thumb', screenshot: true };

afterEach(cleanup);

describe('a submission without an image (Wise Old Man)', () => {
  it('is a Submission, in the REST and socket shapes alike; an upload still needs both paths as strings', () => {
    expect(v.parse(SubmissionSchema, WOM)).toMatchObject({ image_url: null, thumb_url: null });
    expect(v.parse(SubmissionAnswerSchema, { submission: WOM }).submission.image_url).toBeNull();
    expect(v.safeParse(SubmissionSchema, { ...UPLOAD, image_url: 42 }).success).toBe(false);
  });

  it('has no screenshot to show, even when the server leaves `screenshot` out', () => {
    expect(hasScreenshot(WOM)).toBe(false);
    expect(hasScreenshot({ ...WOM, screenshot: undefined })).toBe(false);
    expect(hasScreenshot(UPLOAD)).toBe(true);
  });

  it('shows where the picture would be that Wise Old Man checked it, and its evidence as text', () => {
    render(<NoScreenshot evidence={WOM.evidence} testId="review-no-screenshot" />);
    const box = screen.getByTestId('review-no-screenshot');
    expect(box.querySelector('img')).toBeNull();
    expect(within(box).getByText(PROOF_VIEW_TEXTS.womNoImage)).toBeTruthy();
    expect(within(box).getByTestId('proof-none-evidence').textContent).toBe('Wise Old Man: XP: Woodcutting +100,200 XP (Woox <b>+100,200</b>)');
  });

  it('keeps the Dink wording for a Dink post sent without a screenshot', () => {
    render(<NoScreenshot evidence={{ type: 'LOOT', summary: 'Giant key x1' }} testId="proof-no-screenshot" />);
    expect(within(screen.getByTestId('proof-no-screenshot')).getByText(PROOF_VIEW_TEXTS.noScreenshot)).toBeTruthy();
  });
});
