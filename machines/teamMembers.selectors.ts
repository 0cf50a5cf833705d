import type { SnapshotFrom } from 'xstate';
import type { teamMembersMachine } from './teamMembers.machine';

type S = SnapshotFrom<typeof teamMembersMachine>;

/** Named selectors of the teamMembers chart. */
export const selectMembers = (s: S) => s.context.members;
const selectEligible = (s: S) => s.context.eligible;
const selectSelectedIgnId = (s: S) => s.context.selectedIgnId;
const selectAddRole = (s: S) => s.context.role;
export const selectMembersLoading = (s: S) => s.matches('loading');
export const selectMembersFailed = (s: S) => s.matches('failed');
export const selectMembersLoadError = (s: S) => s.context.loadError;
const selectAdding = (s: S) => s.matches({ ready: { adding: 'submitting' } });
export const selectRoleSaving = (s: S) => s.hasTag('roleSaving');
export const selectNotice = (s: S) => s.context.notice;
export const selectNoticeFading = (s: S) => s.hasTag('messageFading');
/** The add button's rule (docs/client.md §6): an IGN chosen and nothing loading. */
const selectCanAdd = (s: S) =>
  s.matches({ ready: { adding: 'idle' } }) && s.context.selectedIgnId !== null && s.context.eligible.some((e) => e.id === s.context.selectedIgnId);
/** The add row of the member table: the eligible IGNs, the chosen one and role, an add under way, and whether Add may be pressed (compare with shallowEqual). */
export const selectAddRow = (s: S) => ({
  eligible: selectEligible(s),
  selectedIgnId: selectSelectedIgnId(s),
  role: selectAddRole(s),
  adding: selectAdding(s),
  canAdd: selectCanAdd(s),
});
