import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import * as v from 'valibot';
import fc from 'fast-check';
import { AUTO_RULE_MESSAGES, AutoRuleSchema, autoRuleFromCells, DINK_TYPES, ignKey, matchesAutoRule, readDinkPayload, type AutoRule, type DinkType } from '../../contract/dink';

/** The recorded-shape fixture of one Dink type (tests/fixtures/dink/). */
function dinkFixture(type: DinkType): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/dink', `${type.toLowerCase()}.json`), 'utf8')) as Record<string, unknown>;
}

const rule = (type: DinkType, names: string[], min: number | null = null): AutoRule => v.parse(AutoRuleSchema, { type, names, min });

/** docs/server.md §13: reading Dink posts and matching them against a task's auto rule (contract/dink.ts). */
describe('Dink post reading and auto rules', () => {
  const cases: { type: DinkType; summary: string; match: AutoRule; miss: AutoRule }[] = [
    { type: 'LOOT', summary: 'Dragon warhammer x1, Bones x1 from Lizardman shaman', match: rule('LOOT', ['dragon WARHAMMER'], 1), miss: rule('LOOT', ['Dragon warhammer'], 2) },
    { type: 'COLLECTION', summary: 'Collection log: Dragon warhammer', match: rule('COLLECTION', ['Dragon warhammer']), miss: rule('COLLECTION', ['Abyssal whip']) },
    { type: 'KILL_COUNT', summary: 'Zulrah kill count 50', match: rule('KILL_COUNT', ['zulrah'], 50), miss: rule('KILL_COUNT', ['Zulrah'], 51) },
    { type: 'LEVEL', summary: 'Attack level 70', match: rule('LEVEL', ['Attack'], 70), miss: rule('LEVEL', ['Strength'], 70) },
    { type: 'QUEST', summary: 'Quest complete: Dragon Slayer I', match: rule('QUEST', ['Dragon Slayer I']), miss: rule('QUEST', ['Dragon Slayer II']) },
    { type: 'CLUE', summary: 'Hard clue completed: Ranger boots x1', match: rule('CLUE', ['hard', 'elite']), miss: rule('CLUE', ['Master']) },
    { type: 'PET', summary: 'Pet: Pet snakeling', match: rule('PET', ['Pet snakeling']), miss: rule('PET', ['Ikkle hydra']) },
    { type: 'COMBAT_ACHIEVEMENT', summary: 'Hard combat task: Snake. Snake!? Snaaaaaake!', match: rule('COMBAT_ACHIEVEMENT', ['snake. snake!? snaaaaaake!']), miss: rule('COMBAT_ACHIEVEMENT', ['Peach Conjurer']) },
    { type: 'ACHIEVEMENT_DIARY', summary: 'Varrock Hard diary', match: rule('ACHIEVEMENT_DIARY', ['Varrock hard']), miss: rule('ACHIEVEMENT_DIARY', ['Varrock Elite']) },
    { type: 'SLAYER', summary: 'Slayer task complete: 135 Kalphite', match: rule('SLAYER', ['Kalphite'], 100), miss: rule('SLAYER', ['Kalphite'], 136) },
  ];

  it('has a fixture and a case for every type', () => {
    expect(cases.map((c) => c.type).sort()).toEqual([...DINK_TYPES].sort());
  });

  for (const c of cases) {
    it(`${c.type}: reads player, hash, summary; matches its rule, not another, not another type's`, () => {
      const reading = readDinkPayload(dinkFixture(c.type));
      expect(reading.player).toBe('Iron Bob');
      expect(reading.player_name).toBe('Iron Bob');
      expect(reading.type).toBe(c.type);
      expect(reading.account_hash).toMatch(/^Zp4k/);
      expect(reading.evidence?.summary).toBe(c.summary);
      expect(reading.summary).toBe(c.summary);
      expect(matchesAutoRule(c.match, reading.evidence!)).toBe(true);
      expect(matchesAutoRule(c.miss, reading.evidence!)).toBe(false);
      const other = DINK_TYPES.find((t) => t !== c.type)!;
      expect(matchesAutoRule({ ...c.match, type: other }, reading.evidence!)).toBe(false);
    });
  }

  it('LOOT sums the quantities of every matching item for min', () => {
    const post = dinkFixture('LOOT');
    post.extra = { items: [{ id: 1, quantity: 300, priceEach: 1, name: "Zulrah's scales" }, { id: 1, quantity: 250, priceEach: 1, name: "zulrah's scales" }, { id: 2, quantity: 1, priceEach: 1, name: 'Tanzanite fang' }], source: 'Zulrah', category: 'NPC' };
    const ev = readDinkPayload(post).evidence!;
    expect(matchesAutoRule(rule('LOOT', ["Zulrah's scales"], 500), ev)).toBe(true);
    expect(matchesAutoRule(rule('LOOT', ["Zulrah's scales"], 551), ev)).toBe(false);
    expect(matchesAutoRule(rule('LOOT', ['Tanzanite fang', 'Magic fang', 'Serpentine visage']), ev)).toBe(true);
  });

  it('SLAYER: older posts with only slayerTask "35 Kalphite" and string counts still read', () => {
    const ev = readDinkPayload({ type: 'SLAYER', playerName: 'a', extra: { slayerTask: '35 Kalphite', slayerCompleted: '30', slayerPoints: '15' } }).evidence!;
    expect(ev.summary).toBe('Slayer task complete: 35 Kalphite');
    expect(matchesAutoRule(rule('SLAYER', ['kalphite'], 35), ev)).toBe(true);
  });

  it('malformed posts never throw and give no evidence (recorded no_match), names shown without control characters', () => {
    const bad: unknown[] = [
      null, 42, 'text', [], {},
      { type: 'DEATH', playerName: 'Iron Bob', extra: {} },
      { type: 'LOOT', playerName: 'Iron Bob' },
      { type: 'LOOT', playerName: 'Iron Bob', extra: { items: 'x' } },
      { type: 'LOOT', playerName: 'Iron Bob', extra: { items: [{ name: 'x', quantity: -1 }] } },
      { type: 'KILL_COUNT', playerName: 'Iron Bob', extra: { boss: 'Zulrah' } },
      { type: 'LEVEL', playerName: 'Iron Bob', extra: { levelledSkills: { Attack: 'high' } } },
      { type: 'ACHIEVEMENT_DIARY', playerName: 'Iron Bob', extra: { area: 'Varrock' } },
      { type: 'QUEST', playerName: 'Iron Bob', extra: { questName: 'A\u0000B' } },
    ];
    for (const payload of bad) expect(readDinkPayload(payload).evidence).toBeNull();
    const ctl = readDinkPayload({ ...dinkFixture('QUEST'), playerName: 'Iron\u0007Bob' });
    expect(ctl.player).toBeNull();
    expect(ctl.player_name).toBe('Iron\uFFFDBob');
    // Bidi controls and zero-width characters are dropped from what the recent list shows (U+202E would turn the row around).
    const bidi = readDinkPayload({ ...dinkFixture('QUEST'), playerName: 'Iron\u202E Bob\u200B', extra: { questName: 'Dragon\u2066 Slayer I' } });
    expect([bidi.player_name, bidi.summary]).toEqual(['Iron Bob', 'Quest complete: Dragon Slayer I']);
    expect(readDinkPayload({ type: 'PET', playerName: 'x', extra: {} }).evidence?.things).toEqual([]);
    fc.assert(fc.property(fc.jsonValue(), (payload) => {
      const r = readDinkPayload(payload);
      return typeof r.summary === 'string' && typeof r.player_name === 'string' && !/[\u202A-\u202E\u2066-\u2069\u200B-\u200F]/.test(r.player_name + r.type + r.summary);
    }));
  });

  it('IGNs compare ignoring case and treating space, _ and - alike', () => {
    expect(ignKey('Iron_Bob')).toBe(ignKey('iron bob'));
    expect(ignKey('IRON-BOB')).toBe(ignKey('Iron\u00A0Bob'));
    expect(ignKey('Iron Bob')).not.toBe(ignKey('IronBob'));
    expect(ignKey('Iron  Bob')).not.toBe(ignKey('Iron Bob'));
  });

  it('rule schema: type case-insensitive, names deduplicated and checked, min whole ≥ 1 or null', () => {
    expect(v.parse(AutoRuleSchema, { type: 'loot', names: ['A', 'a', ' B '] })).toEqual({ type: 'LOOT', names: ['A', 'B'], min: null, team_total: null, distinct: false });
    const fail = (x: unknown) => { const r = v.safeParse(AutoRuleSchema, x); return r.success ? null : r.issues[0].message; };
    expect(fail({ type: 'DEATH', names: ['x'] })).toBe(AUTO_RULE_MESSAGES.type);
    expect(fail({ type: 'LOOT', names: [] })).toBe(AUTO_RULE_MESSAGES.names);
    expect(fail({ type: 'LOOT', names: ['a\u0000'] })).toBe(AUTO_RULE_MESSAGES.name);
    expect(fail({ type: 'LOOT', names: ['x'.repeat(101)] })).toBe(AUTO_RULE_MESSAGES.name);
    expect(fail({ type: 'LOOT', names: ['x'], min: 0 })).toBe(AUTO_RULE_MESSAGES.min);
    expect(fail({ type: 'LOOT', names: ['x'], min: 1.5 })).toBe(AUTO_RULE_MESSAGES.min);
    expect(fail('LOOT')).toBe(AUTO_RULE_MESSAGES.notObject);
  });

  it('CSV cells: blank is no rule; names split on |; a bad min or type is the row error', () => {
    expect(autoRuleFromCells('', ' ', '')).toEqual({ ok: true, rule: null });
    expect(autoRuleFromCells('KILL_COUNT', 'Zulrah', '50')).toEqual({ ok: true, rule: { type: 'KILL_COUNT', names: ['Zulrah'], min: 50, team_total: null, distinct: false } });
    expect(autoRuleFromCells('loot', 'Tanzanite fang| Magic fang |', '')).toEqual({ ok: true, rule: { type: 'LOOT', names: ['Tanzanite fang', 'Magic fang'], min: null, team_total: null, distinct: false } });
    expect(autoRuleFromCells('LOOT', 'x', 'ten')).toEqual({ ok: false, message: AUTO_RULE_MESSAGES.min });
    expect(autoRuleFromCells('FISH', 'x', '')).toEqual({ ok: false, message: AUTO_RULE_MESSAGES.type });
    expect(autoRuleFromCells('LOOT', '', '')).toEqual({ ok: false, message: AUTO_RULE_MESSAGES.names });
  });
});
