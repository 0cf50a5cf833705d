// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProgressBar } from '../../src/features/play/ProgressBar';
import { mergeProgress } from '../../contract/socket';
import type { Game } from '../../contract/gameApi';
import type { TeamProgress } from '../../contract/progress';

/**
 * The team-total bar (docs/server.md §17): have / need in the unit, the filled share, each
 * player's share and the IGNs a check could not count, names shown as text; a progress update
 * with a new version brings the new progress into the held game (what the live screens render).
 */

const PROGRESS: TeamProgress = {
  have: 300, need: 500, unit: 'items',
  by: [{ ign: 'Ali Cat', amount: 200 }, { ign: '<img src=x onerror=alert(1)>', amount: 100 }],
  errors: [{ ign: 'Lost Soul', error: 'Wise Old Man does not know this player.' }],
  updated_at: '2031-06-01T18:00:00.000Z',
};

afterEach(cleanup);

describe('ProgressBar', () => {
  it('shows have / need with its unit, the bar filled to the share, each share and each error, all as text', () => {
    const { container } = render(<ProgressBar progress={PROGRESS} teamName="Red Team" />);
    const box = screen.getByTestId('team-progress');
    expect(within(box).getByText('300 / 500 items')).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Red Team: team total 300 / 500 items' }) as HTMLProgressElement;
    expect(bar.max).toBe(500);
    expect(bar.value).toBe(300);
    expect(screen.getAllByTestId('team-progress-share').map((li) => li.textContent)).toEqual(['Ali Cat 200', '<img src=x onerror=alert(1)> 100']);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByTestId('team-progress-error').textContent).toBe('Lost Soul: Wise Old Man does not know this player.');
  });

  it('caps the bar at full past the need, formats thousands, and leaves the shares out when compact', () => {
    render(<ProgressBar progress={{ ...PROGRESS, have: 1_234_567, need: 1_000_000, unit: 'xp' }} teamName="Blue" compact />);
    expect(screen.getByText('1,234,567 / 1,000,000 xp')).toBeTruthy();
    expect((screen.getByRole('progressbar') as HTMLProgressElement).value).toBe(1_000_000);
    expect(screen.queryAllByTestId('team-progress-share')).toEqual([]);
    expect(screen.queryByTestId('team-progress-error')).toBeNull();
  });

  it('a progress update with the next version carries the new progress into the held game', () => {
    const state = { team_id: 1, team_name: 'Red Team', team_color: '#aa0000', current_position: 7, revert_count: 0, position_history: [1, 7], task_state: 'open' as const, square_since: 't', task_override: null, relief_count: 0, progress: { ...PROGRESS, have: 0, by: [], errors: [] } };
    const held = { id: 3, version: 5, status: 'in-progress', winners: null, team_states: [state] } as unknown as Game;
    const merged = mergeProgress(held, { id: 3, version: 6, status: 'in-progress', winners: null, team_states: [{ ...state, progress: PROGRESS }], last_move: null });
    expect(merged?.team_states[0].progress).toEqual(PROGRESS);
    // An older update changes nothing.
    expect(mergeProgress(merged!, { id: 3, version: 6, status: 'in-progress', winners: null, team_states: [state], last_move: null })?.team_states[0].progress).toEqual(PROGRESS);
  });
});
