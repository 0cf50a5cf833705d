import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { clientOnlyBackends } from '../support/server';
import { useBrowserSuite } from '../support/suite';
import { browserAvailable } from '../support/browser';
import { JOURNEY_MS, openAnonymous, openSignedIn } from '../support/e2e';
import { seriousA11yViolations } from '../support/axe';
import { castOf, newGame, stored } from '../support/liveSocket';
import { verifyPath } from '../../src/base/paths';
import { VERIFY_TEXTS } from '../../src/features/verify/VerifyDicePage';
import { commitmentOf } from '../../contract/game/dice';

/**
 * Verifiable dice in headless Chromium against the real server (docs/game-rules.md
 * §9), with BOARD_SEED unset, so the seed is truly random: an anonymous visitor opens the
 * 'Verify dice' view before the first roll and sees the commitment with the seed sealed; the Red
 * Leader sees 'Dice commitment: <hex>' on the game screen and rolls with the Roll Dice button
 * until Red wins; the Verify dice link then opens the view, which recomputes every roll in the
 * browser and marks each one Verified. With a history changed in flight by the test (one die of
 * roll 3, through page.route), exactly that roll is marked Not verified.
 */
const run = browserAvailable() ? describe : describe.skip;

const MAX_ROLLS = 40;

run.each(clientOnlyBackends())('verify dice in Chromium (%s)', (backend) => {
  const suite = useBrowserSuite(backend, { ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000' });
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
  });

  /** An anonymous browser page (its uncaught errors collected). */
  async function anonymousPage(): Promise<{ page: Page; errors: string[] }> {
    const person = await openAnonymous(suite.browser);
    contexts.push(person.context);
    return person;
  }

  /** The results the verify view marks, by roll index, once its report is on screen in `phase`. */
  async function marks(page: Page, phase: 'sealed' | 'checked'): Promise<Record<string, string>> {
    await page.locator(`[data-testid="verify-report"][data-phase="${phase}"]`).waitFor();
    const rows = page.getByTestId('dice-roll');
    const out: Record<string, string> = {};
    for (let i = 0; i < (await rows.count()); i += 1) out[(await rows.nth(i).getAttribute('data-roll'))!] = (await rows.nth(i).getAttribute('data-result'))!;
    return out;
  }

  it('a game played to the winner: every roll verified in the browser, and a tampered roll caught', { timeout: JOURNEY_MS }, async () => {
    const cast = await castOf(suite.url, `verify-${backend}`);
    const game = await newGame(cast, { size: 25, noWin: false });
    const created = await stored(cast, game);
    expect(created.dice_seed).toBeNull();

    // Before the first roll: the commitment is public, the seed sealed.
    const visitor = await anonymousPage();
    await visitor.page.goto(`${suite.url}${verifyPath(game.gameId)}`);
    expect(await marks(visitor.page, 'sealed')).toEqual({});
    expect(await visitor.page.getByTestId('dice-commitment').textContent()).toBe(created.dice_commitment);
    expect(await visitor.page.getByTestId('verify-summary').textContent()).toBe(VERIFY_TEXTS.sealed);
    expect(await visitor.page.getByTestId('verify-empty').textContent()).toBe(VERIFY_TEXTS.noRolls);

    // The Red Leader's game screen shows the commitment from the start, then rolls until Red wins.
    const leader = await openSignedIn(suite.browser, suite.server, cast.owner);
    contexts.push(leader.context);
    await leader.page.goto(`${suite.url}/games/clan/${cast.clanId}/events/${game.eventId}/game/${game.gameId}`);
    await leader.page.getByTestId('connection-state').getByText('Live').waitFor();
    expect(await leader.page.getByTestId('game-dice-commitment').textContent()).toBe(created.dice_commitment);
    let rolls = 0;
    let state = await stored(cast, game);
    while (state.status !== 'finished') {
      expect(rolls).toBeLessThan(MAX_ROLLS);
      const roll = leader.page.getByRole('button', { name: 'Roll Dice' });
      await expect.poll(() => roll.isEnabled(), { timeout: 10_000 }).toBe(true);
      await roll.click();
      rolls += 1;
      const before = state.version;
      await expect.poll(async () => (await stored(cast, game)).version, { timeout: 10_000 }).toBeGreaterThan(before);
      state = await stored(cast, game);
      await expect.poll(() => leader.page.locator('[data-testid="team-position"][data-team="Red Team"]').getAttribute('data-position'), { timeout: 10_000 })
        .toBe(String(state.team_states.find((t) => t.team_id === game.team1)!.current_position));
    }
    expect(state.winners).toEqual([{ name: 'Red Team', color: '#aa0000' }]);
    expect(await commitmentOf(state.dice_seed!)).toBe(created.dice_commitment);
    expect(await leader.page.getByTestId('game-dice-commitment').textContent()).toBe(created.dice_commitment);

    // The Verify dice link: every roll recomputed in the browser and verified.
    await leader.page.getByRole('link', { name: 'Verify dice' }).click();
    await leader.page.waitForURL(`**${verifyPath(game.gameId)}`);
    const verified = await marks(leader.page, 'checked');
    expect(verified).toEqual(Object.fromEntries(Array.from({ length: rolls }, (_, i) => [String(i + 1), 'verified'])));
    expect(await leader.page.getByTestId('verify-summary').textContent()).toBe(VERIFY_TEXTS.allVerified(rolls));
    expect(await leader.page.getByTestId('verify-commitment').textContent()).toBe(VERIFY_TEXTS.commitmentMatches);
    expect(await leader.page.getByTestId('dice-seed').textContent()).toBe(state.dice_seed);
    expect(await leader.page.getByRole('heading', { name: 'How the dice work, and how to check them by hand' }).isVisible()).toBe(true);
    expect(await seriousA11yViolations(leader.page)).toEqual([]);

    // The same page, its history changed in flight: roll 3's die is not the seed's, and only it is caught.
    await visitor.page.route(`**/api/public/game/${game.gameId}/history`, async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      const third = body.moves.find((m: { roll_index: number | null }) => m.roll_index === 3);
      third.die = (third.die % 6) + 1;
      await route.fulfill({ response, json: body });
    });
    await visitor.page.getByRole('button', { name: 'Check again' }).click();
    const tampered = await marks(visitor.page, 'checked');
    expect(tampered['3']).toBe('failed');
    expect(Object.entries(tampered).filter(([, r]) => r !== 'verified')).toEqual([['3', 'failed']]);
    expect(Object.keys(tampered)).toHaveLength(rolls);
    expect(await visitor.page.getByTestId('verify-summary').textContent()).toBe(VERIFY_TEXTS.someFailed(1, rolls));
    expect(await visitor.page.locator('[data-roll="3"]').getByText('Not verified').isVisible()).toBe(true);

    expect(leader.errors).toEqual([]);
    expect(visitor.errors).toEqual([]);
  });
});
