import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countManagers, filterMembers, noMembersText, rangeLabel, rowActions } from '../../src/features/clan/memberTable';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, pageResetKey, pageWindow } from '../../src/ui/tableModel';
import { clanLoadErrorText, loadClanOrExplain, ClanLoadError } from '../../src/features/clan/effects';
import { validateRename } from '../../src/features/clan/ClanManagePage';
import { CLAN_ROLES, type ClanRole } from '../../contract/user';
import { ApiRequestError } from '../../src/api/client';
import { OWNER_LEAVE_HINT } from '../../contract/clan';

const m = (member_id: number, username: string, role: ClanRole) => ({ member_id, username, role });
const MEMBERS = [m(1, 'Olga', 'Owner'), m(2, 'Adam', 'Admin'), m(3, 'Mia', 'Member'), m(4, 'Gus', 'Guest'), m(5, 'madison', 'Member')];

describe('members search (docs/client.md §5)', () => {
  it('matches username or role, case-insensitively, as a substring', () => {
    expect(filterMembers(MEMBERS, 'ADM').map((x) => x.username)).toEqual(['Adam']);
    expect(filterMembers(MEMBERS, 'mad').map((x) => x.username)).toEqual(['madison']);
    expect(filterMembers(MEMBERS, 'member').map((x) => x.username)).toEqual(['Mia', 'madison']);
    expect(filterMembers(MEMBERS, 'gu').map((x) => x.username)).toEqual(['Gus']);
    expect(filterMembers(MEMBERS, 'zzz')).toEqual([]);
  });

  it('keeps every row for a blank search, in order', () => {
    expect(filterMembers(MEMBERS, '')).toEqual(MEMBERS);
    expect(filterMembers(MEMBERS, '   ')).toEqual(MEMBERS);
  });

  it('never returns a row that does not contain the search', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ username: fc.string(), role: fc.constantFrom(...CLAN_ROLES) })), fc.string(), (rows, search) => {
        const needle = search.trim().toLowerCase();
        for (const r of filterMembers(rows, search)) expect(`${r.username}\u0000${r.role}`.toLowerCase().includes(needle) || !needle).toBe(true);
        expect(filterMembers(rows, search).length).toBeLessThanOrEqual(rows.length);
      }),
    );
  });

  it('writes the empty text with the search quoted', () => {
    expect(noMembersText('zed')).toBe('No members found matching "zed".');
  });
});

describe('pagination (docs/client.md §1, §12)', () => {
  it('offers 10, 25 and 50 rows, 10 by default', () => {
    expect(PAGE_SIZES).toEqual([10, 25, 50]);
    expect(DEFAULT_PAGE_SIZE).toBe(10);
  });

  it("labels the range 'X-Y of N members' with ' (Filtered from M)' when filtered", () => {
    expect(rangeLabel(pageWindow(23, 1, 10), 23, 23)).toBe('1-10 of 23 members');
    expect(rangeLabel(pageWindow(23, 3, 10), 23, 23)).toBe('21-23 of 23 members');
    expect(rangeLabel(pageWindow(3, 1, 10), 3, 23)).toBe('1-3 of 3 members (Filtered from 23)');
    expect(rangeLabel(pageWindow(0, 1, 10), 0, 23)).toBe('0-0 of 0 members (Filtered from 23)');
  });

  it('clamps the page into 1..pageCount and covers every row exactly once', () => {
    fc.assert(
      fc.property(fc.nat(500), fc.constantFrom(...PAGE_SIZES), fc.integer({ min: -5, max: 80 }), (total, size, page) => {
        const w = pageWindow(total, page, size);
        expect(w.page).toBeGreaterThanOrEqual(1);
        expect(w.page).toBeLessThanOrEqual(w.pageCount);
        expect(w.end - w.start).toBeLessThanOrEqual(size);
        const seen: number[] = [];
        for (let p = 1; p <= w.pageCount; p++) {
          const q = pageWindow(total, p, size);
          for (let i = q.start; i < q.end; i++) seen.push(i);
        }
        expect(seen).toEqual([...Array(total).keys()]);
      }),
    );
  });

  it('resets the page when the member count, the page size or the search changes', () => {
    const key = pageResetKey(12, 10, 'a');
    expect(pageResetKey(12, 10, 'a')).toBe(key);
    expect(pageResetKey(11, 10, 'a')).not.toBe(key);
    expect(pageResetKey(12, 25, 'a')).not.toBe(key);
    expect(pageResetKey(12, 10, 'ab')).not.toBe(key);
  });
});

