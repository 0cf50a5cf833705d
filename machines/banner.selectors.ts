import type { SnapshotFrom } from 'xstate';
import type { bannerMachine } from './banner.machine';

type S = SnapshotFrom<typeof bannerMachine>;

/** Named selectors of the banner chart. */
export const selectBannerMessage = (s: S) => s.context.message;
export const isBannerFading = (s: S) => s.matches('fading');
