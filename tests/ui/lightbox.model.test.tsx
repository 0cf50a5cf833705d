// @vitest-environment jsdom
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { LIGHTBOX_ZOOMS, type LightboxImage } from '../../contract/proofView';
import { lightboxMachine, type LightboxEvent } from '../../machines/lightbox.machine';
import { Lightbox, LightboxThumb, useLightbox } from '../../src/ui/Lightbox';
import { modelTests, type ModelExecutor } from '../support/chartModel';

/**
 * Model-based test of the lightbox chart (proof images in Reviews, the task panel and the proof
 * dialog) through the rendered thumbnails and Lightbox: paths generated from the real chart; each
 * step caused on the screen — a click on a thumbnail, the arrow keys or the Previous / Next
 * buttons, + / - / 0 or the zoom buttons, Escape or the close button — and every state asserted:
 * the dialog, the image and its caption (typed text as text), 'n of m', the zoom, and which
 * buttons work. Steps the chart refuses (past either end, beyond the zooms) are caused too (a
 * key, or a click on the disabled button) and change nothing.
 */

type Snap = SnapshotFrom<typeof lightboxMachine>;
type ModelEvent = LightboxEvent;
type World = { user: ReturnType<typeof userEvent.setup> };

const IMAGES: LightboxImage[] = [
  { src: '/api/submissions/1/image', alt: 'Proof from Red Dragons for square 4', caption: 'Red Dragons · Square 4: Kill <b>100</b> cows' },
  { src: '/api/submissions/2/image', alt: 'Proof from Blue Moons for square 5', caption: 'Blue Moons · Square 5: Kill 10 Lizardmen' },
];
const LAST_ZOOM = LIGHTBOX_ZOOMS.length - 1;

function eventsOf(s: Snap): ModelEvent[] {
  if (s.matches('closed')) return IMAGES.map((_, index) => ({ type: 'lightbox.open', images: IMAGES, index }));
  return [{ type: 'lightbox.next' }, { type: 'lightbox.previous' }, { type: 'lightbox.zoomIn' }, { type: 'lightbox.zoomOut' }, { type: 'lightbox.zoomReset' }, { type: 'lightbox.close' }];
}

/** What the chart refuses: past either end of the list, beyond the zoom levels. */
function ignores(s: Snap, e: ModelEvent): boolean {
  const { index, zoom } = s.context;
  if (e.type === 'lightbox.next') return index === IMAGES.length - 1;
  if (e.type === 'lightbox.previous') return index === 0;
  if (e.type === 'lightbox.zoomIn') return zoom === LAST_ZOOM;
  if (e.type === 'lightbox.zoomOut' || e.type === 'lightbox.zoomReset') return zoom === 0;
  return false;
}

const box = () => within(screen.getByTestId('lightbox'));
const button = (name: string | RegExp) => box().getByRole('button', { name }) as HTMLButtonElement;

/** Keys for one half of the steps, buttons for the other (by the image showing), so both are driven. */
const byKey = (prev: Snap) => prev.context.index === 0;

