import { assign, setup } from 'xstate';
import { LIGHTBOX_ZOOMS, type LightboxImage } from '../contract/proofView';

export interface LightboxContext {
  /** The images the lightbox steps through, as they were when it opened. */
  images: LightboxImage[];
  /** Which image shows. */
  index: number;
  /** Which of LIGHTBOX_ZOOMS applies (0: the image fits the window). */
  zoom: number;
}

export type LightboxEvent =
  | { type: 'lightbox.open'; images: LightboxImage[]; index: number }
  | { type: 'lightbox.next' }
  | { type: 'lightbox.previous' }
  | { type: 'lightbox.zoomIn' }
  | { type: 'lightbox.zoomOut' }
  | { type: 'lightbox.zoomReset' }
  | { type: 'lightbox.close' };

/**
 * The proof image lightbox (Reviews, the task panel and the proof dialog): `lightbox.open` with the
 * images and the one to show; `lightbox.next` / `lightbox.previous` step through them (no wrap: the
 * ends are where the list ends), each image starting fitted; `lightbox.zoomIn` / `lightbox.zoomOut`
 * step through LIGHTBOX_ZOOMS, `lightbox.zoomReset` fits it again; `lightbox.close` closes.
 * Which buttons work is derived with `can`.
 */
export const lightboxMachine = setup({
  types: {
    context: {} as LightboxContext,
    events: {} as LightboxEvent,
  },
  guards: {
    hasImage: (_, params: { images: LightboxImage[]; index: number }) => params.index >= 0 && params.index < params.images.length,
    hasNext: ({ context }) => context.index < context.images.length - 1,
    hasPrevious: ({ context }) => context.index > 0,
    canZoomIn: ({ context }) => context.zoom < LIGHTBOX_ZOOMS.length - 1,
    isZoomed: ({ context }) => context.zoom > 0,
  },
  actions: {
    assignImages: assign((_, params: { images: LightboxImage[]; index: number }) => ({ images: params.images, index: params.index, zoom: 0 })),
    showNext: assign(({ context }) => ({ index: context.index + 1, zoom: 0 })),
    showPrevious: assign(({ context }) => ({ index: context.index - 1, zoom: 0 })),
    zoomIn: assign(({ context }) => ({ zoom: context.zoom + 1 })),
    zoomOut: assign(({ context }) => ({ zoom: context.zoom - 1 })),
    fit: assign({ zoom: 0 }),
    forgetImages: assign({ images: [], index: 0, zoom: 0 }),
  },
}).createMachine({
  id: 'lightbox',
  context: { images: [], index: 0, zoom: 0 },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'lightbox.open': {
          guard: { type: 'hasImage', params: ({ event }) => ({ images: event.images, index: event.index }) },
          target: 'open',
          actions: { type: 'assignImages', params: ({ event }) => ({ images: event.images, index: event.index }) },
        },
      },
    },
    open: {
      tags: ['modalOpen'],
      on: {
        'lightbox.next': { guard: 'hasNext', actions: 'showNext' },
        'lightbox.previous': { guard: 'hasPrevious', actions: 'showPrevious' },
        'lightbox.zoomIn': { guard: 'canZoomIn', actions: 'zoomIn' },
        'lightbox.zoomOut': { guard: 'isZoomed', actions: 'zoomOut' },
        'lightbox.zoomReset': { guard: 'isZoomed', actions: 'fit' },
        'lightbox.close': { target: 'closed', actions: 'forgetImages' },
      },
    },
  },
});
