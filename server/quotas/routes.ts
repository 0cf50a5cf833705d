import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { ids, named, route } from '../http/route';
import { clanScope } from '../http/clanScope';
import { ClanUsageSchema } from '../../contract/quotas';
import { usageOf } from './repository';

/**
 * A clan's quotas and how much of them it uses (docs/server.md §18 "Quotas"):
 * - GET /clan/{clanId}/usage → {upload_bytes, upload_quota_bytes, events_open, events_limit};
 *   managers (Owner, Admin); 401 signed out, 400 'Invalid clan id.', 404 unknown clan, 403 anyone else.
 */
export function quotaRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(
    '/clan/:clanId/usage',
    ...route({ tag: 'quotas', access: 'manager', summary: "The clan's stored proof-image bytes and open events, with their limits.", answer: named('ClanUsage', ClanUsageSchema), param: ids({ clanId: 'clan id' }) }),
    async (c) => {
      const { clanId, db, deps } = await clanScope(c, 'manager');
      return c.json(await usageOf(db, deps.config, clanId));
    },
  );

  return app;
}
