/**
 * Shows the app in place of the server's first drawing of a spectator page (docs/client.md §9
 * "First drawing"; server/http/firstDrawing.ts), which is removed: called once the game screen's
 * board is drawn, or when it shows an error instead. Until then the drawing lies over #root, which
 * carries `app-behind` (laid out, not painted: styles.css). Nothing moves, since the drawing is
 * out of the flow and visibility does not change the layout. Does nothing after the first call or
 * on a page without a drawing.
 */
export function revealApp(): void {
  const drawing = document.querySelector('[data-first-drawing]');
  if (!drawing) return;
  drawing.remove();
  document.getElementById('root')?.classList.remove('app-behind');
}
