import crypto from 'node:crypto';
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Context } from 'hono';
import { CodeChallengeMethod, OAuth2Client, generateCodeVerifier, generateState } from 'arctic';
import * as v from 'valibot';
import type { AppEnv } from '../http/context';
import { describe, input, named, valid } from '../http/route';
import { devLoginEnabled, discordLoginEnabled } from '../config';
import { badRequest, notFound } from '../errors';
import { createSession, deleteSession, deleteUserSessions, findSession } from './sessions';
import { upsertDiscordUser } from '../users/repository';
import { AuthStatusSchema, DEFAULT_RETURN_PATH, DevLoginBodySchema, LogoutBodySchema, safeReturnPath } from '../../contract/user';
import { OkSchema } from '../../contract/common';
import { sanitizeForeignText } from '../../contract/text';

/** Name of the httpOnly session cookie. */
export const SESSION_COOKIE = 'sid';
const OAUTH_COOKIE = 'oauth_flow';
/** How long the sign-in callback waits for each of Discord's answers (token, profile), in ms (docs/server.md §14 "Faults"). */
const DISCORD_ANSWER_MS = 10_000;
/** The sign-in's failure when Discord does not answer within DISCORD_ANSWER_MS. */
const DISCORD_SILENT = 'Discord did not answer in time; please try again';

/** Thrown by inTime when Discord has not answered within DISCORD_ANSWER_MS. */
class DiscordSilent extends Error {}

/** `work`'s result, or a DiscordSilent rejection once DISCORD_ANSWER_MS have passed without it. */
function inTime<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DiscordSilent()), DISCORD_ANSWER_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * The page a sign-in returns to: `?path=` (`asked`) when it is a same-origin relative path, /dashboard when
 * absent or empty; anything else (an absolute or foreign URL) is refused with 400, never followed.
 */
function returnPathOf(asked: string | undefined): string {
  if (!asked) return DEFAULT_RETURN_PATH;
  const path = safeReturnPath(asked);
  if (path === null) throw badRequest('The return path must be a path on this site.');
  return path;
}

function isHttps(c: Context<AppEnv>): boolean {
  return new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https';
}

async function startSession(c: Context<AppEnv>, userId: number, data: Record<string, unknown>): Promise<void> {
  const { db, config } = c.get('deps');
  const id = await createSession(db, userId, config.sessionTtlMs, data);
  setCookie(c, SESSION_COOKIE, id, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c),
    path: '/',
    maxAge: Math.floor(config.sessionTtlMs / 1000),
  });
}

/**
 * Discord's users/@me answer as stored: id a snowflake (digits, else the sign-in fails), username
 * cleaned by sanitizeForeignText (control, zero-width and bidi characters dropped: Discord's text
 * cannot be refused, but a NUL must never reach the database), avatar a hash (anything else: none).
 */
const DiscordUserSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[0-9]{1,32}$/)),
  username: v.pipe(v.string(), v.transform(sanitizeForeignText)),
  global_name: v.optional(v.nullable(v.string())),
  avatar: v.pipe(
    v.optional(v.nullable(v.string()), null),
    v.transform((a) => (a && /^[A-Za-z0-9_-]{1,128}$/.test(a) ? a : null)),
  ),
});

/** GET /auth/discord's query: the page to return to. */
const StartQuerySchema = v.object({ path: v.optional(v.string()) });
/** GET /auth/discord/callback's query, as Discord sends it: a code and our state, or its refusal. */
const CallbackQuerySchema = v.object({
  code: v.optional(v.string()),
  state: v.optional(v.string()),
  error: v.optional(v.string()),
  error_description: v.optional(v.string()),
});

/**
 * Sign-in, sign-out and session status (docs/server.md §2):
 * - GET /games/auth/status → {authorized, has_token, session_keys, error, dev_login, discord_login}
 * - POST /logout, body optional → {ok: true}; deletes the server-side session and the cookie;
 *   `{"everywhere": true}` deletes every session of the user (docs/server.md §8); a body
 *   that is not JSON or not that shape → 400; signed out it only clears the cookie
 * - POST /auth/dev {username} → {ok: true}; 404 when dev sign-in is off
 * - GET /auth/discord?path= → 302 to Discord's authorize URL (PKCE S256 + state); a path that is
 *   not a same-origin relative path → 400 (no open redirect)
 * - GET /auth/discord/callback → 302 to /auth-callback?auth=success&path=… or ?error=…; the user
 *   is created or updated from users/@me id, username (not global_name) and avatar
 */
