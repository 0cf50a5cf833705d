import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { TEAM_BAD_COLOR, TEAM_NAME_REQUIRED, TEAM_NAME_TOO_LONG, type TeamMember } from '../../contract/team';
import { displayColor, normalizeHex, teamBody, teamFormError } from '../../src/features/teams/teamForm';
import { filterEligible } from '../../src/features/teams/IgnCombobox';
import { flattenEligible, withIgnReturned, withoutIgn } from '../../contract/eligibleIgns';
import { TASK_POOL_DELAYS, taskPoolMachine, type TaskPageResult } from '../../machines/taskPool.machine';
import { loadOtherClanPage, serverPage } from '../../src/features/tasks/taskTable';
import type { Task, TaskPageQuery } from '../../contract/task';

/** Pure helpers of the Event Teams view and the task table chart (docs/game-rules.md §6, §13; docs/client.md §12). */

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

describe('taskPool chart', () => {
  const task = (id: number, clan_id = 7): Task => ({ id, description: `Task ${id}`, difficulty: 'EASY', clan_id, clan_name: clan_id === 7 ? 'Iron Legion' : 'Blue Moon', auto_rule: null });

  /** The chart with the clan list answering at once and every page call recorded and answered by `answer` (default 45 tasks). */
  function pool(answer: (q: TaskPageQuery) => Promise<TaskPageResult> | TaskPageResult = (q) => ({ tasks: [task(q.offset + 1, 99)], offset: q.offset, total: 45, unfilteredTotal: q.q ? 90 : null })) {
    const pages: TaskPageQuery[] = [];
    const actor = createActor(
      taskPoolMachine.provide({
        actors: {
          loadClanTasks: fromPromise(async (): Promise<Task[]> => [task(1)]),
          loadTaskPage: fromPromise(async ({ input }: { input: TaskPageQuery }) => {
            pages.push(input);
            return answer(input);
          }),
        },
      }),
    ).start();
    return { actor, pages, snap: () => actor.getSnapshot(), ctx: () => actor.getSnapshot().context };
  }
  const settled = () => new Promise((r) => setTimeout(r, 0));

  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts sorted by difficulty ascending on page 1 of 10 rows, and goes back to page 1 on any filter, sort or size change', async () => {
    const { actor, ctx } = pool();
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
    expect(actor.getSnapshot().matches('others')).toBe(true);
    actor.stop();
  });

  it("with 'Show Other Clan Tasks' loads pages from the server: page and size at once, the search trimmed after 300 ms of quiet, on page 1", async () => {
    vi.useFakeTimers();
    const { actor, pages, snap, ctx } = pool();
    actor.send({ type: 'table.page', page: 2 });
    actor.send({ type: 'tasks.toggleOthers' });
    expect(snap().matches({ others: 'loading' })).toBe(true);
    expect(pages).toEqual([{ q: '', limit: 10, offset: 0 }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(snap().matches({ others: 'ready' })).toBe(true);
    expect(ctx().otherPage).toEqual({ tasks: [task(1, 99)], offset: 0, total: 45, unfilteredTotal: null });
    // Sorting is the server's: the event is not taken.
    expect(snap().can({ type: 'table.sort', key: 'description' })).toBe(false);
    actor.send({ type: 'table.page', page: 3 });
    expect(snap().matches({ others: 'refreshing' })).toBe(true);
    actor.send({ type: 'table.pageSize', size: 25 });
    expect(pages.slice(1)).toEqual([{ q: '', limit: 10, offset: 20 }, { q: '', limit: 25, offset: 0 }]);
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'table.page', page: 2 });
    await vi.advanceTimersByTimeAsync(0);
    // Typing: each keystroke restarts the wait; nothing is sent until it has been quiet for 300 ms.
    for (const value of ['m', 'mo', ' moon ']) {
      actor.send({ type: 'table.search', value });
      expect(snap().matches({ others: 'debouncing' })).toBe(true);
      expect(snap().hasTag('busy')).toBe(true);
      await vi.advanceTimersByTimeAsync(TASK_POOL_DELAYS.searchDebounce - 1);
    }
    expect(pages).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(pages.at(-1)).toEqual({ q: 'moon', limit: 25, offset: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(snap().matches({ others: 'ready' })).toBe(true);
    expect(ctx().otherPage?.unfilteredTotal).toBe(90);
    // Back to the own list, on page 1, loaded again.
    actor.send({ type: 'tasks.toggleOthers' });
    expect(snap().matches({ own: 'loading' })).toBe(true);
    expect(ctx().page).toBe(1);
    actor.stop();
  });

  it('keeps only the newest page load, and loads the last page when the asked one is past the end', async () => {
    vi.useFakeTimers();
    const answers: ((r: TaskPageResult) => void)[] = [];
    const { actor, pages, snap, ctx } = pool(() => new Promise<TaskPageResult>((resolve) => answers.push(resolve)));
    actor.send({ type: 'tasks.toggleOthers' });
    answers[0]({ tasks: [task(1, 99)], offset: 0, total: 45, unfilteredTotal: null });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'table.page', page: 2 });
    actor.send({ type: 'table.page', page: 3 });
    answers[1]({ tasks: [task(11, 99)], offset: 10, total: 45, unfilteredTotal: null }); // stopped: ignored
    await vi.advanceTimersByTimeAsync(0);
    expect(snap().matches({ others: 'refreshing' })).toBe(true);
    // Tasks were deleted meanwhile: page 3 is empty and 12 tasks are left, so page 2 is loaded.
    answers[2]({ tasks: [], offset: 20, total: 12, unfilteredTotal: null });
    await vi.advanceTimersByTimeAsync(0);
    expect(snap().matches({ others: 'refreshing' })).toBe(true);
    expect(pages.at(-1)).toEqual({ q: '', limit: 10, offset: 10 });
    answers[3]({ tasks: [task(11, 99), task(12, 99)], offset: 10, total: 12, unfilteredTotal: null });
    await vi.advanceTimersByTimeAsync(0);
    expect(snap().matches({ others: 'ready' })).toBe(true);
    expect([ctx().page, ctx().otherPage?.tasks.map((t) => t.id)]).toEqual([2, [11, 12]]);
    actor.stop();
  });

  it('shows the load error and loads again at once on a search or retry while no page is shown', async () => {
    let fail = true;
    const { actor, pages, snap, ctx } = pool(async (q) => {
      if (fail) throw new Error('Network error. Failed to connect to the server.');
      return { tasks: [], offset: q.offset, total: 0, unfilteredTotal: q.q ? 3 : null };
    });
    actor.send({ type: 'tasks.toggleOthers' });
    await settled();
    expect(snap().matches({ others: 'failed' })).toBe(true);
    expect(ctx().error).toBe('Network error. Failed to connect to the server.');
    fail = false;
    actor.send({ type: 'table.search', value: 'zz' });
    expect(snap().matches({ others: 'loading' })).toBe(true);
    expect(pages.at(-1)).toEqual({ q: 'zz', limit: 10, offset: 0 });
    await settled();
    expect(snap().matches({ others: 'ready' })).toBe(true);
    expect(ctx().error).toBeNull();
    actor.stop();
  });

  it('loadOtherClanPage asks the unfiltered count (limit 0) only for a search; serverPage labels the rows', async () => {
    const calls: [TaskPageQuery, AbortSignal | undefined][] = [];
    const signal = new AbortController().signal;
    const fetchPage = async (q: TaskPageQuery, s?: AbortSignal) => {
      calls.push([q, s]);
      return q.limit === 0 ? { tasks: [], total: 145 } : { tasks: [task(21, 99)], total: q.q ? 1 : 145 };
    };
    expect(await loadOtherClanPage(fetchPage, { q: '', limit: 10, offset: 20 }, signal)).toEqual({ tasks: [task(21, 99)], offset: 20, total: 145, unfilteredTotal: null });
    expect(await loadOtherClanPage(fetchPage, { q: 'rival', limit: 10, offset: 0 }, signal)).toEqual({ tasks: [task(21, 99)], offset: 0, total: 1, unfilteredTotal: 145 });
    expect(calls).toEqual([
      [{ q: '', limit: 10, offset: 20 }, signal],
      [{ q: 'rival', limit: 10, offset: 0 }, signal],
      [{ q: '', limit: 0, offset: 0 }, signal],
    ]);
    expect(serverPage(['a', 'b'], 20, 22, 3, 10)).toEqual({ rows: ['a', 'b'], page: 3, pageCount: 3, from: 21, to: 22, total: 22 });
    expect(serverPage([], 0, 0, 1, 10)).toEqual({ rows: [], page: 1, pageCount: 1, from: 0, to: 0, total: 0 });
  });
});
