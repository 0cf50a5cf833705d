import type { Context } from 'hono';
import { deleteCookie } from 'hono/cookie';
import type { Db } from '../db/schema';
import type { AppEnv, Deps } from '../http/context';
import { lockEvent } from '../db/locks';
import { conflict, unauthorized } from '../errors';
import { nowIso } from '../time';
import { lockClan } from '../clans/repository';
import { SESSION_COOKIE } from '../auth/routes';
import { departureAnnounced } from '../clans/departure';
import { draftAfterDeparture } from '../draft/service';
import { listSentSubmissions } from '../submissions/repository';
import { DATA_RIGHTS_TEXTS, DELETED_USER_NAME, namesIgn, type AccountExport } from '../../contract/dataRights';
import { ignKey } from '../../contract/dink';
import { PROOF_LOG } from '../../contract/submission';
import { isManagerRole } from '../../contract/user';

/** Clears the session cookie after DELETE /api/user/me (its session is gone already), as logout does. */
export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
}

/** Game statuses of a finished game ('completed' is the older spelling, contract/game/status.ts). */
const FINISHED = ['finished', 'completed'];

/**
 * The live account `userId`: the user with their Discord identity, or undefined. An account
 * without an identity is a deleted one (deleteAccount removes the identity, so nobody signs in
 * as it again), kept only so that past submissions and games keep their rows.
 */
