import { describe, expect, it } from 'vitest';
import { parseTaskCsv } from '../../server/tasks/csv';
import { AUTO_RULE_MESSAGES } from '../../contract/dink';

/**
 * The task CSV's one numeric column, `auto_min` (docs/server.md §13), takes only whole numbers
 * written in plain digits: what Number() would also read (hex, binary, octal, exponents, signs,
 * points, Infinity) is a row error, as in the sign-up scores CSV (docs/server.md §16).
 */
describe('task CSV auto_min', () => {
  const csv = (mins: string[]) => ['description,difficulty,auto_type,auto_names,auto_min', ...mins.map((m, i) => `Task ${i},EASY,KILL_COUNT,Zulrah,${m}`)].join('\n');

  it('takes plain digits', () => {
    const { tasks, errors } = parseTaskCsv(csv(['1', '50', ' 007 ', '2147483647', '']));
    expect(errors).toEqual([]);
    expect(tasks.map((t) => t.auto_rule?.min)).toEqual([1, 50, 7, 2147483647, null]);
  });

  it('refuses whatever else Number() would read as a number', () => {
    const bad = ['0x10', '0b101', '0o7', '1e3', '.5', '5.', '5.0', '+5', '-1', '0', 'Infinity', '1_000', '"1,000"', '2147483648', '١٢'];
    const { tasks, errors } = parseTaskCsv(csv(bad));
    expect(tasks).toEqual([]);
    expect(errors).toEqual(bad.map((_, i) => ({ row: i + 2, message: AUTO_RULE_MESSAGES.min })));
  });
});
