import { ApiRequestError, request, withNetworkMessage } from './client';
import {
  EventCopiedAnswerSchema,
  EventDeletedAnswerSchema,
  EventListAnswerSchema,
  EventSavedAnswerSchema,
  type ClanEvent,
  type CopyEventBody,
  type EventBodyInput,
  type EventSavedAnswer,
} from '../../contract/event';

const base = (clanId: number) => `clan/${clanId}/events`;

/**
 * GET /api/clan/{clanId}/events/?past=true|false (docs/server.md §3): the clan's past
 * events (end before now) or the upcoming and live ones; every event, by start, when `past` is
 * left out. Raises 'Failed to fetch events.' or 'Network error fetching events.' when the server
 * gives no error text.
 */
export async function fetchEvents(clanId: number, past?: boolean): Promise<ClanEvent[]> {
  const searchParams = past === undefined ? {} : { past: String(past) };
  const answer = await withNetworkMessage(
    request(EventListAnswerSchema, (h) => h.get(`${base(clanId)}/`, { searchParams }), 'Failed to fetch events.'),
    'Network error fetching events.',
  );
  return answer.events;
}

/**
 * One event of the clan, upcoming or past, for a view opened from its URL: looked up in the
 * upcoming list, then the past one (the API has no single-event GET). Raises 'Event not found.'
 * when neither has it, and the list errors as fetchEvents does.
 */
export async function fetchEvent(clanId: number, eventId: number): Promise<ClanEvent> {
  for (const past of [false, true]) {
    const found = (await fetchEvents(clanId, past)).find((e) => e.id === eventId);
    if (found) return found;
  }
  throw new ApiRequestError('Event not found.', 404);
}

/**
 * POST /api/clan/{clanId}/events/ {name, type, start_datetime, end_datetime|null} →
 * {message: 'Event scheduled successfully!', event}. Fallback 'Failed to schedule event due to server error.'
 */
export function scheduleEvent(clanId: number, body: EventBodyInput): Promise<EventSavedAnswer> {
  return request(EventSavedAnswerSchema, (h) => h.post(`${base(clanId)}/`, { json: body }), 'Failed to schedule event due to server error.');
}

/**
 * PUT /api/clan/{clanId}/events/{eventId} (same body) → {message: "Event '{name}' updated successfully.", event}.
 * Fallback 'Failed to update event due to server error.'
 */
export function updateEvent(clanId: number, eventId: number, body: EventBodyInput): Promise<EventSavedAnswer> {
  return request(EventSavedAnswerSchema, (h) => h.put(`${base(clanId)}/${eventId}`, { json: body }), 'Failed to update event due to server error.');
}

/**
 * POST /api/clan/{clanId}/events/{eventId}/copy {name, start_datetime, end_datetime, teams} → 201
 * {event}: the next run of the event with its board and rules, and its teams when `teams` is true
 * (docs/server.md §18 "The next event"). Fallback 'Failed to copy event due to server error.'
 */
export async function copyEvent(clanId: number, eventId: number, body: CopyEventBody): Promise<ClanEvent> {
  return (await request(EventCopiedAnswerSchema, (h) => h.post(`${base(clanId)}/${eventId}/copy`, { json: body }), 'Failed to copy event due to server error.')).event;
}

/**
 * DELETE /api/clan/{clanId}/events/{eventId} → {message: "Event '{name}' successfully deleted."};
 * the server removes its teams and game too. Fallback 'Failed to delete event due to server error.'
 */
export async function deleteEvent(clanId: number, eventId: number): Promise<{ message: string }> {
  return request(EventDeletedAnswerSchema, (h) => h.delete(`${base(clanId)}/${eventId}`), 'Failed to delete event due to server error.');
}
