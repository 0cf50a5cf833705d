import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { ACTIVITIES, BOSSES, SKILLS } from '@wise-old-man/utils';
import { AUTO_RULE_MESSAGES, AUTO_RULE_TYPES, AutoRuleSchema, AutoRuleShapeSchema, autoRuleFromCells, progressUnit, womMetricError } from '../../contract/dink';
import { autoRuleText } from '../../src/features/dink/dinkTexts';

/**
 * Team-total rules in the contract (docs/server.md §17 Rules): the schema's new fields and types,
 * its 400s in order, the Wise Old Man name check, the CSV cells, the unit of each total and the
 * rule texts players read.
 */

const LISTS = { skills: [...SKILLS], killables: [...BOSSES, ...ACTIVITIES] };
const fail = (x: unknown) => {
  const r = v.safeParse(AutoRuleSchema, x);
  return r.success ? null : r.issues[0].message;
};

describe('team-total rules', () => {
  it('reads team_total and distinct with their defaults; Wise Old Man names lower case; EHB/EHP without names', () => {
    expect(v.parse(AutoRuleSchema, { type: 'LOOT', names: ['Cowhide'] })).toEqual({ type: 'LOOT', names: ['Cowhide'], min: null, team_total: null, distinct: false });
    expect(v.parse(AutoRuleSchema, { type: 'xp', names: ['Fishing', 'FISHING'], team_total: 1 })).toEqual({ type: 'XP', names: ['fishing'], min: null, team_total: 1, distinct: false });
    expect(v.parse(AutoRuleSchema, { type: 'EHP', names: [], team_total: 1_000_000_000 })).toEqual({ type: 'EHP', names: [], min: null, team_total: 1_000_000_000, distinct: false });
    expect(v.parse(AutoRuleSchema, { type: 'COLLECTION', names: ['A', 'B'], team_total: 2, distinct: true }).distinct).toBe(true);
    // A shape stored before team totals reads with the defaults.
    expect(v.parse(AutoRuleShapeSchema, { type: 'LOOT', names: ['x'], min: 1 })).toEqual({ type: 'LOOT', names: ['x'], min: 1, team_total: null, distinct: false });
    expect(AUTO_RULE_TYPES).toEqual(['LOOT', 'COLLECTION', 'KILL_COUNT', 'LEVEL', 'QUEST', 'CLUE', 'PET', 'COMBAT_ACHIEVEMENT', 'ACHIEVEMENT_DIARY', 'SLAYER', 'XP', 'KC', 'EHB', 'EHP']);
  });

  it('refuses in order: fields, a total with a minimum, a Wise Old Man type without a total, an empty names list', () => {
    expect(fail({ type: 'LOOT', names: ['x'], team_total: 0 })).toBe(AUTO_RULE_MESSAGES.teamTotal);
    expect(fail({ type: 'LOOT', names: ['x'], team_total: 1_000_000_001 })).toBe(AUTO_RULE_MESSAGES.teamTotal);
    expect(fail({ type: 'LOOT', names: ['x'], team_total: 1.5 })).toBe(AUTO_RULE_MESSAGES.teamTotal);
    expect(fail({ type: 'LOOT', names: ['x'], distinct: 1 })).toBe(AUTO_RULE_MESSAGES.distinct);
    expect(fail({ type: 'LOOT', names: ['x'], min: 2, team_total: 5 })).toBe('A team total and a minimum cannot be combined.');
    expect(fail({ type: 'KC', names: [], min: 2, team_total: 5 })).toBe('A team total and a minimum cannot be combined.');
    for (const type of ['XP', 'KC', 'EHB', 'EHP']) expect(fail({ type, names: type.startsWith('E') ? [] : ['zulrah'] })).toBe('This rule needs a team total.');
    expect(fail({ type: 'KC', names: [], team_total: 5 })).toBe(AUTO_RULE_MESSAGES.names);
    expect(fail({ type: 'SLAYER', names: [], team_total: 5 })).toBe(AUTO_RULE_MESSAGES.names);
  });

  it('checks Wise Old Man names against the lists passed in, naming the first that is not a metric of that kind', () => {
    const rule = (type: string, names: string[]) => v.parse(AutoRuleSchema, { type, names, team_total: 10 });
    expect(womMetricError(rule('XP', ['fishing', 'Overall']), LISTS)).toBeNull();
    expect(womMetricError(rule('XP', ['fishing', 'zulrah']), LISTS)).toBe("auto_rule name 'zulrah' is not a Wise Old Man skill metric.");
    expect(womMetricError(rule('KC', ['zulrah', 'clue_scrolls_all']), LISTS)).toBeNull();
    expect(womMetricError(rule('KC', ['Zulrah kills']), LISTS)).toBe("auto_rule name 'zulrah kills' is not a Wise Old Man boss or activity metric.");
    expect(womMetricError(rule('EHB', []), LISTS)).toBeNull();
    expect(womMetricError(rule('EHB', ['zulrah']), LISTS)).toBe("auto_rule name 'zulrah' is not allowed: EHB rules take no names.");
    // Dink types are never checked against Wise Old Man.
    expect(womMetricError(rule('LOOT', ['Anything at all']), LISTS)).toBeNull();
  });

  it('CSV cells: auto_total digits or blank, auto_distinct true/false in any case (blank false)', () => {
    expect(autoRuleFromCells('', '', '', '', '')).toEqual({ ok: true, rule: null });
    expect(autoRuleFromCells('LOOT', 'Cowhide', '', '100', '')).toEqual({ ok: true, rule: { type: 'LOOT', names: ['Cowhide'], min: null, team_total: 100, distinct: false } });
    expect(autoRuleFromCells('LOOT', 'A|B|C', '', '2', 'TRUE')).toEqual({ ok: true, rule: { type: 'LOOT', names: ['A', 'B', 'C'], min: null, team_total: 2, distinct: true } });
    expect(autoRuleFromCells('LOOT', 'A', '', '2', 'False')).toMatchObject({ ok: true, rule: { distinct: false } });
    expect(autoRuleFromCells('LOOT', 'A', '', '1e3', '')).toEqual({ ok: false, message: AUTO_RULE_MESSAGES.teamTotal });
    expect(autoRuleFromCells('LOOT', 'A', '', '2', 'yes')).toEqual({ ok: false, message: AUTO_RULE_MESSAGES.distinct });
    expect(autoRuleFromCells('XP', 'fishing', '', '', '')).toEqual({ ok: false, message: 'This rule needs a team total.' });
    expect(autoRuleFromCells('LOOT', 'A', '3', '5', '')).toEqual({ ok: false, message: 'A team total and a minimum cannot be combined.' });
    // Only a distinct cell is still a rule (its missing type is the error).
    expect(autoRuleFromCells('', '', '', '', 'true')).toEqual({ ok: false, message: AUTO_RULE_MESSAGES.type });
  });

  it('progressUnit: each type its unit; distinct counts items for LOOT and COLLECTION, posts for the other Dink types', () => {
    const unit = (type: string, distinct = false) => progressUnit({ type: type as never, distinct });
    expect(['LOOT', 'KILL_COUNT', 'KC', 'XP', 'EHB', 'EHP', 'COLLECTION', 'PET', 'QUEST', 'CLUE', 'SLAYER', 'LEVEL', 'COMBAT_ACHIEVEMENT', 'ACHIEVEMENT_DIARY'].map((t) => unit(t))).toEqual([
      'items', 'kills', 'kills', 'xp', 'hours', 'hours', 'posts', 'posts', 'posts', 'posts', 'posts', 'posts', 'posts', 'posts',
    ]);
    expect(['LOOT', 'COLLECTION', 'KILL_COUNT', 'PET', 'CLUE'].map((t) => unit(t, true))).toEqual(['items', 'items', 'posts', 'posts', 'posts']);
  });

  it('the rule as players read it', () => {
    const text = (x: object) => autoRuleText(v.parse(AutoRuleSchema, x));
    expect(text({ type: 'XP', names: ['fishing'], team_total: 500000 })).toBe('Team total: 500,000 Fishing XP');
    expect(text({ type: 'KC', names: ['zulrah', 'clue_scrolls_all'], team_total: 50 })).toBe('Team total: 50 Zulrah or Clue scrolls all kills');
    expect(text({ type: 'EHB', names: [], team_total: 20 })).toBe('Team total: 20 hours EHB');
    expect(text({ type: 'LOOT', names: ["Zulrah's scales"], team_total: 500 })).toBe("Team total: 500 items of Zulrah's scales (Loot)");
    expect(text({ type: 'KILL_COUNT', names: ['Zulrah'], team_total: 50 })).toBe('Team total: 50 Zulrah kills');
    expect(text({ type: 'PET', names: ['Pet snakeling'], team_total: 2 })).toBe('Team total: 2 posts of Pet snakeling (Pets)');
    expect(text({ type: 'LOOT', names: ['A', 'B', 'C'], team_total: 2, distinct: true })).toBe('Team total: any 2 of A, B or C (Loot)');
    expect(text({ type: 'LOOT', names: ['Giant key'], min: 1 })).toBe('Loot: Giant key (at least 1)');
  });
});
