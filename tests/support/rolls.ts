import { expect } from 'vitest';
import type { Locator } from 'playwright-core';

/** The part of a stored team state (the game API's team_states entry) a roll loop reads. */
interface RolledTeam {
  task_state: string;
  position_history: unknown[];
}

/**
 * Clicks a Leader's Roll Dice button (`roll`) until the team read by `state()` stands on a task
 * (task_state 'open'; a square without one lets it roll on), at most 10 rolls: each waits up to
 * 10 s for the button to be enabled and for the stored position history to grow. Fails the test
 * when the team is not on a task after them; answers the team's last stored state.
 */
export async function rollUntilOnTask<T extends RolledTeam>(roll: Locator, state: () => Promise<T>): Promise<T> {
  let team = await state();
  for (let i = 0; i < 10 && team.task_state !== 'open'; i += 1) {
    await expect.poll(() => roll.isEnabled(), { timeout: 10_000 }).toBe(true);
    const before = team.position_history.length;
    await roll.click();
    await expect.poll(async () => (await state()).position_history.length, { timeout: 10_000 }).toBeGreaterThan(before);
    team = await state();
  }
  expect(team.task_state).toBe('open');
  return team;
}
