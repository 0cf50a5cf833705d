/**
 * Hands the page's CSP style nonce to the libraries that add `<style>` tags at run time:
 * react-remove-scroll (under Radix dialogs and menus) and react-colorful both read the global
 * `__webpack_nonce__`. The server writes a fresh nonce into `<meta name="csp-nonce">` of every
 * index.html and allows only styles with it, besides the site's own style sheets
 * (docs/server.md §8; server/http/securityHeaders.ts). An empty or missing tag (the Vite
 * dev server, tests) leaves the global unset. Call once, before the app renders.
 */
export function adoptCspNonce(doc: Document = document): void {
  const nonce = doc.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
  if (nonce) (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = nonce;
}
