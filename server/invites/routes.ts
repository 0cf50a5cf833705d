import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/context';
import { requireUser } from '../http/context';
import { describe, ids, input, named, route, valid } from '../http/route';
import { clanScope } from '../http/clanScope';
import { siteOrigin } from '../http/siteOrigin';
import { recordAudit } from '../audit/service';
import { acceptInvite, createInvite, liveInvites, previewInvite, revokeClanInvite } from './service';
import { OkSchema } from '../../contract/common';
import {
  CreateInviteBodySchema,
  InviteAcceptAnswerSchema,
  InviteAnswerSchema,
  InviteListAnswerSchema,
  InvitePreviewAnswerSchema,
} from '../../contract/invite';

/** The clan id of the path; 400 'Invalid clan id.' otherwise. */
const CLAN_ID = ids({ clanId: 'clan id' });
/** An invite's code in the path: any text here; one not of a code's shape answers 404 like an unknown one (service.ts). */
const CodeParamSchema = v.string();
const CLAN_CODE = ids({ clanId: 'clan id' }, { code: CodeParamSchema });
const CODE = v.object({ code: CodeParamSchema });

/** Refusals of an invite that cannot be taken, as the document lists them. */
const GONE = { 410: { description: "'This invite has expired.' or 'This invite has been used up.'" } };

/**
 * Invites (docs/server.md §18 "Invites"). Managers' calls: 401 signed out, 400 'Invalid clan id.',
 * 404 'Clan ID {id} not found.', 403 for a non-member or a role below Admin (http/clanScope.ts).
 * - POST   /clan/{clanId}/invites {max_uses?, expires_in_hours?} → 201 {invite}; managers; the body
 *          may be left out; 400 naming the field outside 1..1,000 or 1..720 (contract/invite.ts)
 * - GET    /clan/{clanId}/invites → {invites} the live ones, newest first; managers
 * - DELETE /clan/{clanId}/invites/{code} → {ok}; managers; 404 for a code the clan has not (or revoked)
 * - GET    /invites/{code} → {invite: {clan: {id, name, member_count}, expires_at}}; no sign-in;
 *          404 unknown or revoked, 410 expired or used up
 * - POST   /invites/{code}/accept → 201 {membership}; signed in; 404 / 410 as GET, 409 without
 *          an IGN or for a member already, 403 for a kicked user (service.ts acceptInvite)
 */
export function inviteRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post(
    '/clan/:clanId/invites',
    describe({ tag: 'invites', access: 'manager', status: 201, summary: 'Makes an invite link of the clan (25 uses and 168 hours unless said).', answer: named('InviteAnswer', InviteAnswerSchema) }),
    input('param', CLAN_ID),
    input('json', named('CreateInviteBody', CreateInviteBodySchema), { optional: true }),
    async (c) => {
      const { user, clanId, db } = await clanScope(c, 'manager');
      const body = valid(c, 'json');
      const invite = await createInvite(db, clanId, user.id, body.max_uses, body.expires_in_hours, siteOrigin(c));
      // The History names the link by its bounds, never by its code (the code lets anyone in).
      await recordAudit(db, clanId, user.id, 'invite.create', 'Invite link', `${body.max_uses} uses, ${body.expires_in_hours} hours`);
      return c.json({ invite }, 201);
    },
  );

  app.get(
    '/clan/:clanId/invites',
    ...route({ tag: 'invites', access: 'manager', summary: "The clan's live invites (neither revoked, expired nor used up), newest first.", answer: named('InviteListAnswer', InviteListAnswerSchema), param: CLAN_ID }),
    async (c) => {
      const { clanId, db } = await clanScope(c, 'manager');
      return c.json({ invites: await liveInvites(db, clanId, siteOrigin(c)) });
    },
  );

  app.delete(
    '/clan/:clanId/invites/:code',
    ...route({ tag: 'invites', access: 'manager', summary: 'Revokes an invite: its link answers 404 from then on.', answer: named('Ok', OkSchema), param: CLAN_CODE }),
    async (c) => {
      const { user, clanId, code, db } = await clanScope(c, 'manager');
      await revokeClanInvite(db, clanId, code);
      await recordAudit(db, clanId, user.id, 'invite.revoke', 'Invite link', 'Revoked');
      return c.json({ ok: true as const });
    },
  );

  app.get(
    '/invites/:code',
    ...route({ tag: 'invites', access: 'public', summary: 'The clan an invite leads to, its member count and the expiry.', answer: named('InvitePreviewAnswer', InvitePreviewAnswerSchema), also: GONE, param: CODE }),
    async (c) => {
      const { code } = valid(c, 'param');
      return c.json({ invite: await previewInvite(c.get('deps').db, code) });
    },
  );

  app.post(
    '/invites/:code/accept',
    ...route({ tag: 'invites', access: 'signed-in', status: 201, summary: "Joins the invite's clan as Member, whatever its join policy.", answer: named('InviteAcceptAnswer', InviteAcceptAnswerSchema), also: GONE, param: CODE }),
    async (c) => {
      const user = requireUser(c);
      const { code } = valid(c, 'param');
      return c.json({ membership: await acceptInvite(c.get('deps').db, code, user.id) }, 201);
    },
  );

  return app;
}
