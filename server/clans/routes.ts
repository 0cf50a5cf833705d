import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { requireUser } from '../http/context';
import { ids, named, route, valid } from '../http/route';
import { clanScope } from '../http/clanScope';
import { ApiError, badRequest, conflict, notFound } from '../errors';
import { requireAccess, requireManager, type ClanAccess, type ClanAccessLevel } from './access';
import { departureAnnounced, memberDeparts } from './departure';
import type { Viewer } from './viewer';
import { AvailableMembersQuerySchema } from '../../contract/memberSearch';
import {
  addMembership,
  countManagers,
  deleteClan,
  findClanMember,
  findUser,
  liftRemoval,
  listAvailableUsers,
  listClanGameIds,
  listClanMembers,
  lockClan,
  markRemoved,
  renameClan,
  setMemberRole,
} from './repository';
import type { Db } from '../db/schema';
import { recordAudit } from '../audit/service';
import { loadClanSettings } from '../joins/repository';
import { isManagerRole } from '../../contract/user';
import { imageKeysOf } from '../submissions/repository';
import { deleteImages } from '../submissions/service';
import { OkSchema } from '../../contract/common';
import {
  AddClanMemberBodySchema,
  AvailableMembersAnswerSchema,
  ChangeRoleBodySchema,
  ClanMembersAnswerSchema,
  DB_ID_MAX,
  MemberChangeAnswerSchema,
  RENAME_EMPTY_OR_SAME,
  RenameClanAnswerSchema,
  RenameClanBodySchema,
  checkAddRole,
  checkKick,
  checkLeave,
  checkRoleChange,
  type ClanMember,
  type RuleVerdict,
} from '../../contract/clan';

/** The clan id of the path; 400 'Invalid clan id.' when not a positive integer that fits the id column. */
const CLAN_ID = ids({ clanId: 'clan id' });
/** The clan id and the member (user) id of the path; 400 'Invalid member id.' for a bad member id. */
const CLAN_MEMBER_IDS = ids({ clanId: 'clan id', memberId: 'member id' });

const Ok = named('Ok', OkSchema);
const MemberChange = named('MemberChangeAnswer', MemberChangeAnswerSchema);

/**
 * The target's member row as `viewer` sees it (docs/server.md §18); 404 'User ID {id} is not a
 * member of this clan.' otherwise (also for other clans' members).
 */
async function requireTarget(db: Db, clanId: number, userId: number, viewer: Viewer): Promise<ClanMember> {
  const member = userId <= DB_ID_MAX ? await findClanMember(db, clanId, userId, viewer) : undefined;
  if (!member) throw notFound(`User ID ${userId} is not a member of this clan.`);
  return member;
}

/** Raises the verdict's error when a rule refuses. */
function enforce<T extends object>(verdict: RuleVerdict<T>): asserts verdict is { ok: true } & T {
  if (!verdict.ok) throw new ApiError(verdict.status, verdict.error);
}

/**
 * Locks the clan row first (lockClan: one change of a clan at a time) and checks the caller's
 * access again inside the transaction, as a change committed meanwhile may have taken it: 404
 * 'Clan ID {id} not found.' for a clan disbanded meanwhile, 403 for a role now too low.
 */
async function lockedAccess(trx: Db, clanId: number, userId: number, level: ClanAccessLevel): Promise<ClanAccess> {
  await lockClan(trx, clanId);
  return requireAccess(trx, clanId, userId, level);
}

/** Message when a conditional role update finds the row changed by someone else meanwhile. */
const STALE = 'The member list changed meanwhile. Reload the clan and try again.';

