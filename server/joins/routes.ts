import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { requireUser } from '../http/context';
import { describe, ids, input, named, route, valid } from '../http/route';
import { clanScope } from '../http/clanScope';
import { conflict, notFound } from '../errors';
import { requireAccess } from '../clans/access';
import { addMembership, findClanMember, findUser, liftRemoval, lockClan, memberRole } from '../clans/repository';
import { recordAudit } from '../audit/service';
import type { Db } from '../db/schema';
import { joinClan } from './service';
import {
  decideRequest,
  deletePendingRequest,
  findClanRequest,
  findOwnRequest,
  listPendingRequests,
  loadClanSettings,
  saveClanSettings,
} from './repository';
import { OkSchema } from '../../contract/common';
import { ApproveJoinAnswerSchema } from '../../contract/clan';
import {
  ClanJoinRequestsAnswerSchema,
  ClanSettingsAnswerSchema,
  ClanSettingsBodySchema,
  DenyJoinAnswerSchema,
  DenyJoinBodySchema,
  JoinAnswerSchema,
  NOT_PENDING,
} from '../../contract/joins';

/** The clan id of the path; 400 'Invalid clan id.' otherwise. */
const CLAN_ID = ids({ clanId: 'clan id' });
/** The clan id and the join request id of the path; 400 'Invalid join request id.' for a bad request id. */
const CLAN_REQUEST_IDS = ids({ clanId: 'clan id', requestId: 'join request id' });
/** The join request id of the path. */
const REQUEST_ID = ids({ requestId: 'join request id' });

const JoinAnswer = named('JoinAnswer', JoinAnswerSchema);

/** 404 'Join request ID {id} not found.' for a request of another clan or none. */
const requestNotFound = (id: number) => notFound(`Join request ID ${id} not found.`);

/**
 * Locks the clan and checks again, inside the transaction, that the caller still manages it (a
 * demotion committed meanwhile answers 403), then finds the clan's request `requestId` (404).
 */
async function lockedRequest(trx: Db, clanId: number, userId: number, requestId: number): Promise<{ id: number; user_id: number; status: string }> {
  await lockClan(trx, clanId);
  await requireAccess(trx, clanId, userId, 'manager');
  const request = await findClanRequest(trx, clanId, requestId);
  if (!request) throw requestNotFound(requestId);
  return request;
}

/**
 * Clan settings, joining and join requests (docs/server.md §18 "Joining"). Paths under /api;
 * every call 401 signed out, 400 'Invalid clan id.' / 'Invalid join request id.' for a malformed
 * id, 404 'Clan ID {id} not found.'. After every change of a clan's pending requests the managers'
 * room gets `join_request` {clan_id, pending} (Broadcaster.joinRequestsChanged); after an approval or
 * a denial the asker's own sockets get `join_request_decided` (Broadcaster.joinRequestDecided).
 * - PUT    /clan/{clanId}/settings {join_policy?, listed?} → {clan: {id, name, join_policy, listed}};
 *          Owner only (403 otherwise), 400 for a bad value
 * - POST   /clan/{clanId}/join → 201 {membership} (open), 202 {join_request} (request); 403 invite
 *          only or kicked, 409 no IGN, a member already or a request pending (joins/service.ts joinClan)
 * - GET    /clan/{clanId}/join-requests → {join_requests} pending, oldest first; managers
 * - POST   /clan/{clanId}/join-requests/{requestId}/approve → {member}; managers; 409 NOT_PENDING
 * - POST   /clan/{clanId}/join-requests/{requestId}/deny {reason?} → {join_request}; managers;
 *          reason at most 300 characters (400); 409 NOT_PENDING
 * - DELETE /user/join-requests/{requestId} → {ok}: the asker withdraws a pending request; 404
 *          when it is not theirs, 409 NOT_PENDING once decided
 */
