import {
  addClanMember,
  changeMemberRole,
  disbandClan,
  fetchAvailableMembers,
  fetchClanMembers,
  kickClanMember,
  leaveClan,
  renameClan,
  type AvailableUser,
  type ClanRoster,
} from '../../api/clans';
import { liveReviewEffects, type ReviewEffects } from './ReviewsTab';
import { liveJoinEffects, type JoinEffects } from '../joins/effects';
import { liveInviteEffects, type InviteEffects } from '../invites/effects';
import { fetchClanUsage } from '../../api/quotas';
import type { ClanUsage } from '../../../contract/quotas';
import { PERMISSION_DENIED, type ClanMember } from '../../../contract/clan';
import type { ClanRole } from '../../../contract/user';

/** The calls of the clan management screen (docs/server.md §3); tests give fakes. */
export interface ClanManageEffects {
  loadClan(clanId: number): Promise<ClanRoster>;
  /** Add Member's list; with `q` (3+ characters) also the users whose name starts with it. */
  loadAvailableUsers(clanId: number, q?: string): Promise<AvailableUser[]>;
  addMember(clanId: number, userId: number, role: ClanRole): Promise<ClanMember>;
  changeRole(clanId: number, memberId: number, role: ClanRole, verb: 'promote' | 'demote'): Promise<ClanMember>;
  kickMember(clanId: number, memberId: number): Promise<void>;
  leaveClan(clanId: number, ownUserId: number): Promise<void>;
  renameClan(clanId: number, newName: string): Promise<string>;
  disbandClan(clanId: number): Promise<void>;
  /** The referee calls of the Reviews tab (docs/server.md §9); without them the tab is not shown. */
  reviews?: ReviewEffects;
  /** The joining calls (docs/server.md §18): the Owner's settings and the managers' requests; without them neither is shown. */
  joins?: JoinEffects;
  /** The invite calls (docs/server.md §18 Invites); without them the managers' invite links are not shown. */
  invites?: InviteEffects;
  /** The clan's quota figures (docs/server.md §18 "Quotas"); without it the managers' usage lines are not shown. */
  usage?: (clanId: number) => Promise<ClanUsage>;
}

/** The real calls. */
export const liveClanEffects: ClanManageEffects = {
  loadClan: fetchClanMembers,
  loadAvailableUsers: fetchAvailableMembers,
  addMember: addClanMember,
  changeRole: changeMemberRole,
  kickMember: kickClanMember,
  leaveClan,
  renameClan,
  disbandClan,
  reviews: liveReviewEffects,
  joins: liveJoinEffects,
  invites: liveInviteEffects,
  usage: fetchClanUsage,
};

/** A failed clan load: the text to show and the HTTP status (0 when unknown). */
export class ClanLoadError extends Error {
  constructor(message: string, public status: number) {
    super(message);
    this.name = 'ClanLoadError';
  }
}

/**
 * The clan-load error text for an HTTP status (docs/client.md §11): 404
 * 'Clan ID {id} not found.', 403 the permission text, anything else 'Failed to load clan data.'
 * (401 is handled by leaving the page).
 */
export function clanLoadErrorText(clanId: number | string, status: number): string {
  if (status === 404) return `Clan ID ${clanId} not found.`;
  if (status === 403) return PERMISSION_DENIED;
  return 'Failed to load clan data.';
}

/** Runs `load` and turns a failure into a ClanLoadError carrying the documented text and the status. */
export async function loadClanOrExplain(load: ClanManageEffects['loadClan'], clanId: number): Promise<ClanRoster> {
  try {
    return await load(clanId);
  } catch (error) {
    const status = typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : 0;
    throw new ClanLoadError(clanLoadErrorText(clanId, status), status);
  }
}