/**
 * Clans and members (docs/game-rules.md §6, §11, §13; docs/server.md §3, §4).
 * All paths under /api; member ids are user ids. Every call: 401 signed out, 400 'Invalid clan id.'
 * for a malformed id, 404 'Clan ID {id} not found.', 403 'Permission denied. You are not authorized
 * to manage this clan.' for a non-member or a role too low. Mutations run in one transaction that
 * first locks the clan row, so concurrent changes of one clan apply one after another.
 * - GET    /clan/{clanId}/members → {clan_id, clan_name, clan: {id, name, join_policy, listed}, members:
 *          ClanMember[]} sorted Owner, Admin,
 *          Member, Guest, then username; any member (Guest too)
 * - GET    /clan/{clanId}/available_members?q= → {available_users: [{id, username}]} users outside
 *          the clan who share a clan with the caller or asked to join it, and with q (3 to 100
 *          characters, else 400) up to 20 more whose username starts with q; by username; managers
 * - POST   /clan/{clanId}/members {user_id, role} → {ok, member}; managers; Admin only by the Owner
 *          (403), Owner never (400); 404 unknown user; 409 already a member
 * - PUT    /clan/{clanId}/members/{memberId}/role {role} → {ok, member}: one ladder step
 *          (checkRoleChange); Admin → Owner is the ownership transfer: target Owner, actor Admin
 * - DELETE /clan/{clanId}/members/{memberId} → {ok}: own id = leave (checkLeave, 409 for a sole
 *          manager or the Owner), another id = kick (checkKick), remembered so setup cannot bring
 *          the user back (docs/server.md §8) until a manager's Add Member lifts it; either one
 *          withdraws the user's sign-ups and draft places in the same transaction (memberDeparts,
 *          docs/server.md §16), and the changed drafts and teams are sent after it
 * After a kick, a leave or a demotion to Guest, the user's open sockets leave the members rooms
 * of the clan's games; after a disband, the rooms of its games are emptied (docs/server.md §8).
 * - PUT    /clan/{clanId}/name {new_name} → {new_name}; Owner; 400 empty/same/over 40, 409 taken
 * - DELETE /clan/{clanId} → {ok}; Owner; disbands with everything of the clan
 */
