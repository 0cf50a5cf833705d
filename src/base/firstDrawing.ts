/**
 * Shows the app in place of the server's first drawing of a spectator page (docs/client.md §9
 * "First drawing"; server/http/firstDrawing.ts), which is removed: called once the game screen's
 * board is drawn, or when it shows an error instead. Until then #root carries `app-behind`,
 * `aria-hidden` and `inert`: laid out and painted into a layer of its own but transparent, out of
 * reach of pointer, keyboard and screen reader (styles.css); then only that layer's opacity
 * changes (`app-shown`), so nothing is painted again and nothing moves. Does nothing after the
 * first call or on a page without a drawing.
 */
export function revealApp(): void {
  const drawing = document.querySelector('[data-first-drawing]');
  if (!drawing) return;
  drawing.remove();
  const root = document.getElementById('root');
  if (!root) return;
  root.classList.replace('app-behind', 'app-shown');
  root.removeAttribute('aria-hidden');
  root.removeAttribute('inert');
}
