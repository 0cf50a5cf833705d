import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  MEMBER_NEEDS_CLAN, ONBOARDING_IGN_ERROR, OWNER_NEEDS_NAME, SetupBodySchema, clanSetupError, onboardingIgns, splitIgnList,
} from '../../contract/onboarding';

/** Onboarding rules of docs/game-rules.md §13 (IGNs: onboarding; Clans: onboarding step 2). */
describe('onboarding IGN rules', () => {
  it('splits on commas, trims and drops empty items and exact duplicates', () => {
    expect(splitIgnList(' Zezima , ,Lynx Titan,, Zezima ')).toEqual(['Zezima', 'Lynx Titan']);
  });
  it('is case-sensitive', () => {
    expect(splitIgnList('zezima, Zezima')).toEqual(['zezima', 'Zezima']);
  });
  it('keeps items of 1 to 12 characters and drops longer ones', () => {
    expect(onboardingIgns('abcdefghijkl, abcdefghijklm, x')).toEqual({ igns: ['abcdefghijkl', 'x'] });
  });
  it('refuses when nothing valid remains, with the spec text', () => {
    for (const text of ['', '   ', ',,', 'abcdefghijklm']) expect(onboardingIgns(text)).toEqual({ error: ONBOARDING_IGN_ERROR });
  });
});

describe('onboarding clan rules', () => {
  it('Owner needs a clan name', () => {
    expect(clanSetupError({ role: 'Owner', clan_name: '   ' })).toBe(OWNER_NEEDS_NAME);
    expect(clanSetupError({ role: 'Owner', clan_name: 'Iron Legion' })).toBeNull();
  });
  it('Member needs a clan', () => {
    expect(clanSetupError({ role: 'Member', clan_id: null })).toBe(MEMBER_NEEDS_CLAN);
    expect(clanSetupError({ role: 'Member', clan_id: 3 })).toBeNull();
  });
  it('None needs nothing', () => {
    expect(clanSetupError({ role: 'None' })).toBeNull();
  });
});

describe('setup payload schema (docs/server.md §3)', () => {
  const parse = (body: unknown) => v.safeParse(SetupBodySchema, body);
  it('accepts the three clan choices and trims IGNs', () => {
    const r = parse({ igns: [' Zezima '], clan_setup: { role: 'Owner', clan_name: ' Iron Legion ' } });
    expect(r.success && r.output).toEqual({ igns: ['Zezima'], clan_setup: { role: 'Owner', clan_name: 'Iron Legion' } });
    expect(parse({ igns: ['a'], clan_setup: { role: 'Member', clan_id: 2 } }).success).toBe(true);
    expect(parse({ igns: ['a'], clan_setup: { role: 'None' } }).success).toBe(true);
  });
  it.each([
    ['no IGN', { igns: [], clan_setup: { role: 'None' } }, ONBOARDING_IGN_ERROR],
    ['a 13-character IGN only', { igns: ['abcdefghijklm'], clan_setup: { role: 'None' } }, 'Each IGN must be 1 to 12 characters.'],
    ['a blank IGN', { igns: ['  '], clan_setup: { role: 'None' } }, ONBOARDING_IGN_ERROR],
    ['Owner without clan name', { igns: ['a'], clan_setup: { role: 'Owner' } }, OWNER_NEEDS_NAME],
    ['Owner with a blank clan name', { igns: ['a'], clan_setup: { role: 'Owner', clan_name: '  ' } }, OWNER_NEEDS_NAME],
    ['Member without clan', { igns: ['a'], clan_setup: { role: 'Member' } }, MEMBER_NEEDS_CLAN],
    ['Member with clan 0', { igns: ['a'], clan_setup: { role: 'Member', clan_id: 0 } }, MEMBER_NEEDS_CLAN],
  ])('refuses %s with its message', (_name, body, message) => {
    const r = parse(body);
    expect(r.success).toBe(false);
    expect(r.issues?.[0].message).toBe(message);
  });
  it('refuses a 41-character clan name and an unknown role', () => {
    expect(parse({ igns: ['a'], clan_setup: { role: 'Owner', clan_name: 'x'.repeat(41) } }).success).toBe(false);
    expect(parse({ igns: ['a'], clan_setup: { role: 'King' } }).success).toBe(false);
  });
});
