import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TIERS, tierRank } from '../../contract/game/tiers';
import type { Task } from '../../contract/task';
import { filterTasks, sortTasks } from '../../src/features/tasks/taskTable';
import { paginate } from '../../src/ui/tableModel';
import { isCsvName } from '../../machines/csvImport.machine';

/** Pure helpers of the Tasks tab table (docs/client.md §8, §12; docs/game-rules.md §13). */

let nextId = 1;
const task = (description: string, difficulty: Task['difficulty'], clan_name = 'Iron Legion', clan_id = 1): Task => ({ id: nextId++, description, difficulty, clan_id, clan_name, auto_rule: null });

const POOL: Task[] = [
  task('Zulrah kill', 'ELITE'),
  task('Catch a shrimp', 'EASY'),
  task('Inferno cape', 'MASTER'),
  task('Barrows chest', 'MEDIUM'),
  task('Abyssal whip', 'HARD'),
  task('Anchovy pizza', 'EASY', 'Blue Moon', 2),
];

describe('sorting in tier order', () => {
  it('sorts difficulty EASY < MEDIUM < HARD < ELITE < MASTER, not alphabetically', () => {
    const asc = sortTasks(POOL, { key: 'difficulty', direction: 'asc' }).map((t) => t.difficulty);
    expect(asc).toEqual(['EASY', 'EASY', 'MEDIUM', 'HARD', 'ELITE', 'MASTER']);
    const desc = sortTasks(POOL, { key: 'difficulty', direction: 'desc' }).map((t) => t.difficulty);
    expect(desc).toEqual(['MASTER', 'ELITE', 'HARD', 'MEDIUM', 'EASY', 'EASY']);
    // Ties inside a tier go by description.
    expect(sortTasks(POOL, { key: 'difficulty', direction: 'asc' }).slice(0, 2).map((t) => t.description)).toEqual(['Anchovy pizza', 'Catch a shrimp']);
  });

  it('sorts description and clan name alphabetically, case-insensitively', () => {
    expect(sortTasks([task('b', 'EASY'), task('A', 'EASY'), task('c', 'EASY')], { key: 'description', direction: 'asc' }).map((t) => t.description)).toEqual(['A', 'b', 'c']);
    expect(sortTasks(POOL, { key: 'clan_name', direction: 'asc' })[0].clan_name).toBe('Blue Moon');
  });

  it('is in tier order for any list and does not change its input (property)', () => {
    const arb = fc.array(fc.record({ description: fc.string({ maxLength: 8 }), difficulty: fc.constantFrom(...TIERS) }), { maxLength: 40 });
    fc.assert(
      fc.property(arb, (rows) => {
        const tasks = rows.map((r, i) => ({ id: i + 1, clan_id: 1, clan_name: 'C', auto_rule: null, ...r }));
        const before = JSON.stringify(tasks);
        const sorted = sortTasks(tasks, { key: 'difficulty', direction: 'asc' });
        expect(JSON.stringify(tasks)).toBe(before);
        expect(sorted).toHaveLength(tasks.length);
        for (let i = 1; i < sorted.length; i++) expect(tierRank(sorted[i - 1].difficulty)).toBeLessThanOrEqual(tierRank(sorted[i].difficulty));
      }),
    );
  });
});

describe('search', () => {
  it('matches description, difficulty or clan name as a case-insensitive substring', () => {
    expect(filterTasks(POOL, 'SHRIMP').map((t) => t.description)).toEqual(['Catch a shrimp']);
    expect(filterTasks(POOL, 'master').map((t) => t.description)).toEqual(['Inferno cape']);
    expect(filterTasks(POOL, 'blue moon')).toHaveLength(1);
    expect(filterTasks(POOL, '  ')).toHaveLength(POOL.length);
  });
});

describe('pagination', () => {
  const rows = Array.from({ length: 23 }, (_, i) => i + 1);
  it('cuts pages of 10 with their range', () => {
    expect(paginate(rows, 1, 10)).toMatchObject({ rows: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], page: 1, pageCount: 3, from: 1, to: 10, total: 23 });
    expect(paginate(rows, 3, 10)).toMatchObject({ rows: [21, 22, 23], from: 21, to: 23 });
    expect(paginate(rows, 1, 25)).toMatchObject({ pageCount: 1, from: 1, to: 23 });
    expect(paginate(rows, 1, 50).rows).toHaveLength(23);
  });
  it('clamps the page into range, and an empty list is one empty page', () => {
    expect(paginate(rows, 9, 10).page).toBe(3);
    expect(paginate(rows, 0, 10).page).toBe(1);
    expect(paginate([], 1, 10)).toEqual({ rows: [], page: 1, pageCount: 1, from: 0, to: 0, total: 0 });
  });
  it('shows every row exactly once over all pages (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.constantFrom(10, 25, 50), (n, size) => {
        const list = Array.from({ length: n }, (_, i) => i);
        const first = paginate(list, 1, size);
        const seen = Array.from({ length: first.pageCount }, (_, p) => paginate(list, p + 1, size).rows).flat();
        expect(seen).toEqual(list);
      }),
    );
  });
});

describe('CSV file name rule', () => {
  it('accepts names ending in .csv only', () => {
    expect(isCsvName('tasks.csv')).toBe(true);
    expect(isCsvName('TASKS.CSV')).toBe(true);
    expect(isCsvName('tasks.csv.txt')).toBe(false);
    expect(isCsvName('tasks')).toBe(false);
  });
});
