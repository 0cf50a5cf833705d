import type { SnapshotFrom } from 'xstate';
import type { onboardingMachine } from './onboarding.machine';

type S = SnapshotFrom<typeof onboardingMachine>;

/** Named selectors of the onboarding chart. */
export const selectStep = (s: S): 'igns' | 'clan' | 'done' =>
  s.matches('ignStep') ? 'igns' : s.matches('done') ? 'done' : 'clan';
export const selectIgnText = (s: S) => s.context.ignText;
export const selectRole = (s: S) => s.context.role;
export const selectClanName = (s: S) => s.context.clanName;
export const selectClanId = (s: S) => s.context.clanId;
export const selectClans = (s: S) => s.context.clans;
export const selectClansLoading = (s: S) => s.matches({ clanStep: 'loadingClans' });
export const selectSubmitting = (s: S) => s.matches('submitting');
export const selectOnboardingError = (s: S) => s.context.error;
export const selectIgns = (s: S) => s.context.igns;
