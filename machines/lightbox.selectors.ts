import type { SnapshotFrom } from 'xstate';
import { LIGHTBOX_ZOOMS } from '../contract/proofView';
import type { lightboxMachine } from './lightbox.machine';

type S = SnapshotFrom<typeof lightboxMachine>;

/** Named selectors of the lightbox chart. */
export const isLightboxOpen = (s: S) => s.hasTag('modalOpen');
/** The image showing, or null while closed. */
export const selectLightboxImage = (s: S) => (s.matches('open') ? s.context.images[s.context.index] ?? null : null);
export const selectLightboxIndex = (s: S) => s.context.index;
export const selectLightboxCount = (s: S) => s.context.images.length;
/** The zoom factor (1: fitted to the window). */
export const selectLightboxZoom = (s: S) => LIGHTBOX_ZOOMS[s.context.zoom];
export const canShowNext = (s: S) => s.can({ type: 'lightbox.next' });
export const canShowPrevious = (s: S) => s.can({ type: 'lightbox.previous' });
export const canZoomIn = (s: S) => s.can({ type: 'lightbox.zoomIn' });
export const canZoomOut = (s: S) => s.can({ type: 'lightbox.zoomOut' });