async function liveAccount(db: Db, userId: number) {
  return db.selectFrom('users')
    .innerJoin('discord_identities', 'discord_identities.user_id', 'users.id')
    .select(['users.id', 'users.username', 'users.avatar_url', 'users.created_at', 'users.last_login', 'discord_identities.discord_id', 'discord_identities.username as discord_username'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

/** The user's IGNs, oldest first. */
function ignsOf(db: Db, userId: number) {
  return db.selectFrom('igns').select(['id', 'ign', 'created_at']).where('user_id', '=', userId).orderBy('id').execute();
}

/** The games (with event and clan names) that one of the user's IGNs was on a team of. */
function gamesPlayed(db: Db, userId: number) {
  return db.selectFrom('games')
    .innerJoin('events', 'events.id', 'games.event_id')
    .innerJoin('clans', 'clans.id', 'games.clan_id')
    .select(['games.id', 'games.event_id', 'events.name as event_name', 'clans.name as clan_name'])
    .where((eb) => eb.exists(eb.selectFrom('team_members')
      .innerJoin('igns', 'igns.id', 'team_members.ign_id')
      .select('team_members.id')
      .whereRef('team_members.event_id', '=', 'games.event_id')
      .where('igns.user_id', '=', userId)))
    .orderBy('games.id')
    .execute();
}

/**
 * GET /api/user/me/export's answer for user `userId` (docs/server.md §18 "Data rights"; the shape
 * is contract/dataRights.ts AccountExportSchema): 401 when the account is not live.
 */
export async function exportAccount(db: Db, userId: number): Promise<AccountExport> {
  const account = await liveAccount(db, userId);
  if (!account) throw unauthorized();
  const [igns, memberships, joinRequests, signups, submissions, games] = await Promise.all([
    ignsOf(db, userId),
    db.selectFrom('clan_memberships').innerJoin('clans', 'clans.id', 'clan_memberships.clan_id')
      .select(['clan_memberships.clan_id', 'clans.name as clan_name', 'clan_memberships.role', 'clan_memberships.joined_at'])
      .where('clan_memberships.user_id', '=', userId).orderBy('clan_memberships.clan_id').execute(),
    db.selectFrom('join_requests').innerJoin('clans', 'clans.id', 'join_requests.clan_id')
      .select(['join_requests.id', 'join_requests.clan_id', 'clans.name as clan_name', 'join_requests.status', 'join_requests.reason', 'join_requests.created_at', 'join_requests.decided_at'])
      .where('join_requests.user_id', '=', userId).orderBy('join_requests.id').execute(),
    db.selectFrom('signups')
      .innerJoin('events', 'events.id', 'signups.event_id')
      .innerJoin('clans', 'clans.id', 'events.clan_id')
      .innerJoin('igns', 'igns.id', 'signups.osrs_ign_id')
      .leftJoin('teams', 'teams.id', 'signups.team_id')
      .select(['signups.id', 'signups.event_id', 'events.name as event_name', 'events.clan_id', 'clans.name as clan_name', 'igns.ign', 'signups.wants_leader',
        'signups.note', 'signups.score', 'signups.team_id', 'teams.name as team_name', 'signups.created_at', 'signups.updated_at'])
      .where('signups.user_id', '=', userId).orderBy('signups.id').execute(),
    listSentSubmissions(db, userId),
    gamesPlayed(db, userId),
  ]);
  const gameIds = games.map((g) => g.id);
  const eventIds = [...new Set(games.map((g) => g.event_id))];
  const [log, posts] = await Promise.all([
    gameIds.length === 0 ? [] : db.selectFrom('game_log').select(['id', 'game_id', 'timestamp', 'team_name', 'message']).where('game_id', 'in', gameIds).orderBy('id').execute(),
    eventIds.length === 0 ? [] : db.selectFrom('dink_posts').innerJoin('events', 'events.id', 'dink_posts.event_id')
      .select(['dink_posts.id', 'dink_posts.event_id', 'events.name as event_name', 'dink_posts.at', 'dink_posts.player_name', 'dink_posts.type', 'dink_posts.summary', 'dink_posts.outcome'])
      .where('dink_posts.event_id', 'in', eventIds).orderBy('dink_posts.id').execute(),
  ]);
  const names = igns.map((i) => i.ign);
  const keys = new Set(names.map(ignKey));
  const gameOf = new Map(games.map((g) => [g.id, g]));
  const { id, username, avatar_url, created_at, last_login, discord_id, discord_username } = account;
  return {
    exported_at: nowIso(),
    profile: { id, username, discord_id, discord_username, avatar_url, created_at, last_login },
    igns,
    memberships,
    join_requests: joinRequests,
    signups: signups.map((s) => ({ ...s, wants_leader: s.wants_leader === 1, score: s.score === null ? null : Number(s.score) })),
    submissions,
    log_entries: log
      .filter((e) => names.some((n) => namesIgn(e.message, n) || namesIgn(e.team_name, n)))
      .map((e) => ({ ...e, event_name: gameOf.get(e.game_id)!.event_name, clan_name: gameOf.get(e.game_id)!.clan_name })),
    dink_posts: posts.filter((p) => keys.has(ignKey(p.player_name))),
  };
}

/**
 * The review lines of the game log (contract/submission.ts PROOF_LOG) as written by `name`,
 * each as the text before and after the part that is not the referee's (the team, the reason).
 */
function reviewLines(name: string): { head: string; tail: string }[] {
  const mark = '\u0000';
  return [PROOF_LOG.approved(name, mark), PROOF_LOG.denied(name, mark), PROOF_LOG.undone(name)].map((line) => {
    const [head, tail = ''] = line.split(mark);
    return { head, tail };
  });
}

/**
 * Rewrites the review lines of games `gameIds` written by referee `name` so they name
 * DELETED_USER_NAME; answers the games whose log changed.
 */
async function forgetReferee(db: Db, gameIds: number[], name: string): Promise<number[]> {
  if (gameIds.length === 0) return [];
  const was = reviewLines(name);
  const now = reviewLines(DELETED_USER_NAME);
  const rows = await db.selectFrom('game_log').select(['id', 'game_id', 'message']).where('game_id', 'in', gameIds).execute();
  const changed = new Set<number>();
  for (const row of rows) {
    const i = was.findIndex((l) => row.message.length >= l.head.length + l.tail.length && row.message.startsWith(l.head) && row.message.endsWith(l.tail));
    if (i === -1) continue;
    const middle = row.message.slice(was[i].head.length, row.message.length - was[i].tail.length);
    await db.updateTable('game_log').set({ message: now[i].head + middle + now[i].tail }).where('id', '=', row.id).execute();
    changed.add(row.game_id);
  }
  return [...changed];
}

/**
 * DELETE /api/user/me (docs/server.md §18 "Data rights") for the signed-in `userId`, whose
 * `confirm` was checked against their username already. In one transaction that holds the user's
 * clans (lockClan, by id) and the events of their sign-ups (lockEvent):
 * - 409 DATA_RIGHTS_TEXTS.soleOwner while they are the only Owner of a clan (the first by name);
 * - 409 DATA_RIGHTS_TEXTS.playing while an IGN of theirs is on a team of a game not finished;
 * - otherwise their sign-ups go (a running draft goes on as after a leave: draftAfterDeparture),
 *   their IGNs leave the teams of events without a finished game, and the IGNs on no team go;
 *   an IGN on a team of a finished game stays with that team (past games keep the IGNs as they
 *   were played: team_members would go with the IGN, ON DELETE CASCADE). Memberships, join
 *   requests, kick records, sessions and the Discord identity go; the user row stays, named
 *   DELETED_USER_NAME with no avatar, so past submissions and reviews (which keep their rows by
 *   user id) read 'Deleted user', and the review lines of the game log are rewritten to match.
 * After the commit every socket of the user is disconnected (Broadcaster.signedOut), changed
 * drafts and teams are announced as after a leave, and games whose log changed leave the game cache.
 */
export async function deleteAccount(deps: Deps, userId: number): Promise<void> {
  const { db, dialect } = deps;
  const outcome = await db.transaction().execute(async (trx) => {
    const account = await liveAccount(trx, userId);
    if (!account) throw unauthorized();
    const memberships = await trx.selectFrom('clan_memberships').innerJoin('clans', 'clans.id', 'clan_memberships.clan_id')
      .select(['clan_memberships.clan_id', 'clan_memberships.role', 'clans.name'])
      .where('clan_memberships.user_id', '=', userId).orderBy('clan_memberships.clan_id').execute();
    for (const m of memberships) await lockClan(trx, m.clan_id);

    const owned = memberships.filter((m) => m.role === 'Owner').map((m) => m.clan_id);
    if (owned.length > 0) {
      const owners = await trx.selectFrom('clan_memberships').select(['clan_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('clan_id', 'in', owned).where('role', '=', 'Owner').groupBy('clan_id').execute();
      const sole = memberships
        .filter((m) => owners.some((o) => o.clan_id === m.clan_id && Number(o.n) === 1))
        .sort((a, b) => a.name.localeCompare(b.name));
      if (sole.length > 0) throw conflict(DATA_RIGHTS_TEXTS.soleOwner(sole[0].name));
    }

    const playing = await trx.selectFrom('team_members')
      .innerJoin('igns', 'igns.id', 'team_members.ign_id')
      .innerJoin('games', 'games.event_id', 'team_members.event_id')
      .innerJoin('events', 'events.id', 'team_members.event_id')
      .select(['igns.ign', 'events.name'])
      .where('igns.user_id', '=', userId)
      .where('games.status', 'not in', FINISHED)
      .orderBy('games.id').orderBy('igns.id')
      .executeTakeFirst();
    if (playing) throw conflict(DATA_RIGHTS_TEXTS.playing(playing.ign, playing.name));

    const signupEvents = await trx.selectFrom('signups').select('event_id').distinct().where('user_id', '=', userId).orderBy('event_id').execute();
    const draftEventIds: number[] = [];
    for (const { event_id } of signupEvents) await lockEvent(trx, dialect, event_id);
    for (const { event_id } of signupEvents) {
      const withdraw = async () => {
        await trx.deleteFrom('signups').where('event_id', '=', event_id).where('user_id', '=', userId).execute();
      };
      if (await draftAfterDeparture(trx, event_id, withdraw)) draftEventIds.push(event_id);
    }

    // Places on teams of events with no finished game (no game yet: a game not finished was refused above).
    const finishedEvents = trx.selectFrom('games').select('games.event_id').where('games.status', 'in', FINISHED);
    const userIgns = trx.selectFrom('igns').select('igns.id').where('igns.user_id', '=', userId);
    const left = await trx.selectFrom('team_members').select(['event_id', 'team_id'])
      .where('ign_id', 'in', userIgns).where('event_id', 'not in', finishedEvents).execute();
    await trx.deleteFrom('team_members').where('ign_id', 'in', userIgns).where('event_id', 'not in', finishedEvents).execute();
    await trx.deleteFrom('igns').where('user_id', '=', userId)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('team_members').select('team_members.id').whereRef('team_members.ign_id', '=', 'igns.id'))))
      .execute();

    for (const table of ['clan_memberships', 'join_requests', 'clan_removals', 'sessions', 'discord_identities'] as const) {
      await trx.deleteFrom(table).where('user_id', '=', userId).execute();
    }
    await trx.updateTable('users').set({ username: DELETED_USER_NAME, avatar_url: null, last_login: null }).where('id', '=', userId).execute();

    // Games they reviewed in, and the games of clans they manage (an undone review keeps no reviewer).
    const managed = memberships.filter((m) => isManagerRole(m.role)).map((m) => m.clan_id);
    const reviewed = await trx.selectFrom('submissions').select('game_id').distinct()
      .where((eb) => eb.or([eb('reviewer_id', '=', userId), ...(managed.length > 0 ? [eb('clan_id', 'in', managed)] : [])]))
      .execute();
    const relogged = await forgetReferee(trx, reviewed.map((r) => r.game_id), account.username);
    const teams = [...new Map(left.map((t) => [t.team_id, { eventId: t.event_id, teamId: t.team_id }])).values()];
    return { draftEventIds, teams, relogged };
  });
  await deps.broadcaster.signedOut(userId, null);
  for (const gameId of outcome.relogged) deps.gameCache.invalidate(gameId);
  await departureAnnounced(deps, { draftEventIds: outcome.draftEventIds, teams: outcome.teams });
}