const EXECUTORS = {
  'lightbox.open': async (w, { event }) => {
    const { index } = event as Extract<ModelEvent, { type: 'lightbox.open' }>;
    await w.user.click(screen.getByRole('button', { name: `View full size: ${IMAGES[index].alt}` }));
  },
  'lightbox.next': async (w, { prev }) => (byKey(prev) ? w.user.keyboard('{ArrowRight}') : w.user.click(button('Next →'))),
  'lightbox.previous': async (w, { prev }) => (byKey(prev) ? w.user.keyboard('{ArrowLeft}') : w.user.click(button('← Previous'))),
  'lightbox.zoomIn': async (w, { prev }) => (byKey(prev) ? w.user.keyboard('+') : w.user.click(button('Zoom in'))),
  'lightbox.zoomOut': async (w, { prev }) => (byKey(prev) ? w.user.keyboard('-') : w.user.click(button('Zoom out'))),
  'lightbox.zoomReset': async (w, { prev }) => (byKey(prev) ? w.user.keyboard('0') : w.user.click(button('Fit'))),
  'lightbox.close': async (w, { prev }) => (byKey(prev) ? w.user.keyboard('{Escape}') : w.user.click(button('Close'))),
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

function Host() {
  const lightbox = useLightbox();
  return (
    <>
      {IMAGES.map((image, i) => (
        <LightboxThumb key={image.src} lightbox={lightbox} images={IMAGES} index={i} thumb={image.src.replace(/image$/, 'thumb')} />
      ))}
      <Lightbox lightbox={lightbox} />
    </>
  );
}

modelTests<Snap, ModelEvent, World>({
  name: 'lightbox',
  machine: lightboxMachine,
  events: eventsOf,
  ignores,
  dropPrefixPaths: true,
  // Whether the step changed the image or zoom tells a step taken (Previous from the second image,
  // Fit from a zoom) from the same step refused, which would otherwise reach the same state first.
  serialize: (s, event, prev) =>
    JSON.stringify([s.value, s.context.index, s.context.zoom, event?.type ?? null, !!prev && (prev.context.index !== s.context.index || prev.context.zoom !== s.context.zoom)]),
  executors: EXECUTORS,
  assertions: {
    closed: async () => {
      await waitFor(() => expect(screen.queryByTestId('lightbox')).toBeNull());
      // The thumbnails show the whole image (the thumb), not the full one.
      expect(screen.getAllByRole('img').map((img) => img.getAttribute('src'))).toEqual(['/api/submissions/1/thumb', '/api/submissions/2/thumb']);
    },
    open: async (s) => {
      const { index, zoom } = s.context;
      const image = IMAGES[index];
      const dialog = screen.getByRole('dialog');
      expect(dialog.dataset.testid).toBe('lightbox');
      expect(box().getByTestId('lightbox-image').getAttribute('src')).toBe(image.src);
      expect(box().getByTestId('lightbox-image').getAttribute('alt')).toBe(image.alt);
      // The caption is text: its markup is not parsed.
      const title = box().getByRole('heading');
      expect(title.textContent).toBe(`${image.caption} (${index + 1} of ${IMAGES.length})`);
      expect(title.querySelector('b')).toBeNull();
      expect(box().getByTestId('lightbox-zoom').textContent).toBe(`${Math.round(LIGHTBOX_ZOOMS[zoom] * 100)}%`);
      expect(box().getByTestId('lightbox-image').style.width).toBe(zoom > 0 ? `${LIGHTBOX_ZOOMS[zoom] * 100}%` : '');
      expect(button('← Previous').disabled).toBe(index === 0);
      expect(button('Next →').disabled).toBe(index === IMAGES.length - 1);
      expect(button('Zoom in').disabled).toBe(zoom === LAST_ZOOM);
      expect(button('Zoom out').disabled).toBe(zoom === 0);
      expect(button('Fit').disabled).toBe(zoom === 0);
      // Focus stays inside the dialog (Radix focus trap), so the keys reach it.
      expect(dialog.contains(document.activeElement)).toBe(true);
    },
  },
  render: () => {
    render(<Host />);
    return { user: userEvent.setup() };
  },
  guards: (paths) => {
    // The last image and the deepest zoom are reached.
    const seen = paths.flatMap((p) => p.steps.map((st) => st.state));
    // Each image starts fitted, a step moves by one image (none past either end), and closing forgets the images.
    for (const p of paths)
      for (const [i, st] of p.steps.entries()) {
        const before = p.steps[i - 1]?.state;
        if (st.event.type === 'lightbox.open') expect([st.state.context.index, st.state.context.zoom]).toEqual([st.event.index, 0]);
        if (st.event.type === 'lightbox.next' || st.event.type === 'lightbox.previous') {
          const to = before!.context.index + (st.event.type === 'lightbox.next' ? 1 : -1);
          const moves = to >= 0 && to < IMAGES.length;
          expect(st.state.context.index).toBe(moves ? to : before!.context.index);
          expect(st.state.context.zoom).toBe(moves ? 0 : before!.context.zoom);
        }
        if (st.event.type === 'lightbox.zoomReset') expect(st.state.context.zoom).toBe(0);
        if (st.event.type === 'lightbox.close') expect(st.state.context.images).toEqual([]);
      }
    expect(seen.some((st) => st.matches('open') && st.context.index === IMAGES.length - 1)).toBe(true);
    expect(seen.some((st) => st.matches('open') && st.context.zoom === LAST_ZOOM)).toBe(true);
  },
});
