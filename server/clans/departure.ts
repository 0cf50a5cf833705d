import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { Dialect } from '../db/migrations/helpers';
import type { Deps } from '../http/context';
import { lockEvent } from '../db/locks';
import { removeMembership } from './repository';
import { deleteSignup, signupRow } from '../signups/repository';
import { loadDraftState } from '../draft/repository';
import { draftAfterDeparture, draftChanged } from '../draft/service';
import { loadTeam } from '../teams/repository';
import { broadcastTeamChange } from '../teams/service';
import { beforePlay } from '../../contract/signupApi';
import { log } from '../observability/log';

/** What a departure changed, for the rooms to hear once it is committed (departureAnnounced). */
interface Departure {
  /** Events whose running or paused draft changed. */
  draftEventIds: number[];
  /** Teams of the clan's events the member's IGNs were taken off. */
  teams: { eventId: number; teamId: number }[];
}

/**
 * Takes user `userId` out of clan `clanId` for a kick or a leave, inside the caller's transaction,
 * which holds the clan (lockClan). Sign-ups, draft picks and team placement hold only clan members
 * (docs/server.md §16, "Members only"; docs/game-rules.md §17):
 * - the events where the user has a sign-up are held first (lockEvent, by id), before any row is
 *   touched, so a draft or team change of one of them waits for the departure or goes first;
 * - the membership goes, and with it the user's IGNs' places on the clan's teams (removeMembership);
 * - the user's sign-ups in events whose game has not started (no game, PENDING or READY) are
 *   withdrawn as DELETE .../signups/{id} does: a placed one leaves its team, and a draft pick of
 *   it goes with it; in a game under way or finished the sign-up stays (it is history), but no
 *   longer counts: out of the pool, never placed, never a captain;
 * - each of those events' running or paused drafts changes (draftAfterDeparture): a departed
 *   captain's turns are picked by the clock at once.
 * A demotion to Guest is not a departure: a Guest stays a member and keeps their sign-ups.
 */
export async function memberDeparts(trx: Transaction<Database>, dialect: Dialect, clanId: number, userId: number): Promise<Departure> {
  const signups = await trx.selectFrom('signups')
    .innerJoin('events', 'events.id', 'signups.event_id')
    .select(['signups.id', 'signups.event_id'])
    .where('events.clan_id', '=', clanId)
    .where('signups.user_id', '=', userId)
    .orderBy('signups.event_id')
    .execute();
  for (const s of signups) await lockEvent(trx, dialect, s.event_id);
  const teams = await trx.selectFrom('team_members')
    .innerJoin('igns', 'igns.id', 'team_members.ign_id')
    .innerJoin('events', 'events.id', 'team_members.event_id')
    .select(['team_members.event_id', 'team_members.team_id'])
    .where('igns.user_id', '=', userId)
    .where('events.clan_id', '=', clanId)
    .execute();
  await removeMembership(trx, clanId, userId);
  const draftEventIds: number[] = [];
  for (const s of signups) {
    const game = await trx.selectFrom('games').select('status').where('event_id', '=', s.event_id).executeTakeFirst();
    const withdraw = async () => {
      if (beforePlay(game?.status ?? null)) await deleteSignup(trx, await signupRow(trx, s.event_id, s.id));
    };
    if (await draftAfterDeparture(trx, s.event_id, withdraw)) draftEventIds.push(s.event_id);
  }
  const teamIds = [...new Set(teams.map((t) => t.team_id))];
  return { draftEventIds, teams: teamIds.map((teamId) => ({ eventId: teams.find((t) => t.team_id === teamId)!.event_id, teamId })) };
}

/**
 * After a departure committed (memberDeparts): each changed draft's `draft_state` to its room and
 * its clock set again (draftChanged), and `team_update` for each team the member left. Call after
 * the user's sockets have left the clan's rooms, so they hear none of it. Never throws: the change
 * is stored already.
 */
export async function departureAnnounced(deps: Deps, departure: Departure): Promise<void> {
  for (const eventId of departure.draftEventIds) {
    try {
      const state = await loadDraftState(deps.db, eventId);
      if (state) await draftChanged(deps, eventId, { state, teamIds: [] });
    } catch (err) {
      log.error({ err, event_id: eventId }, '[clans] draft_state after a departure failed');
    }
  }
  for (const { eventId, teamId } of departure.teams) {
    try {
      await broadcastTeamChange(deps, eventId, await loadTeam(deps.db, teamId));
    } catch (err) {
      log.error({ err, team_id: teamId }, '[clans] team_update after a departure failed');
    }
  }
}
