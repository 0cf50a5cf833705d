/** True when the viewer asked the system for reduced motion (then no confetti is drawn). */
export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Starts confetti bursts on `canvas` (canvas-confetti) until the returned stop function is called;
 * the gamePlay chart decides how long (15 s, docs/client.md §12). Nothing is drawn under
 * prefers-reduced-motion.
 */
export function launchConfetti(canvas: HTMLCanvasElement): () => void {
  if (prefersReducedMotion()) return () => {};
  let stopped = false;
  let stop = () => {};
  // canvas-confetti loads only when a game is won, not with every game page.
  void import('canvas-confetti').then(({ default: confetti }) => {
    if (stopped) return;
    const fire = confetti.create(canvas, { resize: true, disableForReducedMotion: true });
    const burst = () => {
      void fire({ particleCount: 70, spread: 75, startVelocity: 38, origin: { x: 0.15 + Math.random() * 0.7, y: 0.2 + Math.random() * 0.3 } });
    };
    burst();
    const timer = window.setInterval(burst, 800);
    stop = () => {
      window.clearInterval(timer);
      fire.reset();
    };
  });
  return () => {
    stopped = true;
    stop();
  };
}
