import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { TEAM_BAD_COLOR, TEAM_NAME_REQUIRED, TEAM_NAME_TOO_LONG, type TeamMember } from '../../contract/team';
import { displayColor, normalizeHex, teamBody, teamFormError } from '../../src/features/teams/teamForm';
import { debounce, throttle } from '../../src/features/teams/rateLimit';
import { filterEligible } from '../../src/features/teams/IgnCombobox';
import { flattenEligible, withIgnReturned, withoutIgn } from '../../contract/eligibleIgns';
import { taskPoolMachine } from '../../machines/taskPool.machine';
import type { Task } from '../../contract/task';

/** Pure helpers of the Event Teams view and the task table chart (product-spec sections 4, 5, 9). */

describe('team form', () => {
  it('needs a trimmed name of at most 50 characters and a hex colour without alpha', () => {
    expect(teamFormError({ name: '  ', color: '#000000' })).toBe(TEAM_NAME_REQUIRED);
    expect(teamFormError({ name: 'x'.repeat(51), color: '#000000' })).toBe(TEAM_NAME_TOO_LONG);
    expect(teamFormError({ name: 'Red', color: '#11223344' })).toBe(TEAM_BAD_COLOR);
    expect(teamFormError({ name: 'Red', color: '#AbC' })).toBeNull();
    expect(teamBody({ name: ' Red ', color: '#AbC' })).toEqual({ name: 'Red', color: '#aabbcc' });
  });
  it('normalises hex colours and falls back to #cccccc for display', () => {
    expect(normalizeHex('ABCDEF')).toBe('#abcdef');
    expect(normalizeHex('#fff')).toBe('#ffffff');
    expect(normalizeHex('#ffff')).toBeNull();
    expect(normalizeHex('red')).toBeNull();
    expect(displayColor('nope')).toBe('#cccccc');
    expect(displayColor(null)).toBe('#cccccc');
  });
});

describe('eligible list', () => {
  const eligible = flattenEligible([
    { discord_id: 'd2', discord_username: 'bob', user_id: 2, osrs_accounts: [{ id: 21, ign: 'woox' }, { id: 22, ign: 'B0aty' }] },
    { discord_id: 'd1', discord_username: 'alice', user_id: 1, osrs_accounts: [{ id: 11, ign: 'Zezima' }] },
  ]);
  it('is one option per in-game account, sorted by name case-insensitively', () => {
    expect(eligible.map((e) => e.ign)).toEqual(['B0aty', 'woox', 'Zezima']);
    expect(eligible[0]).toEqual({ id: 22, ign: 'B0aty', discord_id: 'd2', discord_username: 'bob' });
  });
  it('loses an IGN when added and regains it, sorted, when removed', () => {
    const after = withoutIgn(eligible, 21);
    expect(after.map((e) => e.ign)).toEqual(['B0aty', 'Zezima']);
    const member: TeamMember = { id: 5, osrs_ign: 'woox', osrs_ign_id: 21, role: 'Member', discord_id: 'd2' };
    const back = withIgnReturned(after, member, { d2: 'bob' });
    expect(back.map((e) => e.ign)).toEqual(['B0aty', 'woox', 'Zezima']);
    expect(back[1].discord_username).toBe('bob');
    expect(withIgnReturned(back, member, {})).toBe(back);
    const stranger: TeamMember = { id: 6, osrs_ign: 'Alpha', osrs_ign_id: 99, role: 'Leader', discord_id: 'd9' };
    expect(withIgnReturned(back, stranger, {})[0]).toEqual({ id: 99, ign: 'Alpha', discord_id: 'd9', discord_username: null });
  });
  it('filters the dropdown by IGN or owner name', () => {
    expect(filterEligible(eligible, 'ZEZ').map((e) => e.ign)).toEqual(['Zezima']);
    expect(filterEligible(eligible, 'bob').map((e) => e.ign)).toEqual(['B0aty', 'woox']);
    expect(filterEligible(eligible, 'nobody')).toEqual([]);
  });
});

describe('colour picker rates (throttle 50 ms, debounce 100 ms)', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('throttle calls at once, then at most every 50 ms, ending on the last value', () => {
    const seen: string[] = [];
    const t = throttle((v: string) => seen.push(v), 50);
    t('a');
    t('b');
    t('c');
    expect(seen).toEqual(['a']);
    vi.advanceTimersByTime(49);
    expect(seen).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual(['a', 'c']);
    vi.advanceTimersByTime(200);
    expect(seen).toEqual(['a', 'c']);
  });

  it('debounce calls once, 100 ms after the last call; flush runs it now, cancel drops it', () => {
    const seen: string[] = [];
    const d = debounce((v: string) => seen.push(v), 100);
    d('a');
    vi.advanceTimersByTime(90);
    d('b');
    vi.advanceTimersByTime(90);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(10);
    expect(seen).toEqual(['b']);
    d('c');
    d.flush();
    expect(seen).toEqual(['b', 'c']);
    d('d');
    d.cancel();
    vi.advanceTimersByTime(500);
    expect(seen).toEqual(['b', 'c']);
  });
});

describe('taskPool chart', () => {
  it('starts sorted by difficulty ascending on page 1 of 10 rows, and goes back to page 1 on any filter, sort or size change', async () => {
    const actor = createActor(taskPoolMachine.provide({ actors: { loadTasks: fromPromise(async (): Promise<Task[]> => []) } })).start();
    const ctx = () => actor.getSnapshot().context;
    expect(ctx().sort).toEqual({ key: 'difficulty', direction: 'asc' });
    expect([ctx().page, ctx().pageSize]).toEqual([1, 10]);
    const again = (send: () => void) => {
      actor.send({ type: 'table.page', page: 3 });
      expect(ctx().page).toBe(3);
      send();
      expect(ctx().page).toBe(1);
    };
    again(() => actor.send({ type: 'table.search', value: 'x' }));
    again(() => actor.send({ type: 'table.sort', key: 'difficulty' }));
    expect(ctx().sort).toEqual({ key: 'difficulty', direction: 'desc' });
    again(() => actor.send({ type: 'table.sort', key: 'description' }));
    expect(ctx().sort).toEqual({ key: 'description', direction: 'asc' });
    again(() => actor.send({ type: 'table.pageSize', size: 25 }));
    again(() => actor.send({ type: 'tasks.toggleOthers' }));
    expect(ctx().showOthers).toBe(true);
    actor.stop();
  });
});
