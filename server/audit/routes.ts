import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { ids, named, route, valid } from '../http/route';
import { clanScope } from '../http/clanScope';
import { auditPage } from './service';
import { AuditAnswerSchema, AuditQuerySchema } from '../../contract/audit';

/** The clan id of the path; 400 'Invalid clan id.' otherwise. */
const CLAN_ID = ids({ clanId: 'clan id' });

/**
 * The clan History (docs/server.md §18 "History"), managers only: 401 signed out, 400 'Invalid
 * clan id.', 404 'Clan ID {id} not found.', 403 for a non-member or a role below Admin
 * (http/clanScope.ts).
 * - GET /clan/{clanId}/audit?before={id} → {entries} 100 a page, newest first (ties by id), after
 *   entry `before` when given; 400 'Invalid before id.' for a `before` that is no entry of the clan
 */
export function auditRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(
    '/clan/:clanId/audit',
    ...route({ tag: 'audit', access: 'manager', summary: "The clan's History: who changed what, newest first, 100 a page.", answer: named('AuditAnswer', AuditAnswerSchema), param: CLAN_ID, query: AuditQuerySchema }),
    async (c) => {
      const { clanId, db } = await clanScope(c, 'manager');
      const { before } = valid(c, 'query');
      return c.json({ entries: await auditPage(db, clanId, before) });
    },
  );

  return app;
}
