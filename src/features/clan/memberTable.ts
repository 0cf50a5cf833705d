import { OWNER_LEAVE_HINT, SOLE_MANAGER_HINT, type ClanMember } from '../../../contract/clan';
import type { ClanRole } from '../../../contract/user';
import { isManagerRole } from '../../../contract/user';
import type { PageWindow } from '../../ui/tableModel';

/**
 * Members search (docs/client.md §5): keeps rows whose username or role
 * contains `search` as a substring, case-insensitively; a blank search keeps every row.
 */
export function filterMembers<T extends { username: string; role: string }>(members: readonly T[], search: string): T[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [...members];
  return members.filter((m) => m.username.toLowerCase().includes(needle) || m.role.toLowerCase().includes(needle));
}

/**
 * The range label (docs/client.md §5): 'X-Y of N members', plus
 * ' (Filtered from M)' when the search hides rows. An empty list reads '0-0 of 0 members'.
 */
export function rangeLabel(window: PageWindow, shown: number, total: number): string {
  const from = shown === 0 ? 0 : window.start + 1;
  const base = `${from}-${window.end} of ${shown} members`;
  return shown !== total ? `${base} (Filtered from ${total})` : base;
}

/** The empty-table text (docs/client.md §5). */
export const noMembersText = (search: string) => `No members found matching "${search}".`;

/** What one row offers the viewer (docs/client.md §5; docs/game-rules.md §11). */
export type RowActions =
  | { kind: 'self'; leaveDisabled: boolean; hint: string | null }
  | { kind: 'none' }
  | {
      kind: 'manage';
      /** 'Transfer Ownership' when the target is an Admin. */
      promoteLabel: 'Promote' | 'Transfer Ownership';
      promoteEnabled: boolean;
      demoteEnabled: boolean;
      kickEnabled: boolean;
    };

/**
 * The actions of one row for the viewer (docs/client.md §5):
 * - own row: only Leave Clan, disabled with a hint for a sole manager (the documented hint) and for
 *   the Owner while another manager exists (transfer ownership first; the server refuses too);
 * - other rows: nothing for non-managers; for managers Promote (Guest, Member; Admin only when
 *   the viewer is Owner, labelled Transfer Ownership), Demote (not for Guests or Owners), Kick
 *   (Guest, Member; Admin only when the viewer is Owner; never the Owner).
 */
export function rowActions(viewer: { userId: number; role: ClanRole | null; managerCount: number }, target: Pick<ClanMember, 'member_id' | 'role'>): RowActions {
  if (target.member_id === viewer.userId) {
    const hint = isManagerRole(viewer.role) && viewer.managerCount <= 1 ? SOLE_MANAGER_HINT : viewer.role === 'Owner' ? OWNER_LEAVE_HINT : null;
    return { kind: 'self', leaveDisabled: hint !== null, hint };
  }
  if (!isManagerRole(viewer.role)) return { kind: 'none' };
  const isOwner = viewer.role === 'Owner';
  const r = target.role;
  return {
    kind: 'manage',
    promoteLabel: r === 'Admin' ? 'Transfer Ownership' : 'Promote',
    promoteEnabled: r === 'Guest' || r === 'Member' || (r === 'Admin' && isOwner),
    demoteEnabled: r !== 'Guest' && r !== 'Owner',
    kickEnabled: r === 'Guest' || r === 'Member' || (r === 'Admin' && isOwner),
  };
}

/** Managers (Owner and Admin) among the members: the 'Total Managers' count. */
export function countManagers(members: readonly { role: ClanRole }[]): number {
  return members.filter((m) => isManagerRole(m.role)).length;
}