export function authRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(
    '/games/auth/status',
    describe({ tag: 'auth', access: 'public', summary: 'Whether this browser has a session, and which sign-ins the server offers.', answer: named('AuthStatus', AuthStatusSchema) }),
    async (c) => {
      const { db, config } = c.get('deps');
      const cookie = getCookie(c, SESSION_COOKIE);
      const session = cookie ? await findSession(db, cookie) : null;
      return c.json({
        authorized: session !== null,
        has_token: Boolean(cookie),
        session_keys: session?.keys ?? [],
        error: null,
        dev_login: devLoginEnabled(config),
        discord_login: discordLoginEnabled(config),
      });
    },
  );

  app.post(
    '/logout',
    describe({ tag: 'auth', access: 'public', summary: 'Ends this session, or every session of the user with `{"everywhere": true}`.', answer: named('Ok', OkSchema) }),
    input('json', named('LogoutBody', LogoutBodySchema), { optional: true }),
    async (c) => {
      const { db, broadcaster } = c.get('deps');
      const { everywhere } = valid(c, 'json');
      const user = c.get('user');
      const cookie = getCookie(c, SESSION_COOKIE);
      if (user && everywhere) await deleteUserSessions(db, user.id);
      else if (cookie) await deleteSession(db, cookie);
      deleteCookie(c, SESSION_COOKIE, { path: '/' });
      // The one place that learns who signed out and which sessions ended (null: all of them).
      if (user) await broadcaster.signedOut(user.id, everywhere ? null : user.sessionId);
      return c.json({ ok: true });
    },
  );

  app.post(
    '/auth/dev',
    describe({ tag: 'auth', access: 'public', summary: 'Development sign-in (404 when Discord is configured or NODE_ENV=production); sets the session cookie.', answer: named('Ok', OkSchema) }),
    input('json', named('DevLoginBody', DevLoginBodySchema)),
    async (c) => {
      const { db, config } = c.get('deps');
      if (!devLoginEnabled(config)) throw notFound('Not found.');
      const { username } = valid(c, 'json');
      const discordId = 'dev-' + crypto.createHash('sha256').update(username).digest('hex').slice(0, 16);
      const userId = await upsertDiscordUser(db, { discord_id: discordId, username, avatar_url: null });
      await startSession(c, userId, { user_id: userId, discord_id: discordId, dev: true });
      return c.json({ ok: true });
    },
  );

  const discordClient = (c: Context<AppEnv>) => {
    const { config } = c.get('deps');
    const d = config.discord;
    if (!d.clientId) return null;
    const redirect = d.redirectUri ?? new URL('/api/auth/discord/callback', c.req.url).toString();
    return { client: new OAuth2Client(d.clientId, d.clientSecret, redirect), d };
  };

  app.get(
    '/auth/discord',
    describe({ tag: 'auth', access: 'public', status: 302, summary: "Starts Discord sign-in: redirects to Discord's authorize page." }),
    input('query', StartQuerySchema, { about: { path: 'The same-site page to return to (default /dashboard); anything else is a 400.' } }),
    (c) => {
      const path = returnPathOf(valid(c, 'query').path);
      const dc = discordClient(c);
      if (!dc) return c.redirect('/auth-callback?error=' + encodeURIComponent('Discord sign-in is not configured on this server'));
      const state = generateState();
      const verifier = generateCodeVerifier();
      const url = dc.client.createAuthorizationURLWithPKCE(dc.d.authorizeUrl, state, CodeChallengeMethod.S256, verifier, ['identify']);
      setCookie(c, OAUTH_COOKIE, JSON.stringify({ state, verifier, path }), {
        httpOnly: true, sameSite: 'Lax', secure: isHttps(c), path: '/api/auth', maxAge: 600,
      });
      return c.redirect(url.toString());
    },
  );

  app.get(
    '/auth/discord/callback',
    describe({ tag: 'auth', access: 'public', status: 302, summary: "Discord's redirect back: signs in and redirects to /auth-callback." }),
    input('query', CallbackQuerySchema, {
      about: {
        code: "Discord's authorization code.",
        state: 'The state sent to Discord.',
        error: 'Discord\'s refusal (the user declined): the sign-in fails with it.',
        error_description: "Discord's words for the refusal.",
      },
    }),
    async (c) => {
      const fail = (reason: string) => {
        deleteCookie(c, OAUTH_COOKIE, { path: '/api/auth' });
        return c.redirect('/auth-callback?error=' + encodeURIComponent(reason));
      };
      const dc = discordClient(c);
      if (!dc) return fail('Discord sign-in is not configured on this server');
      const query = valid(c, 'query');
      if (query.error) return fail(query.error_description || query.error || 'access denied');
      let flow: { state: string; verifier: string; path: string };
      try {
        flow = JSON.parse(getCookie(c, OAUTH_COOKIE) ?? '');
      } catch {
        return fail('sign-in session missing or expired');
      }
      const code = query.code;
      if (!code || !flow.state || query.state !== flow.state) return fail('invalid state');
      let accessToken: string;
      // Discord not answering (a hang) fails the sign-in after DISCORD_ANSWER_MS instead of holding the page.
      try {
        const tokens = await inTime(dc.client.validateAuthorizationCode(dc.d.tokenUrl, code, flow.verifier));
        accessToken = tokens.accessToken();
      } catch (err) {
        return fail(err instanceof DiscordSilent ? DISCORD_SILENT : 'token exchange failed');
      }
      let who: v.InferOutput<typeof DiscordUserSchema>;
      try {
        const res = await fetch(dc.d.userUrl, { headers: { Authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(DISCORD_ANSWER_MS) });
        if (!res.ok) return fail('could not read the Discord profile');
        who = v.parse(DiscordUserSchema, await res.json());
      } catch (err) {
        return fail(err instanceof Error && err.name === 'TimeoutError' ? DISCORD_SILENT : 'could not read the Discord profile');
      }
      const { db } = c.get('deps');
      const avatar = who.avatar ? `https://cdn.discordapp.com/avatars/${who.id}/${who.avatar}.png` : null;
      const userId = await upsertDiscordUser(db, { discord_id: who.id, username: who.username, avatar_url: avatar });
      await startSession(c, userId, { user_id: userId, discord_id: who.id });
      deleteCookie(c, OAUTH_COOKIE, { path: '/api/auth' });
      return c.redirect(`/auth-callback?auth=success&path=${encodeURIComponent(flow.path)}`);
    },
  );

  return app;
}
