import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { pathId, readJson, requireUser } from '../http/context';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../errors';
import { nowIso } from '../time';
import { listIgns, loadProfile } from './repository';
import { addMembership, createClan, wasRemoved } from '../clans/repository';
import { SetupBodySchema } from '../../contract/onboarding';
import { IgnBodySchema } from '../../contract/user';
import { CreateClanBodySchema } from '../../contract/clan';

/** Refusal of setup as Member of a clan that kicked the user (docs/server.md §8). */
const KICKED = 'You were removed from this clan. Ask a manager to add you again.';

/**
 * The signed-in user's own data (docs/server.md §3,
 * §4):
 * - GET /user/me → User; 401 when signed out
 * - POST /user/setup {igns, clan_setup} → {ign_count}; 400 bad payload (nothing stored), 404 unknown clan, 409 already set up,
 *   403 KICKED when joining as Member a clan whose manager kicked the user
 * - POST /user/igns {ign} → {ign}; PUT /user/igns/{ignId} {ign} → {ign}; DELETE /user/igns/{ignId} → {ok}
 * - GET /clans → {clans}; POST /clans {clan_name} → {clan_id}
 */
export function userRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get('/user/me', async (c) => {
    const user = requireUser(c);
    const profile = await loadProfile(c.get('deps').db, user.id);
    if (!profile) throw unauthorized();
    return c.json(profile);
  });

  app.post('/user/setup', async (c) => {
    const user = requireUser(c);
    const body = await readJson(c, SetupBodySchema);
    const igns = [...new Set(body.igns)];
    const { db } = c.get('deps');
    await db.transaction().execute(async (trx) => {
      if ((await listIgns(trx, user.id)).length > 0) throw conflict('Setup is already complete: your account has IGNs linked.');
      const setup = body.clan_setup;
      if (setup.role === 'Owner') {
        await createClan(trx, user.id, setup.clan_name);
      } else if (setup.role === 'Member') {
        const clan = await trx.selectFrom('clans').select('id').where('id', '=', setup.clan_id).executeTakeFirst();
        if (!clan) throw notFound(`Clan ID ${setup.clan_id} not found.`);
        if (await wasRemoved(trx, clan.id, user.id)) throw forbidden(KICKED);
        await addMembership(trx, clan.id, user.id, 'Member');
      }
      const now = nowIso();
      await trx.insertInto('igns').values(igns.map((ign) => ({ user_id: user.id, ign, created_at: now }))).execute();
    });
    return c.json({ ign_count: igns.length });
  });

  app.post('/user/igns', async (c) => {
    const user = requireUser(c);
    const { ign } = await readJson(c, IgnBodySchema);
    const { db } = c.get('deps');
    const existing = await db.selectFrom('igns').select('id').where('user_id', '=', user.id).where('ign', '=', ign).executeTakeFirst();
    if (existing) throw conflict(`The IGN '${ign}' is already linked to your account.`);
    const row = await db.insertInto('igns').values({ user_id: user.id, ign, created_at: nowIso() }).returning(['id', 'ign']).executeTakeFirstOrThrow();
    return c.json({ ign: row });
  });

  app.put('/user/igns/:ignId', async (c) => {
    const user = requireUser(c);
    const ignId = pathId(c, 'ignId', 'IGN id');
    const { ign } = await readJson(c, IgnBodySchema);
    const { db } = c.get('deps');
    const row = await db.selectFrom('igns').select(['id', 'ign']).where('id', '=', ignId).where('user_id', '=', user.id).executeTakeFirst();
    if (!row) throw notFound(`IGN ID ${ignId} not found.`);
    if (row.ign === ign) throw badRequest('The new IGN is the same as the current one. No change was made.');
    const clash = await db.selectFrom('igns').select('id').where('user_id', '=', user.id).where('ign', '=', ign).executeTakeFirst();
    if (clash) throw conflict(`The IGN '${ign}' is already linked to your account.`);
    await db.updateTable('igns').set({ ign }).where('id', '=', ignId).execute();
    return c.json({ ign: { id: ignId, ign } });
  });

  app.delete('/user/igns/:ignId', async (c) => {
    const user = requireUser(c);
    const ignId = pathId(c, 'ignId', 'IGN id');
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
  });

  app.get('/clans', async (c) => {
    requireUser(c);
    const clans = await c.get('deps').db.selectFrom('clans').select(['id', 'name']).orderBy('name').execute();
    return c.json({ clans });
  });

  app.post('/clans', async (c) => {
    const user = requireUser(c);
    const { clan_name } = await readJson(c, CreateClanBodySchema);
    const clanId = await c.get('deps').db.transaction().execute((trx) => createClan(trx, user.id, clan_name));
    return c.json({ clan_id: clanId });
  });

  return app;
}
