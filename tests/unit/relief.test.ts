import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RELIEF_MESSAGES, reliefIndex, reliefIndexFromSigner } from '../../contract/game/relief';
import { currentTaskOf, leaderReliefOf, reliefButtonText } from '../../contract/game/reliefView';
import type { Game } from '../../contract/gameApi';
import type { TaskState } from '../../contract/submission';
import { fixtureGame } from '../support/gameFixtures';
import { checkReliefDraft, reliefDraftOf, RELIEF_DRAFT_MESSAGES } from '../../contract/game/settingsDraft';

/**
 * The relief draw (docs/server.md §15; contract/game/relief.ts): the substitute's index from the
 * game's dice seed, checked against node:crypto's HMAC computed here by hand, and the rejection
 * rule driven with made-up digests.
 */

const SEED = 'a3'.repeat(32);

/** The draw computed independently: node:crypto HMAC, big-endian words, rejection past the largest multiple. */
function byHand(seed: string, gameId: number, teamId: number, k: number, count: number): number {
  const limit = Math.floor(2 ** 32 / count) * count;
  for (let attempt = 0; ; attempt += 1) {
    const message = attempt === 0 ? `${gameId}:relief:${teamId}:${k}` : `${gameId}:relief:${teamId}:${k}:${attempt}`;
    const digest = crypto.createHmac('sha256', Buffer.from(seed, 'hex')).update(message).digest();
    for (let i = 0; i < 32; i += 4) {
      const word = digest.readUInt32BE(i);
      if (word < limit) return word % count;
    }
  }
}

describe('reliefIndex', () => {
  it('equals the draw computed by hand with node:crypto, for many teams, reliefs and pool sizes', async () => {
    for (const [gameId, teamId, k, count] of [[1, 1, 1, 1], [7, 3, 1, 2], [7, 3, 2, 2], [42, 9, 1, 17], [42, 9, 2, 17], [1000, 55, 3, 144], [5, 5, 1, 3_000_000_000]]) {
      const index = await reliefIndex(SEED, gameId, teamId, k, count);
      expect(index, `${gameId}:${teamId}:${k} of ${count}`).toBe(byHand(SEED, gameId, teamId, k, count));
      expect(index).toBeGreaterThanOrEqual(0);
      expect(index).toBeLessThan(count);
    }
  });

  it('draws every candidate, about equally often', async () => {
    const seen = new Array<number>(5).fill(0);
    for (let team = 1; team <= 500; team += 1) seen[await reliefIndex(SEED, 9, team, 1, 5)] += 1;
    for (const n of seen) expect(n).toBeGreaterThan(60);
  });

  it('skips words at or past the largest multiple of the count, then tries the next message', async () => {
    const asked: string[] = [];
    // count 3: limit = 4294967295 (3 × 1431655765); 0xffffffff is past it.
    const rejectAll = new Uint8Array(32).fill(0xff);
    const second = new Uint8Array(32).fill(0xff);
    second.set([0, 0, 0, 7], 8);
    const sign = async (message: string) => {
      asked.push(message);
      return asked.length === 1 ? rejectAll : second;
    };
    expect(await reliefIndexFromSigner(sign, 4, 2, 1, 3)).toBe(7 % 3);
    expect(asked).toEqual(['4:relief:2:1', '4:relief:2:1:1']);
  });

  it('refuses bad ids, relief numbers and an empty pool', async () => {
    await expect(reliefIndex(SEED, 0, 1, 1, 2)).rejects.toThrow(RangeError);
    await expect(reliefIndex(SEED, 1, 1, 0, 2)).rejects.toThrow(RangeError);
    await expect(reliefIndex(SEED, 1, 1, 1, 0)).rejects.toThrow(RangeError);
  });

  it('words the refusals and the log line as the contract does', () => {
    expect(RELIEF_MESSAGES.tooEarly(6)).toBe('A new task can be asked for after 6 h on the square.');
    expect(RELIEF_MESSAGES.limit('Red')).toBe('No relief left for Red.');
    expect(RELIEF_MESSAGES.noneLeft('HARD')).toBe('No other HARD task is left in the pool.');
    expect(RELIEF_MESSAGES.log('Red', 12, 30, 'Kill Zulrah')).toBe('Red was stuck on square 12 for 30 h: new task "Kill Zulrah".');
  });
});

