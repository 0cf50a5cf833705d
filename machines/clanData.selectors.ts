import type { SnapshotFrom } from 'xstate';
import type { clanDataMachine } from './clanData.machine';

type S = SnapshotFrom<typeof clanDataMachine>;

/** Named selectors of the clanData chart. */
export const isClanLoading = (s: S) => s.matches('loading');
export const isClanReady = (s: S) => s.matches('ready');
export const isClanLoadFailed = (s: S) => s.matches('failed');
export const selectClanName = (s: S) => s.context.clanName;
export const selectMembers = (s: S) => s.context.members;
export const selectClanSettings = (s: S) => s.context.settings;
export const selectClanLoadError = (s: S) => s.context.error;
