import type { MiddlewareHandler } from 'hono';
import { NONCE, secureHeaders } from 'hono/secure-headers';

/** Where Discord serves avatars (the only foreign origin the client loads anything from). */
const DISCORD_CDN = 'https://cdn.discordapp.com';

/**
 * The security headers of every answer (docs/server.md §8), Hono's secureHeaders:
 * - Content-Security-Policy: `default-src 'self'`; scripts only from the site's own files (no
 *   inline script); styles from the site's own files plus `<style>` tags carrying this answer's
 *   nonce (react-remove-scroll under Radix dialogs and menus, and react-colorful, add such tags at
 *   run time; the client passes the nonce on, see src/base/cspNonce.ts); images also from data:,
 *   blob: and Discord's CDN; fetch, XHR and the Socket.IO WebSocket to the same origin only;
 *   `object-src 'none'`, `base-uri 'none'`, `form-action 'self'`, `frame-ancestors 'none'`.
 * - X-Content-Type-Options: nosniff; Referrer-Policy: strict-origin-when-cross-origin;
 *   X-Frame-Options: DENY; and Hono's other defaults (Cross-Origin-Opener-Policy and
 *   Cross-Origin-Resource-Policy same-origin, Origin-Agent-Cluster, Strict-Transport-Security,
 *   X-DNS-Prefetch-Control off, X-Download-Options, X-Permitted-Cross-Domain-Policies,
 *   X-XSS-Protection 0), except on the hashed files under /assets/, which carry the four of §8
 *   (with the CSP) and X-Request-Id only (NOT_ON_ASSETS).
 * The nonce is fresh per answer, read with `c.get('secureHeadersNonce')` (see withStyleNonce).
 */
export function securityHeaders(): MiddlewareHandler {
  const full = fullSecurityHeaders();
  return async (c, next) => {
    await full(c, next);
    if (!c.req.path.startsWith('/assets/')) return;
    for (const name of NOT_ON_ASSETS) c.res.headers.delete(name);
  };
}

/**
 * Headers a hashed, immutable script or style file goes without: Hono's defaults beyond the four
 * of docs/server.md §8 guard documents and navigations (the pages carry them), and Last-Modified
 * is never asked for (the files are cached for a year, never revalidated). Each file of the first
 * load is about a third of a KiB lighter on the wire.
 */
const NOT_ON_ASSETS = [
  'Cross-Origin-Opener-Policy',
  'Cross-Origin-Resource-Policy',
  'Origin-Agent-Cluster',
  'Strict-Transport-Security',
  'X-DNS-Prefetch-Control',
  'X-Download-Options',
  'X-Permitted-Cross-Domain-Policies',
  'X-XSS-Protection',
  'Last-Modified',
] as const;

/** Hono's secureHeaders with the site's CSP and the three headers of docs/server.md §8. */
function fullSecurityHeaders(): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", NONCE],
      imgSrc: ["'self'", 'data:', 'blob:', DISCORD_CDN],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xContentTypeOptions: 'nosniff',
    referrerPolicy: 'strict-origin-when-cross-origin',
    xFrameOptions: 'DENY',
  });
}

/**
 * The security headers of a JSON answer written without the middleware chain (the public game
 * route's fast path, lobby/publicGame.ts), computed once: the same set securityHeaders() writes
 * (docs/server.md §8), with the same CSP except that styles
 * carry no nonce. A JSON answer is never rendered as a page, so it has no `<style>` tag to allow;
 * its CSP is therefore one string for every answer, and no nonce is drawn for it.
 * tests/server/security-headers.api.test.ts checks it against the middleware's own set.
 */
export const JSON_ANSWER_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: " +
    `${DISCORD_CDN}; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Strict-Transport-Security': 'max-age=15552000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Frame-Options': 'DENY',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
});

/** The tag of index.html that carries the style nonce to the client (filled per answer). */
const NONCE_META = /<meta name="csp-nonce" content="[^"]*"\s*\/?>/;

/**
 * index.html with this answer's CSP nonce (`nonce`: base64 from secureHeaders) in
 * `<meta name="csp-nonce" content="...">`, the tag the client reads: index.html carries it empty;
 * should it be missing, it is added at the end of <head>.
 */
export function withStyleNonce(html: string, nonce: string): string {
  const tag = `<meta name="csp-nonce" content="${nonce}" />`;
  return NONCE_META.test(html) ? html.replace(NONCE_META, tag) : html.replace('</head>', `  ${tag}\n  </head>`);
}

/**
 * The security headers of the answers Socket.IO itself writes (its HTTP long-polling and
 * handshake answers under /socket.io, which do not pass through Hono; docs/server.md
 * §8). They carry data, never a page, so their CSP allows nothing.
 */
export const SOCKET_ANSWER_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; object-src 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
};
