import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { IdParamSchema, ID_MAX } from '../../contract/common';
import { AuthStatusSchema, DevLoginBodySchema, IgnBodySchema, UserSchema, isManagerRole } from '../../contract/user';
import { CreateClanBodySchema } from '../../contract/clan';

/** The shared contract schemas (docs/game-rules.md §12; docs/server.md §2, §3, §4). */
describe('contract schemas', () => {
  it('path ids are whole numbers from 1 to 2^31-1', () => {
    expect(v.parse(IdParamSchema, '42')).toBe(42);
    expect(v.parse(IdParamSchema, String(ID_MAX))).toBe(ID_MAX);
    for (const bad of ['0', '-1', 'abc', '1e3', '12abc', '', String(ID_MAX + 1), '01']) {
      expect(v.safeParse(IdParamSchema, bad).success, bad).toBe(false);
    }
  });
  it('auth status needs every field of docs/server.md §2', () => {
    expect(v.safeParse(AuthStatusSchema, { authorized: true, has_token: true, session_keys: ['user_id'], error: null, dev_login: false, discord_login: true }).success).toBe(true);
    expect(v.safeParse(AuthStatusSchema, { authorized: true }).success).toBe(false);
  });
  it('a user profile must carry IGNs and memberships with known roles', () => {
    const user = { id: 1, username: 'a', discord_username: 'a', discord_id: '1', avatar_url: null, igns: [{ id: 1, ign: 'Zezima' }], clan_memberships_list: [{ clan_id: 1, name: 'C', role: 'Owner', joined_at: 'x' }], can_create_clan: true };
    expect(v.safeParse(UserSchema, user).success).toBe(true);
    expect(v.safeParse(UserSchema, { ...user, clan_memberships_list: [{ clan_id: 1, name: 'C', role: 'King', joined_at: 'x' }] }).success).toBe(false);
    expect(v.safeParse(UserSchema, { ...user, igns: undefined }).success).toBe(false);
  });
  it('IGN bodies are trimmed and 1 to 12 characters', () => {
    expect(v.parse(IgnBodySchema, { ign: ' Zezima ' })).toEqual({ ign: 'Zezima' });
    expect(v.safeParse(IgnBodySchema, { ign: '   ' }).success).toBe(false);
    expect(v.safeParse(IgnBodySchema, { ign: 'x'.repeat(13) }).success).toBe(false);
    expect(v.safeParse(IgnBodySchema, { ign: 5 }).success).toBe(false);
  });
  it('clan names are trimmed, 1 to 40 characters', () => {
    expect(v.parse(CreateClanBodySchema, { clan_name: '  Iron Legion ' })).toEqual({ clan_name: 'Iron Legion' });
    expect(v.safeParse(CreateClanBodySchema, { clan_name: 'x'.repeat(40) }).success).toBe(true);
    expect(v.safeParse(CreateClanBodySchema, { clan_name: 'x'.repeat(41) }).success).toBe(false);
    expect(v.safeParse(CreateClanBodySchema, { clan_name: '' }).success).toBe(false);
  });
  it('dev sign-in names are 1 to 32 characters', () => {
    expect(v.safeParse(DevLoginBodySchema, { username: 'x'.repeat(33) }).success).toBe(false);
    expect(v.parse(DevLoginBodySchema, { username: ' bob ' })).toEqual({ username: 'bob' });
  });
  it('managers are Owner and Admin', () => {
    expect(['Owner', 'Admin', 'Member', 'Guest', undefined].map(isManagerRole)).toEqual([true, true, false, false, false]);
  });
});
