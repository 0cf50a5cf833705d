import { Hono } from 'hono';
import * as v from 'valibot';
import { imageKeysOf } from '../submissions/repository';
import { deleteImages } from '../submissions/service';
import type { AppEnv } from '../http/context';
import { describe, ids, input, named, valid } from '../http/route';
import { clanScope } from '../http/clanScope';
import { badRequest } from '../errors';
import { recordAudit } from '../audit/service';
import { announceSignups } from '../discord/outbox';
import { copyEvent } from './copy';
import { checkEventRoom } from '../quotas/repository';
import { announce } from '../http/gameScope';
import { deleteEventCascade, findEvent, insertEvent, listEvents, loadEvent, updateEvent } from './repository';
import {
  CopyEventBodySchema,
  EventBodySchema,
  EventCopiedAnswerSchema,
  EventDeletedAnswerSchema,
  EventListAnswerSchema,
  EventSavedAnswerSchema,
  eventDeletedMessage,
  eventScheduledMessage,
  eventTimesError,
  eventUpdatedMessage,
  isPastEvent,
} from '../../contract/event';

/** The clan id of the path; 400 'Invalid clan id.' when malformed. */
const CLAN_ID = ids({ clanId: 'clan id' });
/** The clan and event ids of the path; 400 'Invalid clan id.' / 'Invalid event id.' when malformed. */
const EVENT_IDS = ids({ clanId: 'clan id', eventId: 'event id' });
/** GET .../events' query: which events (absent: all); anything but true or false is a 400. */
const ListQuerySchema = v.object({ past: v.optional(v.picklist(['true', 'false'], "The 'past' parameter must be true or false.")) });
const EventBody = named('EventBody', EventBodySchema);
const EventSaved = named('EventSavedAnswer', EventSavedAnswerSchema);

/**
 * Clan events (docs/game-rules.md §12; docs/client.md §6; docs/server.md §3; docs/server.md
 * §4). Members read, managers (Owner, Admin) change; 401 signed out, 403 non-member or
 * non-manager, 404 'Clan ID {id} not found.' / 'Event ID {id} not found.' (also for another
 * clan's event), 400 bad ids or bodies. Every path also answers with a trailing slash.
 * - GET /clan/{clanId}/events/?past=true|false → {events: [{id, name, type, start_datetime,
 *   end_datetime, game_id, team_count, game_finished, signups_open, signups_close_at, game_status,
 *   draft_status}]}; past = end before now, upcoming = the rest, no
 *   parameter = all; sorted by start
 * - POST /clan/{clanId}/events/ {name, type?, start_datetime, end_datetime?, signups_open?, signups_close_at?} →
 *   {message: 'Event scheduled successfully!', event}; start may not be over 5 minutes in the past,
 *   end must be after start; 409 when the clan already has its limit of events that have not
 *   ended (docs/server.md §18 "Quotas"; the copy too)
 * - PUT /clan/{clanId}/events/{eventId} same body → {message: "Event '{name}' updated successfully.", event};
 *   a start already in the past may be kept unchanged
 * - POST /clan/{clanId}/events/{eventId}/copy {name, start_datetime, end_datetime, teams} → 201
 *   {event}: the next run of the event (docs/server.md §18 "The next event", server/events/copy.ts),
 *   the name and times under the create rules and messages
 * - DELETE /clan/{clanId}/events/{eventId} → {message: "Event '{name}' successfully deleted."};
 *   its teams, team members and game go with it
 */
