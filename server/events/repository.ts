import type { Db } from '../db/schema';
import { nowIso } from '../time';
import { notFound } from '../errors';
import type { ClanEvent, EventBody } from '../../contract/event';
import { isActiveStatus } from '../../contract/game/status';
import { columns } from '../db/rows';

/** The stored columns of an event. */
export interface EventRow {
  id: number;
  clan_id: number;
  name: string;
  type: string;
  start_datetime: string;
  end_datetime: string | null;
  /** 1 while sign-ups are open (docs/server.md §16). */
  signups_open: number;
  signups_close_at: string | null;
  /** 1 once 'Sign-ups closed' went out for the current close. */
  signups_close_announced: number;
}

/** The id of the clan event `eventId` belongs to, or null when there is no such event. */
export async function clanOfEvent(db: Db, eventId: number): Promise<number | null> {
  const row = await db.selectFrom('events').select('clan_id').where('id', '=', eventId).executeTakeFirst();
  return row?.clan_id ?? null;
}

/** The event `eventId` of clan `clanId`; 404 'Event ID {id} not found.' when missing or of another clan. */
export async function findEvent(db: Db, clanId: number, eventId: number): Promise<EventRow> {
  const row = await db.selectFrom('events')
    .select(['id', 'clan_id', 'name', 'type', 'start_datetime', 'end_datetime', 'signups_open', 'signups_close_at', 'signups_close_announced'])
    .where('id', '=', eventId)
    .where('clan_id', '=', clanId)
    .executeTakeFirst();
  if (!row) throw notFound(`Event ID ${eventId} not found.`);
  return row;
}

function eventsQuery(db: Db) {
  return db.selectFrom('events')
    .leftJoin('games', 'games.event_id', 'events.id')
    // One draft per event at most (unique event_id, migration 014).
    .leftJoin('drafts', 'drafts.event_id', 'events.id')
    .select([
      'events.id',
      'events.name',
      'events.type',
      'events.start_datetime',
      'events.end_datetime',
      'events.signups_open',
      'events.signups_close_at',
      'games.id as game_id',
      'games.status as game_status',
      'drafts.status as draft_status',
    ])
    .select((eb) => eb.selectFrom('teams').select(eb.fn.countAll<number>().as('n')).whereRef('teams.event_id', '=', 'events.id').as('team_count'));
}

type EventQueryRow = Omit<ClanEvent, 'team_count' | 'game_id' | 'game_finished' | 'signups_open' | 'signups_close_at' | 'game_status' | 'draft_status'> & {
  signups_open: number;
  signups_close_at: string | null;
  game_id: number | null;
  game_status: string | null;
  draft_status: 'running' | 'paused' | 'done' | null;
  team_count: number | string | null;
};

function toEvent(r: EventQueryRow): ClanEvent {
  return {
    ...columns(r, ['id', 'name', 'type', 'start_datetime', 'end_datetime', 'signups_close_at']),
    game_id: r.game_id ?? null,
    team_count: Number(r.team_count ?? 0),
    game_finished: r.game_status !== null && !isActiveStatus(r.game_status),
    signups_open: Number(r.signups_open) === 1,
    game_status: r.game_status ?? null,
    draft_status: r.draft_status ?? null,
  };
}

/**
 * Every event of a clan as answered by GET /events (docs/game-rules.md §12): game_id and
 * game_status from the games table (null without a game), team_count, game_finished,
 * draft_status (null without a draft); sorted by start, then id.
 */
export async function listEvents(db: Db, clanId: number): Promise<ClanEvent[]> {
  const rows = await eventsQuery(db).where('events.clan_id', '=', clanId).execute();
  return rows.map(toEvent).sort((a, b) => (a.start_datetime < b.start_datetime ? -1 : a.start_datetime > b.start_datetime ? 1 : a.id - b.id));
}

/** One event in the answer shape; assumes it exists. */
export async function loadEvent(db: Db, eventId: number): Promise<ClanEvent> {
  return toEvent(await eventsQuery(db).where('events.id', '=', eventId).executeTakeFirstOrThrow());
}

/** Inserts an event of a clan from a checked body; returns its id. */
export async function insertEvent(db: Db, clanId: number, body: EventBody): Promise<number> {
  const row = await db.insertInto('events')
    .values({
      clan_id: clanId,
      name: body.name,
      type: body.type,
      start_datetime: body.start_datetime,
      end_datetime: body.end_datetime,
      signups_open: body.signups_open ? 1 : 0,
      signups_close_at: body.signups_close_at ?? null,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Overwrites an event's name, type and times from a checked body; the sign-up fields only when the body has them (docs/server.md §16). */
export async function updateEvent(db: Db, eventId: number, body: EventBody): Promise<void> {
  await db.updateTable('events')
    .set({
      name: body.name,
      type: body.type,
      start_datetime: body.start_datetime,
      end_datetime: body.end_datetime,
      ...(body.signups_open === undefined ? {} : { signups_open: body.signups_open ? 1 : 0 }),
      ...(body.signups_close_at === undefined ? {} : { signups_close_at: body.signups_close_at }),
      // Closing by hand is its own announcement; opening again or a new close time is announced afresh.
      ...(body.signups_open === false ? { signups_close_announced: 1 } : body.signups_open !== undefined || body.signups_close_at !== undefined ? { signups_close_announced: 0 } : {}),
    })
    .where('id', '=', eventId)
    .execute();
}

/**
 * Deletes an event with everything under it (docs/server.md §4, §9, §16): its sign-ups, its game
 * (submissions, log, moves, team states, board squares), its team members and teams. Explicit deletes, so the result does not
 * hang on foreign-key enforcement. Run inside a transaction.
 */
export async function deleteEventCascade(db: Db, eventId: number): Promise<void> {
  const games = db.selectFrom('games').select('id').where('event_id', '=', eventId);
  await db.deleteFrom('submissions').where('game_id', 'in', games).execute();
  await db.deleteFrom('game_log').where('game_id', 'in', games).execute();
  await db.deleteFrom('game_moves').where('game_id', 'in', games).execute();
  await db.deleteFrom('relief_draws').where('game_id', 'in', games).execute();
  await db.deleteFrom('team_states').where('game_id', 'in', games).execute();
  await db.deleteFrom('board_squares').where('game_id', 'in', games).execute();
  await db.deleteFrom('games').where('event_id', '=', eventId).execute();
  await db.deleteFrom('team_members').where('event_id', '=', eventId).execute();
  const teams = db.selectFrom('teams').select('id').where('event_id', '=', eventId);
  await db.deleteFrom('team_states').where('team_id', 'in', teams).execute();
  await db.deleteFrom('teams').where('event_id', '=', eventId).execute();
  await db.deleteFrom('signups').where('event_id', '=', eventId).execute();
  await db.deleteFrom('wom_fetches').where('event_id', '=', eventId).execute();
  await db.deleteFrom('events').where('id', '=', eventId).execute();
}

/** The game of an event (one per event), or null. */
export async function gameOfEvent(db: Db, eventId: number): Promise<{ id: number; status: string } | null> {
  const row = await db.selectFrom('games').select(['id', 'status']).where('event_id', '=', eventId).executeTakeFirst();
  return row ?? null;
}
