import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, beforeAll } from 'vitest';
import * as v from 'valibot';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { ApiClient } from '../support/api';
import { uploadTasksCsv } from '../support/fixtures';
import { castOf, newGame, stored, type Cast } from '../support/liveSocket';
import { AUTO_RULE_MESSAGES } from '../../contract/dink';
import { TaskAnswerSchema, TaskListAnswerSchema, TaskPageAnswerSchema } from '../../contract/task';
import { expectError, fillPool } from './dinkSupport';

/**
 * Team-total rules in the task API and the CSV import over real HTTP, on both databases
 * (docs/server.md §17 Rules): `team_total` and `distinct` in create, edit and every task shape (the
 * clan's pool, other clans' page, the game's board squares), the Wise Old Man types XP, KC, EHB and
 * EHP with their names checked against Wise Old Man's metric lists, the 400 texts in the order the
 * schema checks them, the CSV columns `auto_total` and `auto_distinct` with their row errors, and
 * the sample pool's team-total rows.
 */

const EMPTY = { min: null, team_total: null, distinct: false };

describe.each(backends())('team-total rules (%s)', (backend) => {
  const suite = useServerSuite(backend);
  let cast: Cast;
  let base: string;
  let n = 0;

  beforeAll(async () => {
    cast = await castOf(suite.url, `tt-${backend}`);
    base = `/api/clan/${cast.clanId}/tasks`;
  });

  /** Creates a task with `rule` and answers the response. */
  const make = (rule: unknown, description = `Team total task ${++n}`) => cast.owner.post(base, { description, difficulty: 'HARD', auto_rule: rule });

  it('create, edit and every shape carry team_total and distinct; Wise Old Man names are stored lower case; old-style rules read with defaults', async () => {
    const made = await make({ type: 'xp', names: ['Fishing'], team_total: 500000 }, 'Team fishing');
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const task = v.parse(TaskAnswerSchema, made.body).task;
    expect(task.auto_rule).toEqual({ type: 'XP', names: ['fishing'], min: null, team_total: 500000, distinct: false });

    const edited = await cast.owner.put(`${base}/${task.id}`, {
      description: 'Any three Zulrah uniques',
      difficulty: 'ELITE',
      auto_rule: { type: 'LOOT', names: ['Tanzanite fang', 'Magic fang', 'Serpentine visage', 'Tanzanite mutagen', 'Magma mutagen'], team_total: 3, distinct: true },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const rule = { type: 'LOOT', names: ['Tanzanite fang', 'Magic fang', 'Serpentine visage', 'Tanzanite mutagen', 'Magma mutagen'], min: null, team_total: 3, distinct: true };
    expect(edited.body.task.auto_rule).toEqual(rule);
    // Left out on edit: kept.
    const kept = await cast.owner.put(`${base}/${task.id}`, { description: 'Any three Zulrah uniques!', difficulty: 'ELITE' });
    expect(kept.body.task.auto_rule).toEqual(rule);

    const list = v.parse(TaskListAnswerSchema, (await cast.member.get(base)).body).tasks;
    expect(list.find((t) => t.id === task.id)!.auto_rule).toEqual(rule);
    const page = await cast.owner.get(`/api/tasks/?q=${encodeURIComponent('Any three Zulrah uniques!')}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(v.parse(TaskPageAnswerSchema, page.body).tasks.find((t) => t.id === task.id)!.auto_rule).toEqual(rule);

    // EHB and EHP take no names; a Dink rule without the new fields reads as before with defaults.
    const ehb = await make({ type: 'EHB', names: [], team_total: 20 });
    expect(ehb.body.task.auto_rule).toEqual({ type: 'EHB', names: [], min: null, team_total: 20, distinct: false });
    const old = await make({ type: 'KILL_COUNT', names: ['Zulrah'], min: 50 });
    expect(old.body.task.auto_rule).toEqual({ type: 'KILL_COUNT', names: ['Zulrah'], min: 50, team_total: null, distinct: false });
    const kc = await make({ type: 'KC', names: ['zulrah', 'clue_scrolls_all', 'ZULRAH'], team_total: 1_000_000_000 });
    expect(kc.body.task.auto_rule).toEqual({ type: 'KC', names: ['zulrah', 'clue_scrolls_all'], ...EMPTY, team_total: 1_000_000_000 });
  });

  it('400s in order: a total with a minimum, a Wise Old Man type without a total, bad totals and distinct, names that are no metric of that kind (named)', async () => {
    for (const [rule, message] of [
      [{ type: 'LOOT', names: ['Cowhide'], min: 5, team_total: 100 }, 'A team total and a minimum cannot be combined.'],
      [{ type: 'XP', names: ['fishing'], min: 5, team_total: 100 }, 'A team total and a minimum cannot be combined.'],
      [{ type: 'XP', names: ['fishing'] }, 'This rule needs a team total.'],
      [{ type: 'KC', names: ['zulrah'], team_total: null }, 'This rule needs a team total.'],
      [{ type: 'EHB', names: [] }, 'This rule needs a team total.'],
      [{ type: 'EHP', names: [], min: 3 }, 'This rule needs a team total.'],
      [{ type: 'LOOT', names: ['Cowhide'], team_total: 0 }, AUTO_RULE_MESSAGES.teamTotal],
      [{ type: 'LOOT', names: ['Cowhide'], team_total: 1_000_000_001 }, AUTO_RULE_MESSAGES.teamTotal],
      [{ type: 'LOOT', names: ['Cowhide'], team_total: 2.5 }, AUTO_RULE_MESSAGES.teamTotal],
      [{ type: 'LOOT', names: ['Cowhide'], team_total: '100' }, AUTO_RULE_MESSAGES.teamTotal],
      [{ type: 'LOOT', names: ['Cowhide'], team_total: 3, distinct: 'yes' }, AUTO_RULE_MESSAGES.distinct],
      [{ type: 'XP', names: [], team_total: 100 }, AUTO_RULE_MESSAGES.names],
      [{ type: 'XP', names: ['fishin'], team_total: 100 }, "auto_rule name 'fishin' is not a Wise Old Man skill metric."],
      [{ type: 'XP', names: ['fishing', 'zulrah'], team_total: 100 }, "auto_rule name 'zulrah' is not a Wise Old Man skill metric."],
      [{ type: 'KC', names: ['fishing'], team_total: 100 }, "auto_rule name 'fishing' is not a Wise Old Man boss or activity metric."],
      [{ type: 'EHB', names: ['zulrah'], team_total: 100 }, "auto_rule name 'zulrah' is not allowed: EHB rules take no names."],
      [{ type: 'WOM', names: ['x'], team_total: 100 }, AUTO_RULE_MESSAGES.type],
    ] as const) {
      expectError(await make(rule), 400, message);
    }
    // The same texts on edit; the task keeps its rule.
    const t = await make({ type: 'KC', names: ['vorkath'], team_total: 3 });
    expectError(await cast.owner.put(`${base}/${t.body.task.id}`, { description: t.body.task.description, difficulty: 'HARD', auto_rule: { type: 'KC', names: ['vorkat'], team_total: 3 } }), 400, "auto_rule name 'vorkat' is not a Wise Old Man boss or activity metric.");
    const list = v.parse(TaskListAnswerSchema, (await cast.owner.get(base)).body).tasks;
    expect(list.find((x) => x.id === t.body.task.id)!.auto_rule).toEqual({ type: 'KC', names: ['vorkath'], ...EMPTY, team_total: 3 });
  });

  it("the game's board squares carry the rule with team_total and distinct", async () => {
    await fillPool(cast.owner, cast.clanId);
    const game = await newGame(cast, { start: false });
    const g = await stored(cast, game);
    const square = g.board_squares.find((s) => s.task_id !== null)!;
    const r = await cast.owner.put(`${base}/${square.task_id}`, { description: square.task_description, difficulty: square.task_difficulty, auto_rule: { type: 'COLLECTION', names: ['Pet snakeling', 'Tanzanite mutagen'], team_total: 2, distinct: true } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // A pool edit is no change of the game (its cached shape keeps its version): starting it is.
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    const shown = (await stored(cast, game)).board_squares.find((s) => s.id === square.id)!;
    expect(shown.auto_rule).toEqual({ type: 'COLLECTION', names: ['Pet snakeling', 'Tanzanite mutagen'], min: null, team_total: 2, distinct: true });
  });

  it('CSV: auto_total and auto_distinct columns (true/false, blank false); each bad row listed with its text; good rows kept', async () => {
    const other = new ApiClient(suite.url);
    const me = await other.onboard(`tt-csv-${backend}`, ['Total Owner'], { role: 'Owner', clan_name: `Team totals ${backend}` });
    const clanId = me.clan_memberships_list[0].clan_id as number;
    // Each row with the error it must be listed with (none: imported); the header is line 1, so the row at index i is line i + 2.
    const rows: [line: string, error?: string][] = [
      ['"Team: 500,000 Fishing XP",HARD,XP,Fishing,,500000,'], // blank distinct
      ['Team: 50 Zulrah kills,HARD,KC,zulrah,,50,false'],
      ['Any 3 Zulrah uniques,ELITE,LOOT,Tanzanite fang|Magic fang|Serpentine visage|Tanzanite mutagen|Magma mutagen,,3,TRUE'],
      ["500 scales,MEDIUM,LOOT,Zulrah's scales,,500,"],
      ['Plain,EASY,,,,,'], // no rule
      ['Old rule,EASY,KILL_COUNT,Zulrah,5,,'], // no total
      ['Both,EASY,LOOT,Cowhide,5,100,', 'A team total and a minimum cannot be combined.'],
      ['No total,EASY,XP,fishing,,,', 'This rule needs a team total.'],
      ['Bad skill,EASY,XP,fishin,,100,', "auto_rule name 'fishin' is not a Wise Old Man skill metric."],
      ['Bad total,EASY,LOOT,Cowhide,,lots,', AUTO_RULE_MESSAGES.teamTotal],
      ['Bad distinct,EASY,LOOT,Cowhide,,3,yes', AUTO_RULE_MESSAGES.distinct],
      ['Zero total,EASY,LOOT,Cowhide,,0,', AUTO_RULE_MESSAGES.teamTotal],
      ['Hours,ELITE,EHP,,,10,'],
    ];
    const csv = ['description,difficulty,auto_type,auto_names,auto_min,auto_total,auto_distinct', ...rows.map(([line]) => line)].join('\n');
    const errors = rows.flatMap(([, message], i) => (message ? [{ row: i + 2, message }] : []));
    expect(errors).toHaveLength(6);
    const answer = await uploadTasksCsv(other, clanId, csv, 'totals.csv');
    expect(answer).toEqual({ inserted_count: rows.length - errors.length, skipped_count: 0, error_count: errors.length, errors });
    const tasks = v.parse(TaskListAnswerSchema, (await other.get(`/api/clan/${clanId}/tasks`)).body).tasks;
    const rule = (d: string) => tasks.find((t) => t.description === d)!.auto_rule;
    expect(rule('Team: 500,000 Fishing XP')).toEqual({ type: 'XP', names: ['fishing'], ...EMPTY, team_total: 500000 });
    expect(rule('Team: 50 Zulrah kills')).toEqual({ type: 'KC', names: ['zulrah'], ...EMPTY, team_total: 50 });
    expect(rule('Any 3 Zulrah uniques')).toEqual({ type: 'LOOT', names: ['Tanzanite fang', 'Magic fang', 'Serpentine visage', 'Tanzanite mutagen', 'Magma mutagen'], min: null, team_total: 3, distinct: true });
    expect(rule('500 scales')).toEqual({ type: 'LOOT', names: ["Zulrah's scales"], ...EMPTY, team_total: 500 });
    expect(rule('Plain')).toBeNull();
    expect(rule('Old rule')).toEqual({ type: 'KILL_COUNT', names: ['Zulrah'], min: 5, team_total: null, distinct: false });
    expect(rule('Hours')).toEqual({ type: 'EHP', names: [], ...EMPTY, team_total: 10 });
  });

  it('examples/osrs-tasks.csv: its team-total rows (XP, KC, Dink totals, a distinct set) import with their rules', async () => {
    const other = new ApiClient(suite.url);
    const me = await other.onboard(`tt-sample-${backend}`, ['Sample Owner'], { role: 'Owner', clan_name: `Sample totals ${backend}` });
    const clanId = me.clan_memberships_list[0].clan_id as number;
    const answer = await uploadTasksCsv(other, clanId, fs.readFileSync(path.join(__dirname, '../../examples/osrs-tasks.csv')), 'osrs-tasks.csv');
    expect(answer).toMatchObject({ inserted_count: 144, errors: [] });
    const tasks = v.parse(TaskListAnswerSchema, (await other.get(`/api/clan/${clanId}/tasks`)).body).tasks;
    const rule = (d: string) => tasks.find((t) => t.description === d)!.auto_rule;
    expect(rule('Gain 100,000 Woodcutting XP as a team')).toEqual({ type: 'XP', names: ['woodcutting'], ...EMPTY, team_total: 100000 });
    expect(rule('Kill 3 Zulrah')).toEqual({ type: 'KC', names: ['zulrah'], ...EMPTY, team_total: 3 });
    expect(rule('Kill 100 cows and bank the cowhides')).toEqual({ type: 'LOOT', names: ['Cowhide'], ...EMPTY, team_total: 100 });
    expect(rule('Kill General Graardor 10 times')).toEqual({ type: 'KILL_COUNT', names: ['General Graardor'], ...EMPTY, team_total: 10 });
    expect(rule("Kill 3 of the Wilderness bosses (Vet'ion, Venenatis, Callisto)")).toEqual({ type: 'KILL_COUNT', names: ["Vet'ion", 'Venenatis', 'Callisto'], min: null, team_total: 3, distinct: true });
    expect(tasks.filter((t) => t.auto_rule?.team_total != null)).toHaveLength(7);
  });
});
