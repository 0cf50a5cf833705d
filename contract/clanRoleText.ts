import type { ClanRole } from './user';
import { checkKick, checkLeave, checkRoleChange, ladderStep, PERMISSION_DENIED, SOLE_MANAGER_HINT } from './clan';

import { errorText } from './errorText';
/**
 * The texts of the clan role actions (docs/client.md §5, §11; docs/game-rules.md §13) and the pure
 * rules that pick them, for the clanRole chart (machines/clanRole.machine.ts).
 */

/** The member an action targets (a row of the member list). */
export interface RoleTarget {
  member_id: number;
  username: string;
  role: ClanRole;
}

/** Who acts, as the clan page knows it when the action is requested. */
export interface RoleViewer {
  userId: number;
  role: ClanRole;
  /** Owners and Admins of the clan, the viewer included. */
  managerCount: number;
  clanName: string;
}

/** The kinds of action of this chart (docs/client.md §5). */
export type RoleActionKind = 'promote' | 'demote' | 'transfer' | 'kick' | 'leave' | 'disband';

/** The action being confirmed or run. `member` and `newRole` are absent for leave and disband. */
export interface RoleRequest {
  kind: RoleActionKind;
  viewer: RoleViewer;
  member: RoleTarget | null;
  newRole: ClanRole | null;
}

/** An action message of the clan screen; it fades at 4 s and is removed at 5 s (docs/client.md §12). */
export interface ActionMessage {
  text: string;
  tone: 'success' | 'error';
}

/** A role intent of the clan screen: the member row it targets (if any) and the viewer. */
export type RoleIntent =
  | { type: 'member.promote'; member: RoleTarget; viewer: RoleViewer }
  | { type: 'member.demote'; member: RoleTarget; viewer: RoleViewer }
  | { type: 'member.kick'; member: RoleTarget; viewer: RoleViewer }
  | { type: 'clan.leave'; viewer: RoleViewer }
  | { type: 'clan.disband'; viewer: RoleViewer };

/** A role intent on a member row. */
export type RoleMemberRequest = Extract<RoleIntent, { member: RoleTarget }>;

/** Success texts (docs/client.md §11); leave and disband texts are this app's own. */
export const roleMessages = {
  roleChanged: (name: string, verb: 'promote' | 'demote', role: ClanRole) => `${name} successfully ${verb}d to ${role}.`,
  kicked: (name: string) => `${name} was successfully kicked.`,
  left: (clanName: string) => `You have successfully left ${clanName}.`,
  disbanded: (clanName: string) => `Clan ${clanName} has been successfully disbanded.`,
  cannotPromote: (name: string) => `Cannot promote ${name} further than Owner.`,
  cannotDemote: (name: string) => `Cannot demote ${name} further than Guest.`,
  roleChangeFailed: (verb: 'promote' | 'demote') => `Failed to ${verb} member. Please check hierarchy rules.`,
  kickSelf: 'Use Leave Clan to leave the clan yourself.',
  kickFailed: 'Failed to kick member. Please check permissions.',
  leaveFailed: 'Failed to leave clan. Check if you are the sole Owner/Admin. Please retry.',
  disbandFailed: 'Failed to disband clan. Please retry.',
  ownerOnly: 'Permission denied. Only the clan Owner can disband the clan.',
} as const;

/** The verb of a role action's messages: 'demote' for a demotion, else 'promote'. */
export const verbOf = (kind: RoleActionKind): 'promote' | 'demote' => (kind === 'demote' ? 'demote' : 'promote');

/** The role-change verdict of contract/clan.ts for a one-step promote or demote request. */
export function roleChangeVerdict(e: RoleMemberRequest, direction: 1 | -1) {
  return checkRoleChange({
    actorRole: e.viewer.role,
    targetRole: e.member.role,
    newRole: ladderStep(e.member.role, direction) ?? e.member.role,
    targetName: e.member.username,
    self: e.member.member_id === e.viewer.userId,
  });
}

/** Text of a refused request (guards failed), in the order the guards are tried. */
export function refusalText(e: RoleIntent): string {
  switch (e.type) {
    case 'member.promote': {
      if (e.member.role === 'Owner') return roleMessages.cannotPromote(e.member.username);
      const v = roleChangeVerdict(e, 1);
      return v.ok ? '' : v.error;
    }
    case 'member.demote': {
      if (e.member.role === 'Guest') return roleMessages.cannotDemote(e.member.username);
      const v = roleChangeVerdict(e, -1);
      return v.ok ? '' : v.error;
    }
    case 'member.kick': {
      if (e.member.member_id === e.viewer.userId) return roleMessages.kickSelf;
      const v = checkKick(e.viewer.role, e.member.role);
      return v.ok ? '' : v.error;
    }
    case 'clan.leave': {
      if ((e.viewer.role === 'Owner' || e.viewer.role === 'Admin') && e.viewer.managerCount <= 1) return SOLE_MANAGER_HINT;
      const v = checkLeave(e.viewer.role, e.viewer.managerCount);
      return v.ok ? '' : v.error;
    }
    case 'clan.disband':
      return e.viewer.role === 'Owner' ? '' : PERMISSION_DENIED;
  }
}

/** The message of a failed call: the server's text, or the docs/client.md §11 fallback. */
export function failureText(request: RoleRequest | null, error: unknown): string {
  return errorText(error, fallbackFailureText(request));
}

/** The section 8 failure text of a request, for an error that carries no message. */
function fallbackFailureText(request: RoleRequest | null): string {
  switch (request?.kind) {
    case 'kick':
      return roleMessages.kickFailed;
    case 'leave':
      return roleMessages.leaveFailed;
    case 'disband':
      return roleMessages.disbandFailed;
    default:
      return roleMessages.roleChangeFailed(verbOf(request?.kind ?? 'promote'));
  }
}

/** The success text of a finished request. */
export function successText(r: RoleRequest): string {
  switch (r.kind) {
    case 'kick':
      return roleMessages.kicked(r.member?.username ?? '');
    case 'leave':
      return roleMessages.left(r.viewer.clanName);
    case 'disband':
      return roleMessages.disbanded(r.viewer.clanName);
    default:
      return roleMessages.roleChanged(r.member?.username ?? '', verbOf(r.kind), r.newRole ?? r.member?.role ?? 'Guest');
  }
}