export function clanRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(
    '/clan/:clanId/members',
    ...route({ tag: 'clans', access: 'member', summary: "The clan's members by role.", answer: named('ClanMembersAnswer', ClanMembersAnswerSchema), param: CLAN_ID }),
    async (c) => {
      const scope = await clanScope(c, 'member');
      const { clanId, clan, db } = scope;
      const settings = await loadClanSettings(db, clanId);
      if (!settings) throw notFound(`Clan ID ${clanId} not found.`);
      return c.json({ clan_id: clan.id, clan_name: clan.name, clan: settings, members: await listClanMembers(db, clanId, scope) });
    },
  );

  app.get(
    '/clan/:clanId/available_members',
    ...route({
      tag: 'clans', access: 'manager', answer: named('AvailableMembersAnswer', AvailableMembersAnswerSchema), param: CLAN_ID, query: AvailableMembersQuerySchema,
      summary: 'Users outside the clan who can be added: those who share a clan with you or asked to join; with q (3+ characters) up to 20 more whose username starts with it.',
    }),
    async (c) => {
      const { clanId, db, deps, user } = await clanScope(c, 'manager');
      const { q } = valid(c, 'query');
      return c.json({ available_users: await listAvailableUsers(db, deps.dialect, clanId, user.id, q ?? null) });
    },
  );

  app.post(
    '/clan/:clanId/members',
    ...route({ tag: 'clans', access: 'manager', summary: 'Adds a user to the clan with a role.', answer: MemberChange, param: CLAN_ID, json: named('AddClanMemberBody', AddClanMemberBodySchema) }),
    async (c) => {
      const { user, clanId, db } = await clanScope(c, 'manager');
      const body = valid(c, 'json');
      const member = await db.transaction().execute(async (trx) => {
        const { role } = await lockedAccess(trx, clanId, user.id, 'manager');
        enforce(checkAddRole(role, body.role));
        if (!(await findUser(trx, body.user_id))) throw notFound(`User ID ${body.user_id} not found.`);
        await addMembership(trx, clanId, body.user_id, body.role);
        await liftRemoval(trx, clanId, body.user_id);
        const added = await requireTarget(trx, clanId, body.user_id, { user, role });
        await recordAudit(trx, clanId, user.id, 'member.add', added.username, `Added as ${body.role}`);
        return added;
      });
      return c.json({ ok: true, member });
    },
  );

  app.put(
    '/clan/:clanId/members/:memberId/role',
    ...route({ tag: 'clans', access: 'manager', summary: 'Moves a member one step on the role ladder (Admin → Owner transfers ownership).', answer: MemberChange, param: CLAN_MEMBER_IDS, json: named('ChangeRoleBody', ChangeRoleBodySchema) }),
    async (c) => {
      const { user, clanId, memberId, db, deps } = await clanScope(c, 'manager');
      const body = valid(c, 'json');
      const member = await db.transaction().execute(async (trx) => {
        const { role: actorRole } = await lockedAccess(trx, clanId, user.id, 'manager');
        const target = await requireTarget(trx, clanId, memberId, { user, role: actorRole });
        const verdict = checkRoleChange({ actorRole, targetRole: target.role, newRole: body.role, targetName: target.username, self: memberId === user.id });
        enforce(verdict);
        if (!(await setMemberRole(trx, clanId, memberId, target.role, body.role))) throw conflict(STALE);
        if (verdict.transfer && !(await setMemberRole(trx, clanId, user.id, 'Owner', 'Admin'))) throw conflict(STALE);
        await recordAudit(trx, clanId, user.id, 'member.role', target.username, `${target.role} → ${body.role}`);
        return requireTarget(trx, clanId, memberId, { user, role: actorRole });
      });
      if (member.role === 'Guest') await deps.broadcaster.membersLeft(memberId, await listClanGameIds(db, clanId));
      if (!isManagerRole(member.role)) await deps.broadcaster.managersLeft(memberId, clanId);
      return c.json({ ok: true, member });
    },
  );

  app.delete(
    '/clan/:clanId/members/:memberId',
    ...route({ tag: 'clans', access: 'member', summary: 'Leaves the clan (own id) or kicks a member (managers).', answer: Ok, param: CLAN_MEMBER_IDS }),
    async (c) => {
      const { user, clanId, memberId, db, deps } = await clanScope(c, 'member');
      const departure = await db.transaction().execute(async (trx) => {
        const { role } = await lockedAccess(trx, clanId, user.id, 'member');
        if (memberId === user.id) {
          enforce(checkLeave(role, await countManagers(trx, clanId)));
          await recordAudit(trx, clanId, user.id, 'member.leave', user.username, `Left as ${role}`);
        } else {
          await requireManager(trx, clanId, user.id);
          const target = await requireTarget(trx, clanId, memberId, { user, role });
          enforce(checkKick(role, target.role));
          await markRemoved(trx, clanId, memberId);
          await recordAudit(trx, clanId, user.id, 'member.kick', target.username, `Kicked (was ${target.role})`);
        }
        return memberDeparts(trx, deps.dialect, clanId, memberId);
      });
      await deps.broadcaster.membersLeft(memberId, await listClanGameIds(db, clanId));
      await deps.broadcaster.managersLeft(memberId, clanId);
      await deps.broadcaster.draftsLeft(memberId, clanId);
      await departureAnnounced(deps, departure);
      return c.json({ ok: true });
    },
  );

  app.put(
    '/clan/:clanId/name',
    ...route({ tag: 'clans', access: 'owner', summary: 'Renames the clan.', answer: named('RenameClanAnswer', RenameClanAnswerSchema), param: CLAN_ID, json: named('RenameClanBody', RenameClanBodySchema) }),
    async (c) => {
      const { user, clanId, db } = await clanScope(c, 'owner');
      const { new_name } = valid(c, 'json');
      await db.transaction().execute(async (trx) => {
        const { clan } = await lockedAccess(trx, clanId, user.id, 'owner');
        if (clan.name === new_name) throw badRequest(RENAME_EMPTY_OR_SAME);
        await renameClan(trx, clanId, new_name);
        await recordAudit(trx, clanId, user.id, 'clan.rename', new_name, `${clan.name} → ${new_name}`);
      });
      return c.json({ new_name });
    },
  );

  app.delete(
    '/clan/:clanId',
    ...route({ tag: 'clans', access: 'owner', summary: 'Disbands the clan with everything of it.', answer: Ok, param: CLAN_ID }),
    async (c) => {
      const user = requireUser(c);
      const { clanId } = valid(c, 'param');
      const { db } = c.get('deps');
      const { gameIds, imageKeys } = await db.transaction().execute(async (trx) => {
        await lockedAccess(trx, clanId, user.id, 'owner');
        const ids = await listClanGameIds(trx, clanId);
        const keys = await imageKeysOf(trx, { clanId });
        await deleteClan(trx, clanId);
        return { gameIds: ids, imageKeys: keys };
      });
      await deleteImages(c.get('deps'), imageKeys);
      await c.get('deps').broadcaster.gamesClosed(gameIds, clanId);
      return c.json({ ok: true });
    },
  );

  return app;
}
