import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { requireUser } from '../http/context';
import { ids, named, route, valid } from '../http/route';
import { badRequest, conflict, notFound, unauthorized } from '../errors';
import { nowIso } from '../time';
import { listIgns, loadProfile } from './repository';
import { createClan } from '../clans/repository';
import { joinClan } from '../joins/service';
import { listListedClans } from '../joins/repository';
import { SetupAnswerSchema, SetupBodySchema } from '../../contract/onboarding';
import { IgnAnswerSchema, IgnBodySchema, UserSchema } from '../../contract/user';
import { ClanListSchema, CreateClanAnswerSchema, CreateClanBodySchema } from '../../contract/clan';
import { OkSchema } from '../../contract/common';
import { AccountExportSchema, DATA_RIGHTS_TEXTS, DeleteAccountAnswerSchema, DeleteAccountBodySchema, exportFileName } from '../../contract/dataRights';
import { clearSessionCookie, deleteAccount, exportAccount } from './dataRights';

/** The IGN id of the path; 400 'Invalid IGN id.' when not a positive integer that fits the id column. */
const IGN_ID = ids({ ignId: 'IGN id' });
const IgnBody = named('IgnBody', IgnBodySchema);
const IgnAnswer = named('IgnAnswer', IgnAnswerSchema);

/**
 * The signed-in user's own data (docs/server.md §3,
 * §4):
 * - GET /user/me → User; 401 when signed out
 * - POST /user/setup {igns, clan_setup} → {ign_count}, plus {join_request} when the Member choice
 *   is a `request` clan; 400 bad payload, 404 unknown clan, 409 already set up; the Member choice
 *   follows the join rule in the same transaction (joins/service.ts joinClan, docs/server.md §18:
 *   403 for a kicked user or an `invite` clan), and any refusal stores nothing
 * - POST /user/igns {ign} → {ign}; PUT /user/igns/{ignId} {ign} → {ign}; DELETE /user/igns/{ignId} → {ok}
 * - GET /clans → {clans} the listed ones (docs/server.md §18); POST /clans {clan_name} → {clan_id}
 * - GET /user/me/export → the user's data as a JSON attachment (AccountExport, docs/server.md §18
 *   "Data rights"); 401 signed out
 * - DELETE /user/me {confirm: username} → {ok: true} and the session cookie cleared; 400 'Type your
 *   username to confirm.' for any other value, 409 while the sole Owner of a clan or playing a game
 *   that is not finished (users/dataRights.ts deleteAccount); 401 signed out
 */