export function joinRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.put(
    '/clan/:clanId/settings',
    ...route({ tag: 'joins', access: 'owner', summary: "Changes the clan's join policy and whether it is listed.", answer: named('ClanSettingsAnswer', ClanSettingsAnswerSchema), param: CLAN_ID, json: named('ClanSettingsBody', ClanSettingsBodySchema) }),
    async (c) => {
      const { user, clanId, db } = await clanScope(c, 'owner');
      const body = valid(c, 'json');
      const clan = await db.transaction().execute(async (trx) => {
        await lockClan(trx, clanId);
        await requireAccess(trx, clanId, user.id, 'owner');
        await saveClanSettings(trx, clanId, body);
        const saved = await loadClanSettings(trx, clanId);
        if (saved) await recordAudit(trx, clanId, user.id, 'clan.settings', saved.name, `Join policy: ${saved.join_policy}; listed: ${saved.listed ? 'yes' : 'no'}`);
        return saved;
      });
      if (!clan) throw notFound(`Clan ID ${clanId} not found.`);
      return c.json({ clan });
    },
  );

  app.post(
    '/clan/:clanId/join',
    ...route({ tag: 'joins', access: 'signed-in', status: 201, summary: 'Joins the clan (open) or asks to (request); refused for an invite-only clan.', answer: JoinAnswer, also: { 202: { description: 'Asked: a manager decides (request clan).', answer: JoinAnswer } }, param: CLAN_ID }),
    async (c) => {
      const user = requireUser(c);
      const { clanId } = valid(c, 'param');
      const deps = c.get('deps');
      const outcome = await deps.db.transaction().execute((trx) => joinClan(trx, clanId, user.id));
      if (outcome.kind === 'asked') {
        await deps.broadcaster.joinRequestsChanged(clanId);
        return c.json(outcome.answer, 202);
      }
      return c.json(outcome.answer, 201);
    },
  );

  app.get(
    '/clan/:clanId/join-requests',
    ...route({ tag: 'joins', access: 'manager', summary: "The clan's pending join requests, oldest first.", answer: named('ClanJoinRequestsAnswer', ClanJoinRequestsAnswerSchema), param: CLAN_ID }),
    async (c) => {
      const { clanId, db } = await clanScope(c, 'manager');
      return c.json({ join_requests: await listPendingRequests(db, clanId) });
    },
  );

  app.post(
    '/clan/:clanId/join-requests/:requestId/approve',
    ...route({ tag: 'joins', access: 'manager', summary: 'Approves a pending join request: the user becomes a Member.', answer: named('ApproveJoinAnswer', ApproveJoinAnswerSchema), param: CLAN_REQUEST_IDS }),
    async (c) => {
      const { user, role, clanId, requestId, db, deps } = await clanScope(c, 'manager');
      const member = await db.transaction().execute(async (trx) => {
        const request = await lockedRequest(trx, clanId, user.id, requestId);
        if (!(await decideRequest(trx, request.id, 'approved', user.id, null))) throw conflict(NOT_PENDING);
        // A manager may have added the user meanwhile: the request is then approved as it stands.
        if ((await memberRole(trx, clanId, request.user_id)) === null) await addMembership(trx, clanId, request.user_id, 'Member');
        await liftRemoval(trx, clanId, request.user_id);
        const joined = await findClanMember(trx, clanId, request.user_id, { user, role });
        await recordAudit(trx, clanId, user.id, 'join.approve', joined?.username ?? `User ${request.user_id}`, 'Joined as Member');
        return joined;
      });
      await deps.broadcaster.joinRequestsChanged(clanId);
      await deps.broadcaster.joinRequestDecided(requestId);
      return c.json({ member });
    },
  );

  app.post(
    '/clan/:clanId/join-requests/:requestId/deny',
    describe({ tag: 'joins', access: 'manager', summary: 'Denies a pending join request, with an optional reason.', answer: named('DenyJoinAnswer', DenyJoinAnswerSchema) }),
    input('param', CLAN_REQUEST_IDS),
    input('json', named('DenyJoinBody', DenyJoinBodySchema), { optional: true }),
    async (c) => {
      const { user, clanId, requestId, db, deps } = await clanScope(c, 'manager');
      const reason = valid(c, 'json').reason || null;
      await db.transaction().execute(async (trx) => {
        const request = await lockedRequest(trx, clanId, user.id, requestId);
        if (!(await decideRequest(trx, request.id, 'denied', user.id, reason))) throw conflict(NOT_PENDING);
        const asker = await findUser(trx, request.user_id);
        await recordAudit(trx, clanId, user.id, 'join.deny', asker?.username ?? `User ${request.user_id}`, reason ? `Reason: ${reason}` : 'Denied');
      });
      await deps.broadcaster.joinRequestsChanged(clanId);
      await deps.broadcaster.joinRequestDecided(requestId);
      return c.json({ join_request: { id: requestId, status: 'denied' as const, reason } });
    },
  );

  app.delete(
    '/user/join-requests/:requestId',
    ...route({ tag: 'joins', access: 'signed-in', summary: 'Withdraws one of your pending join requests.', answer: named('Ok', OkSchema), param: REQUEST_ID }),
    async (c) => {
      const user = requireUser(c);
      const { requestId } = valid(c, 'param');
      const deps = c.get('deps');
      const clanId = await deps.db.transaction().execute(async (trx) => {
        const own = await findOwnRequest(trx, user.id, requestId);
        if (!own) throw requestNotFound(requestId);
        if (!(await deletePendingRequest(trx, requestId))) throw conflict(NOT_PENDING);
        return own.clan_id;
      });
      await deps.broadcaster.joinRequestsChanged(clanId);
      return c.json({ ok: true as const });
    },
  );

  return app;
}