describe('row actions (docs/client.md §5)', () => {
  const owner = { userId: 1, role: 'Owner' as const, managerCount: 2 };
  const admin = { userId: 2, role: 'Admin' as const, managerCount: 2 };

  it('gives your own row only Leave Clan, disabled with a hint for a sole manager and for the Owner beside another manager', () => {
    expect(rowActions(owner, m(1, 'Olga', 'Owner'))).toEqual({ kind: 'self', leaveDisabled: true, hint: OWNER_LEAVE_HINT });
    expect(rowActions(admin, m(2, 'Adam', 'Admin'))).toEqual({ kind: 'self', leaveDisabled: false, hint: null });
    expect(rowActions({ ...owner, managerCount: 1 }, m(1, 'Olga', 'Owner'))).toEqual({
      kind: 'self',
      leaveDisabled: true,
      hint: 'As the sole manager, you must use the Disband Clan button on the Manage Clan page.',
    });
    expect(rowActions({ userId: 3, role: 'Member', managerCount: 1 }, m(3, 'Mia', 'Member'))).toEqual({ kind: 'self', leaveDisabled: false, hint: null });
  });

  it('shows actions on others only to managers', () => {
    expect(rowActions({ userId: 3, role: 'Member', managerCount: 2 }, m(4, 'Gus', 'Guest'))).toEqual({ kind: 'none' });
    expect(rowActions({ userId: 4, role: 'Guest', managerCount: 2 }, m(3, 'Mia', 'Member'))).toEqual({ kind: 'none' });
  });

  it('enables promote, demote and kick by the target role and the viewer role', () => {
    const table = (viewer: typeof owner | typeof admin) =>
      Object.fromEntries(
        CLAN_ROLES.map((role) => {
          const a = rowActions(viewer, m(9, 'X', role));
          return [role, a.kind === 'manage' ? [a.promoteLabel, a.promoteEnabled, a.demoteEnabled, a.kickEnabled] : a.kind];
        }),
      );
    expect(table(owner)).toEqual({
      Guest: ['Promote', true, false, true],
      Member: ['Promote', true, true, true],
      Admin: ['Transfer Ownership', true, true, true],
      Owner: ['Promote', false, false, false],
    });
    expect(table(admin)).toEqual({
      Guest: ['Promote', true, false, true],
      Member: ['Promote', true, true, true],
      Admin: ['Transfer Ownership', false, true, false],
      Owner: ['Promote', false, false, false],
    });
  });

  it('counts Owners and Admins as managers', () => {
    expect(countManagers(MEMBERS)).toBe(2);
    expect(countManagers([])).toBe(0);
  });
});

describe('clan load errors (docs/client.md §11)', () => {
  it('maps the status to the spec text', () => {
    expect(clanLoadErrorText(7, 404)).toBe('Clan ID 7 not found.');
    expect(clanLoadErrorText(7, 403)).toBe('Permission denied. You are not authorized to manage this clan.');
    expect(clanLoadErrorText(7, 500)).toBe('Failed to load clan data.');
    expect(clanLoadErrorText(7, 0)).toBe('Failed to load clan data.');
  });

  it('keeps the status on the raised error so a 401 can leave the page', async () => {
    const failing = async () => {
      throw new ApiRequestError('Not signed in.', 401);
    };
    const error = await loadClanOrExplain(failing, 7).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClanLoadError);
    expect((error as ClanLoadError).status).toBe(401);
    const roster = { clan_id: 7, clan_name: 'X', members: [] };
    await expect(loadClanOrExplain(async () => roster, 7)).resolves.toBe(roster);
  });
});

describe('clan rename rule (docs/game-rules.md §13)', () => {
  const text = 'Clan name cannot be empty or the same as the current name.';
  it('refuses an empty name or the current one, and more than 40 characters', () => {
    expect(validateRename({ name: '  ', current: 'Iron' })).toBe(text);
    expect(validateRename({ name: ' Iron ', current: 'Iron' })).toBe(text);
    expect(validateRename({ name: 'x'.repeat(41), current: 'Iron' })).toBe('Clan name must be at most 40 characters.');
    expect(validateRename({ name: 'x'.repeat(40), current: 'Iron' })).toBeNull();
    expect(validateRename({ name: 'Iron Ladders', current: 'Iron' })).toBeNull();
  });
});
