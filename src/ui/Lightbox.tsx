import * as Dialog from '@radix-ui/react-dialog';
import { useActorRef, useSelector } from '@xstate/react';
import type { KeyboardEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { LightboxImage } from '../../contract/proofView';
import { lightboxMachine, type LightboxEvent } from '../../machines/lightbox.machine';
import * as sel from '../../machines/lightbox.selectors';
import { ChartDialogContent } from './Modal';

/** A lightbox chart actor as its opener and the Lightbox hold it. */
export type LightboxRef = ActorRefFrom<typeof lightboxMachine>;

/** A lightbox chart for a screen that shows proof images (one per screen: Reviews, a task card). */
export function useLightbox(): LightboxRef {
  return useActorRef(lightboxMachine);
}

/** The lightbox's keys: arrows step, + / = and - zoom, 0 fits; Escape is Radix's (closes). */
const KEYS: Record<string, Exclude<LightboxEvent['type'], 'lightbox.open'>> = {
  ArrowRight: 'lightbox.next',
  ArrowLeft: 'lightbox.previous',
  '+': 'lightbox.zoomIn',
  '=': 'lightbox.zoomIn',
  '-': 'lightbox.zoomOut',
  '0': 'lightbox.zoomReset',
};

/**
 * A thumbnail that opens `images[index]` in the lightbox: a button (keyboard reachable) holding
 * the image at `thumb`, shown whole (the box letterboxes it, never crops).
 */
export function LightboxThumb({ lightbox, images, index, thumb, className = 'proof-thumb' }: { lightbox: LightboxRef; images: LightboxImage[]; index: number; thumb: string; className?: string }) {
  const image = images[index];
  return (
    <button type="button" className={className} title="View full size" aria-label={`View full size: ${image.alt}`} onClick={() => lightbox.send({ type: 'lightbox.open', images, index })}>
      <img src={thumb} alt={image.alt} loading="lazy" />
    </button>
  );
}

/**
 * The proof image lightbox: a Radix dialog opened by the lightbox chart (focus trap; Escape and
 * the close button send `lightbox.close`), the image fitted to the window or zoomed (the frame scrolls), its caption and
 * 'n of m', Previous / Next (for more than one image) and zoom buttons enabled as the chart
 * allows, and the keys ← → + - 0.
 */
export function Lightbox({ lightbox }: { lightbox: LightboxRef }) {
  const open = useSelector(lightbox, sel.isLightboxOpen);
  const image = useSelector(lightbox, sel.selectLightboxImage);
  const index = useSelector(lightbox, sel.selectLightboxIndex);
  const count = useSelector(lightbox, sel.selectLightboxCount);
  const zoom = useSelector(lightbox, sel.selectLightboxZoom);
  const hasNext = useSelector(lightbox, sel.canShowNext);
  const hasPrevious = useSelector(lightbox, sel.canShowPrevious);
  const zoomIn = useSelector(lightbox, sel.canZoomIn);
  const zoomOut = useSelector(lightbox, sel.canZoomOut);
  const send = (type: Exclude<LightboxEvent['type'], 'lightbox.open'>) => lightbox.send({ type });
  const onKeyDown = (e: KeyboardEvent) => {
    const type = KEYS[e.key];
    if (!type || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    e.stopPropagation();
    send(type);
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && send('lightbox.close')}>
      <ChartDialogContent open={open} className="lightbox" aria-describedby={undefined} data-testid="lightbox" data-index={index} data-zoom={zoom} onKeyDown={onKeyDown}>
        <div className="lightbox__bar">
          <Dialog.Title className="lightbox__title">
            {image?.caption} {count > 1 && <span className="lightbox__count">({index + 1} of {count})</span>}
          </Dialog.Title>
          <Dialog.Close className="btn btn--small lightbox__close" aria-label="Close">
            ✕
          </Dialog.Close>
        </div>
        <div className={zoom > 1 ? 'lightbox__frame lightbox__frame--zoomed' : 'lightbox__frame'} data-testid="lightbox-frame">
          {image && <img className="lightbox__image" src={image.src} alt={image.alt} style={zoom > 1 ? { width: `${zoom * 100}%` } : undefined} data-testid="lightbox-image" />}
        </div>
        <div className="lightbox__controls">
          {count > 1 && (
            <button type="button" className="btn btn--small" disabled={!hasPrevious} onClick={() => send('lightbox.previous')}>
              ← Previous
            </button>
          )}
          <button type="button" className="btn btn--small" disabled={!zoomOut} onClick={() => send('lightbox.zoomOut')} aria-label="Zoom out">
            −
          </button>
          <span className="lightbox__zoom" aria-live="polite" data-testid="lightbox-zoom">
            {Math.round(zoom * 100)}%
          </span>
          <button type="button" className="btn btn--small" disabled={!zoomIn} onClick={() => send('lightbox.zoomIn')} aria-label="Zoom in">
            +
          </button>
          <button type="button" className="btn btn--small" disabled={!zoomOut} onClick={() => send('lightbox.zoomReset')}>
            Fit
          </button>
          {count > 1 && (
            <button type="button" className="btn btn--small" disabled={!hasNext} onClick={() => send('lightbox.next')}>
              Next →
            </button>
          )}
        </div>
        <p className="muted lightbox__keys">Keys: {count > 1 && '← → previous / next, '}+ / − zoom, 0 fit, Esc close.</p>
      </ChartDialogContent>
    </Dialog.Root>
  );
}