export function userRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(
    '/user/me',
    ...route({ tag: 'users', access: 'signed-in', summary: 'The signed-in user with IGNs and clan memberships.', answer: named('User', UserSchema) }),
    async (c) => {
      const user = requireUser(c);
      const profile = await loadProfile(c.get('deps').db, user.id);
      if (!profile) throw unauthorized();
      return c.json(profile);
    },
  );

  app.post(
    '/user/setup',
    ...route({ tag: 'users', access: 'signed-in', summary: 'Onboarding: links IGNs and creates, joins or skips a clan.', answer: named('SetupAnswer', SetupAnswerSchema), json: named('SetupBody', SetupBodySchema) }),
    async (c) => {
      const user = requireUser(c);
      const body = valid(c, 'json');
      const igns = [...new Set(body.igns)];
      const { db } = c.get('deps');
      const asked = await db.transaction().execute(async (trx) => {
        if ((await listIgns(trx, user.id)).length > 0) throw conflict('Setup is already complete: your account has IGNs linked.');
        // The IGNs first: joining a clan needs one (docs/server.md §18); a refusal below rolls them back.
        const now = nowIso();
        await trx.insertInto('igns').values(igns.map((ign) => ({ user_id: user.id, ign, created_at: now }))).execute();
        const setup = body.clan_setup;
        if (setup.role === 'Owner') await createClan(trx, user.id, setup.clan_name);
        if (setup.role !== 'Member') return null;
        const outcome = await joinClan(trx, setup.clan_id, user.id);
        return outcome.kind === 'asked' ? outcome.answer.join_request : null;
      });
      if (!asked) return c.json({ ign_count: igns.length });
      await c.get('deps').broadcaster.joinRequestsChanged(asked.clan_id);
      return c.json({ ign_count: igns.length, join_request: asked });
    },
  );

  app.post(
    '/user/igns',
    ...route({ tag: 'users', access: 'signed-in', summary: 'Links an IGN.', answer: IgnAnswer, json: IgnBody }),
    async (c) => {
      const user = requireUser(c);
      const { ign } = valid(c, 'json');
      const { db } = c.get('deps');
      const existing = await db.selectFrom('igns').select('id').where('user_id', '=', user.id).where('ign', '=', ign).executeTakeFirst();
      if (existing) throw conflict(`The IGN '${ign}' is already linked to your account.`);
      const row = await db.insertInto('igns').values({ user_id: user.id, ign, created_at: nowIso() }).returning(['id', 'ign']).executeTakeFirstOrThrow();
      return c.json({ ign: row });
    },
  );

  app.put(
    '/user/igns/:ignId',
    ...route({ tag: 'users', access: 'signed-in', summary: 'Renames a linked IGN.', answer: IgnAnswer, param: IGN_ID, json: IgnBody }),
    async (c) => {
      const user = requireUser(c);
      const { ignId } = valid(c, 'param');
      const { ign } = valid(c, 'json');
      const { db } = c.get('deps');
      const row = await db.selectFrom('igns').select(['id', 'ign']).where('id', '=', ignId).where('user_id', '=', user.id).executeTakeFirst();
      if (!row) throw notFound(`IGN ID ${ignId} not found.`);
      if (row.ign === ign) throw badRequest('The new IGN is the same as the current one. No change was made.');
      const clash = await db.selectFrom('igns').select('id').where('user_id', '=', user.id).where('ign', '=', ign).executeTakeFirst();
      if (clash) throw conflict(`The IGN '${ign}' is already linked to your account.`);
      await db.updateTable('igns').set({ ign }).where('id', '=', ignId).execute();
      return c.json({ ign: { id: ignId, ign } });
    },
  );

  app.delete(
    '/user/igns/:ignId',
    ...route({ tag: 'users', access: 'signed-in', summary: 'Unlinks an IGN (409 while it is on a team of an unfinished game).', answer: named('Ok', OkSchema), param: IGN_ID }),
    async (c) => {
      const user = requireUser(c);
      const { ignId } = valid(c, 'param');
      const { db } = c.get('deps');
      const row = await db.selectFrom('igns').select(['id', 'ign']).where('id', '=', ignId).where('user_id', '=', user.id).executeTakeFirst();
      if (!row) throw notFound(`IGN ID ${ignId} not found.`);
      const playing = await db.selectFrom('team_members')
        .innerJoin('games', 'games.event_id', 'team_members.event_id')
        .select('games.id')
        .where('team_members.ign_id', '=', ignId)
        .where('games.status', 'not in', ['finished', 'completed'])
        .executeTakeFirst();
      if (playing) throw conflict(`The IGN '${row.ign}' is on a team of a game that is not finished and cannot be deleted.`);
      await db.deleteFrom('igns').where('id', '=', ignId).execute();
      return c.json({ ok: true });
    },
  );

  app.get(
    '/user/me/export',
    ...route({
      tag: 'users',
      access: 'signed-in',
      summary: "The signed-in user's data as a JSON attachment: profile, IGNs, memberships, join requests, sign-ups, sent submissions (no image bytes) and the log entries naming their IGNs.",
      answer: named('AccountExport', AccountExportSchema),
    }),
    async (c) => {
      const user = requireUser(c);
      const data = await exportAccount(c.get('deps').db, user.id);
      c.header('Content-Disposition', `attachment; filename="${exportFileName(user.id, data.exported_at)}"`);
      c.header('Cache-Control', 'no-store');
      return c.json(data);
    },
  );

  app.delete(
    '/user/me',
    ...route({
      tag: 'users',
      access: 'signed-in',
      summary: 'Deletes the account ({confirm: username}); every session ends. 409 while the sole Owner of a clan or on a team of a game that is not finished.',
      answer: named('DeleteAccountAnswer', DeleteAccountAnswerSchema),
      json: named('DeleteAccountBody', DeleteAccountBodySchema),
    }),
    async (c) => {
      const user = requireUser(c);
      const { confirm } = valid(c, 'json');
      if (confirm !== user.username) throw badRequest(DATA_RIGHTS_TEXTS.confirm);
      await deleteAccount(c.get('deps'), user.id);
      clearSessionCookie(c);
      return c.json({ ok: true as const });
    },
  );

  app.get(
    '/clans',
    ...route({ tag: 'clans', access: 'signed-in', summary: 'The listed clans (id, name, join policy), for joining one.', answer: named('ClanList', ClanListSchema) }),
    async (c) => {
      requireUser(c);
      return c.json({ clans: await listListedClans(c.get('deps').db) });
    },
  );

  app.post(
    '/clans',
    ...route({ tag: 'clans', access: 'signed-in', summary: 'Creates a clan owned by the caller.', answer: named('CreateClanAnswer', CreateClanAnswerSchema), json: named('CreateClanBody', CreateClanBodySchema) }),
    async (c) => {
      const user = requireUser(c);
      const { clan_name } = valid(c, 'json');
      const clanId = await c.get('deps').db.transaction().execute((trx) => createClan(trx, user.id, clan_name));
      return c.json({ clan_id: clanId });
    },
  );

  return app;
}