export function eventRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get(
    '/clan/:clanId/events',
    describe({ tag: 'events', access: 'member', summary: "The clan's events by start.", answer: named('EventListAnswer', EventListAnswerSchema) }),
    input('param', CLAN_ID),
    input('query', ListQuerySchema, { about: { past: 'true: ended events only; false: the rest; absent: all.' } }),
    async (c) => {
      const { clanId, db } = await clanScope(c, 'member');
      const { past } = valid(c, 'query');
      const now = Date.now();
      const events = (await listEvents(db, clanId)).filter((e) => past === undefined || isPastEvent(e, now) === (past === 'true'));
      return c.json({ events });
    },
  );

  app.post(
    '/clan/:clanId/events',
    describe({ tag: 'events', access: 'manager', summary: 'Schedules an event.', answer: EventSaved }),
    input('param', CLAN_ID),
    input('json', EventBody),
    async (c) => {
      const { user, clanId, db } = await clanScope(c, 'manager');
      const body = valid(c, 'json');
      const timeError = eventTimesError(body, Date.now());
      if (timeError) throw badRequest(timeError);
      // The open-events quota (docs/server.md §18 "Quotas"), on the locked clan row: 409 at the limit.
      const eventId = await db.transaction().execute(async (trx) => {
        await checkEventRoom(trx, c.get('deps').config, clanId);
        return insertEvent(trx, clanId, body);
      });
      await recordAudit(db, clanId, user.id, 'event.create', body.name, 'Scheduled');
      return c.json({ message: eventScheduledMessage(), event: await loadEvent(db, eventId) });
    },
  );

  app.put(
    '/clan/:clanId/events/:eventId',
    describe({ tag: 'events', access: 'manager', summary: 'Changes an event.', answer: EventSaved }),
    input('param', EVENT_IDS),
    input('json', EventBody),
    async (c) => {
      const { user, clanId, eventId, db } = await clanScope(c, 'manager');
      const existing = await findEvent(db, clanId, eventId);
      const body = valid(c, 'json');
      const timeError = eventTimesError(body, Date.now(), body.start_datetime === existing.start_datetime);
      if (timeError) throw badRequest(timeError);
      await db.transaction().execute(async (trx) => {
        await updateEvent(trx, eventId, body);
        await recordAudit(trx, clanId, user.id, 'event.update', body.name, existing.name === body.name ? 'Details changed' : `Renamed from ${existing.name}`);
        const wasOpen = existing.signups_open === 1;
        // Opening or closing sign-ups is its own entry beside the update, as managers look for it.
        if (body.signups_open !== undefined && body.signups_open !== wasOpen) {
          await recordAudit(trx, clanId, user.id, body.signups_open ? 'signups.open' : 'signups.close', body.name, body.signups_open ? 'Sign-ups opened' : 'Sign-ups closed');
        }
        // A close already announced (its time passed) is not announced again.
        const closedBefore = wasOpen && existing.signups_close_announced === 1;
        if (body.signups_open !== undefined && body.signups_open !== wasOpen && !(body.signups_open === false && closedBefore)) {
          await announceSignups(trx, { id: eventId, name: body.name }, body.signups_open, body.signups_close_at === undefined ? existing.signups_close_at : body.signups_close_at);
        }
      });
      return c.json({ message: eventUpdatedMessage(body.name), event: await loadEvent(db, eventId) });
    },
  );

  app.post(
    '/clan/:clanId/events/:eventId/copy',
    describe({ tag: 'events', access: 'manager', status: 201, summary: 'Copies an event for the next run: its game board and rules, and its teams when asked.', answer: named('EventCopiedAnswer', EventCopiedAnswerSchema) }),
    input('param', EVENT_IDS),
    input('json', named('CopyEventBody', CopyEventBodySchema)),
    async (c) => {
      const { user, clanId, eventId, db, deps } = await clanScope(c, 'manager');
      const source = await findEvent(db, clanId, eventId);
      const body = valid(c, 'json');
      const timeError = eventTimesError(body, Date.now());
      if (timeError) throw badRequest(timeError);
      const copyId = await db.transaction().execute(async (trx) => {
        const id = await copyEvent(trx, deps.config, clanId, source, body);
        await recordAudit(trx, clanId, user.id, 'event.copy', body.name, `Copy of ${source.name}`);
        return id;
      });
      const event = await loadEvent(db, copyId);
      if (event.game_id !== null) await announce(c, event.game_id, 'full');
      return c.json({ event }, 201);
    },
  );

  app.delete(
    '/clan/:clanId/events/:eventId',
    describe({ tag: 'events', access: 'manager', summary: 'Deletes an event with its teams and game.', answer: named('EventDeletedAnswer', EventDeletedAnswerSchema) }),
    input('param', EVENT_IDS),
    async (c) => {
      const { user, clanId, eventId, db, deps } = await clanScope(c, 'manager');
      const { name, imageKeys } = await db.transaction().execute(async (trx) => {
        const event = await findEvent(trx, clanId, eventId);
        const keys = await imageKeysOf(trx, { eventId });
        await deleteEventCascade(trx, eventId);
        await recordAudit(trx, clanId, user.id, 'event.delete', event.name, 'Deleted with its teams and game');
        return { name: event.name, imageKeys: keys };
      });
      await deleteImages(deps, imageKeys);
      return c.json({ message: eventDeletedMessage(name) });
    },
  );

  return app;
}
