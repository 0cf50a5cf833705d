import type { Context } from 'hono';
import type { AppEnv } from './context';

/**
 * The site's origin as the caller's browser sees it, for the links the API answers (a Dink link,
 * docs/server.md §13; an invite's `url`, §18): the request's Origin header (checked against Host
 * by the app for POST/PUT/DELETE), else the scheme (X-Forwarded-Proto when TRUST_PROXY is set) and
 * Host of the request. The server has no configured public origin: behind a proxy, the proxy
 * passes Host and X-Forwarded-Proto through (docs/server.md §14).
 */
export function siteOrigin(c: Context<AppEnv>): string {
  const origin = c.req.header('origin');
  if (origin && origin !== 'null') return origin;
  const url = new URL(c.req.url);
  const forwarded = c.get('deps').config.trustProxy > 0 ? c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() : undefined;
  const proto = forwarded === 'https' || forwarded === 'http' ? forwarded : url.protocol.replace(':', '');
  return `${proto}://${c.req.header('host') ?? url.host}`;
}
