import type { Context } from 'hono';
import type { SecureHeadersVariables } from 'hono/secure-headers';
import * as v from 'valibot';
import type { Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import { badRequest, unauthorized } from '../errors';
import { IdParamSchema } from '../../contract/common';
import type { Broadcaster } from '../realtime/broadcaster';
import type { ImageStore } from '../submissions/storage';
import type { GameCache } from '../games/cache';
import type { AppliedAction, PrecheckedAction } from '../games/play';
import type { TeamAction } from '../../contract/socket';

/** The signed-in user of a request, from the session cookie. */
export interface SessionUser {
  id: number;
  username: string;
  sessionId: string;
}

/**
 * What every route can reach: the database, the configuration, the live broadcaster, Redis (null
 * without REDIS_URL), the proof image store (docs/server.md §9) and the games served from
 * memory (games/cache.ts).
 */
export interface Deps {
  db: Kysely<Database>;
  dialect: Dialect;
  config: Config;
  broadcaster: Broadcaster;
  redis: Redis | null;
  images: ImageStore;
  gameCache: GameCache;
  /**
   * This process's pick clocks of the captains' drafts (server/draft/clock.ts, docs/server.md §16):
   * told after each change so the clock follows the new deadline; absent in an app without them.
   */
  draftClock?: { changed(eventId: number): void };
  /**
   * The live socket's roll path (games/socket.ts playMove with applyRoll, set by
   * realtime/socket.ts): a roll made over HTTP (Discord's `/snl roll`, docs/server.md §19) is the
   * socket's roll_dice exactly, queue and broadcasts included. Absent in an app without sockets.
   */
  moves?: { roll(action: TeamAction, pre: PrecheckedAction, arrivedAt?: number): Promise<AppliedAction> };
}

/**
 * Hono environment of the app: `c.var.user` is null when signed out; `secureHeadersNonce` is the
 * answer's CSP style nonce (set by securityHeaders, http/securityHeaders.ts); `requestId` is the
 * answer's X-Request-Id (observability/requests.ts, docs/server.md §14).
 */
export type AppEnv = { Variables: { user: SessionUser | null; deps: Deps; requestId: string } & SecureHeadersVariables };

/** The signed-in user, or a 401 `{"error": "You must be signed in."}`. */
export function requireUser(c: Context<AppEnv>): SessionUser {
  const user = c.get('user');
  if (!user) throw unauthorized();
  return user;
}

/**
 * A positive integer path id that fits the database's integer column (1..ID_MAX of
 * contract/common.ts); 400 'Invalid {label}.' otherwise, so '12abc', '0' and 9999999999 never
 * reach SQL, where PostgreSQL would fail.
 */
export function pathId(c: Context<AppEnv>, name: string, label = name): number {
  const result = v.safeParse(IdParamSchema, c.req.param(name));
  if (!result.success) throw badRequest(`Invalid ${label}.`);
  return result.output;
}