/** The play screen's relief rules (contract/game/reliefView.ts; docs/game-rules.md §15). */
describe('reliefView', () => {
  const game = (over: Partial<Game> = {}, task_state: TaskState = 'open') =>
    fixtureGame({ relief_after_hours: 3, team_states: fixtureGame().team_states.map((t) => (t.team_id === 11 ? { ...t, task_state, current_position: 7 } : t)), ...over });
  const since = Date.parse('2025-05-01T10:00:00.000Z');

  it('offers relief to the Leader of a team whose task is open or denied, from square_since + relief_after_hours', () => {
    expect(leaderReliefOf(game())).toEqual({ teamId: 11, allowedAt: since + 3 * 3_600_000 });
    expect(leaderReliefOf(game({}, 'denied'))).toEqual({ teamId: 11, allowedAt: since + 3 * 3_600_000 });
    for (const state of ['none', 'submitted', 'approved'] as const) expect(leaderReliefOf(game({}, state))).toBeNull();
    expect(leaderReliefOf(game({ relief_after_hours: null }))).toBeNull();
    expect(leaderReliefOf(fixtureGame({ relief_after_hours: 3 }, 'member'))).toBeNull();
    expect(leaderReliefOf(null)).toBeNull();
  });

  it('labels the button with the wait left, to the nearest minute (at least 1 min)', () => {
    const at = since + 3 * 3_600_000;
    expect(reliefButtonText(at, at)).toBe('Ask for a new task');
    expect(reliefButtonText(at, at + 1)).toBe('Ask for a new task');
    expect(reliefButtonText(at, since)).toBe('Ask for a new task in 3 h');
    expect(reliefButtonText(at, at - 90 * 60_000 - 1)).toBe('Ask for a new task in 1 h 30 min');
    expect(reliefButtonText(at, at - 60 * 60_000 - 200)).toBe('Ask for a new task in 1 h');
    expect(reliefButtonText(at, at - 1000)).toBe('Ask for a new task in 1 min');
  });

  it("shows the substitute in place of the square's task", () => {
    const square = { task_description: 'Kill Zulrah', task_difficulty: 'HARD' as const };
    expect(currentTaskOf({ task_override: null }, square)).toEqual({ description: 'Kill Zulrah', tier: 'HARD', substitute: false });
    expect(currentTaskOf({ task_override: { description: 'Kill Vorkath', difficulty: 'HARD' } }, square)).toEqual({ description: 'Kill Vorkath', tier: 'HARD', substitute: true });
    expect(currentTaskOf({}, { task_description: 'Start', task_difficulty: null })).toBeNull();
  });
});

/** The settings form's relief fields (contract/game/settingsDraft.ts checkReliefDraft; docs/server.md §15 limits). */
describe('checkReliefDraft', () => {
  it('takes empty hours as off and whole numbers in range', () => {
    expect(checkReliefDraft({ afterHours: '', maxPerTeam: '2' })).toEqual({ ok: true, settings: { relief_after_hours: null, relief_max_per_team: 2 } });
    expect(checkReliefDraft({ afterHours: ' 1 ', maxPerTeam: '0' })).toEqual({ ok: true, settings: { relief_after_hours: 1, relief_max_per_team: 0 } });
    expect(checkReliefDraft({ afterHours: '168', maxPerTeam: '10' })).toEqual({ ok: true, settings: { relief_after_hours: 168, relief_max_per_team: 10 } });
    expect(reliefDraftOf(null)).toEqual({ afterHours: '', maxPerTeam: '2' });
    expect(reliefDraftOf({ relief_after_hours: 6, relief_max_per_team: 1 })).toEqual({ afterHours: '6', maxPerTeam: '1' });
  });
  it('refuses hours outside 1..168, fractions, and limits outside 0..10', () => {
    for (const afterHours of ['0', '169', '1.5', '-3', 'abc']) expect(checkReliefDraft({ afterHours, maxPerTeam: '2' })).toEqual({ ok: false, error: RELIEF_DRAFT_MESSAGES.afterHours, field: 'afterHours' });
    for (const maxPerTeam of ['', '11', '-1', '2.5']) expect(checkReliefDraft({ afterHours: '', maxPerTeam })).toEqual({ ok: false, error: RELIEF_DRAFT_MESSAGES.maxPerTeam, field: 'maxPerTeam' });
  });
});
