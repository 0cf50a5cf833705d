import type { SnapshotFrom } from 'xstate';
import type { sessionMachine } from './session.machine';
import { isManagerRole, type ClanMembership } from '../contract/user';

type S = SnapshotFrom<typeof sessionMachine>;

/** Named selectors of the session chart for `useSelector` (docs/architecture.md §3). */
export const selectUser = (s: S) => s.context.user;
export const selectIsBusy = (s: S) => s.hasTag('busy');
export const selectIsAuthenticated = (s: S) => s.hasTag('authenticated');
export const selectIsReady = (s: S) => s.matches('ready') || s.matches('refreshing');
export const selectNeedsOnboarding = (s: S) => s.matches('onboardingNeeded');
export const selectIsSignedOut = (s: S) => s.matches('unauthenticated');
export const selectNotice = (s: S) => s.context.notice;
export const selectSessionError = (s: S) => s.context.error;
export const selectDevLogin = (s: S) => s.context.devLogin;
export const selectDiscordLogin = (s: S) => s.context.discordLogin;
export const selectSigningIn = (s: S) => s.matches('signingIn');
export const selectIsRefreshing = (s: S) => s.matches('refreshing');

const NO_CLANS: ClanMembership[] = [];
/** The clans the user manages (Owner or Admin), in the order of their memberships; compare with `sameClans`. */
export const selectManagedClans = (s: S) => s.context.user?.clan_memberships_list.filter((m) => isManagerRole(m.role)) ?? NO_CLANS;
/** Every clan the user belongs to, any role, in the order of their memberships; compare with `sameClans`. */
export const selectClanMemberships = (s: S) => s.context.user?.clan_memberships_list ?? NO_CLANS;
/** Whether two lists of memberships name the same clans by the same names (so a selector's new array is no change). */
export const sameClans = (a: readonly ClanMembership[], b: readonly ClanMembership[]) =>
  a.length === b.length && a.every((m, i) => m.clan_id === b[i].clan_id && m.name === b[i].name);
