import * as v from 'valibot';
import { jsonBodySchema } from './common';
import { typedTextSchema } from './text';

/** The one event type (docs/game-rules.md §12; docs/server.md §4). */
export const EVENT_TYPE = 'Snakes and Ladders';
/** Event name limit after trimming, in characters (docs/client.md §6, §12). */
export const EVENT_NAME_MAX = 100;
/**
 * How far in the past a new start may lie and still count as "now", in milliseconds: 5 minutes,
 * for clocks that disagree and forms left open a moment (docs/client.md §6: minimum is now).
 */
export const START_SLACK_MS = 5 * 60 * 1000;

/** docs/client.md §6 messages. */
export const EVENT_REQUIRED = 'Please fill out all required fields (Event Name and Start Date/Time).';
export const EVENT_END_BEFORE_START = 'End Date/Time cannot be before or the same as the Start Date/Time.';
export const EVENT_START_IN_PAST = 'Start Date/Time cannot be in the past.';
export const EVENT_NAME_TOO_LONG = `Event name must be at most ${EVENT_NAME_MAX} characters.`;
export const EVENT_BAD_START = 'Start Date/Time must be an ISO date-time such as 2030-01-31T18:00Z.';
const EVENT_BAD_END = 'End Date/Time must be an ISO date-time such as 2030-01-31T18:00Z.';
const SIGNUPS_BAD_CLOSE = 'signups_close_at must be an ISO date-time such as 2030-01-31T18:00Z, or null.';

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Parses an ISO-8601 date-time as the event forms send it: `YYYY-MM-DDTHH:mm[:ss[.fff]][Z|±HH[:mm]]`.
 * Without a zone the time is taken as UTC (docs/client.md §6: times are entered in UTC).
 * Returns epoch milliseconds, or null for anything else (including impossible dates such as
 * 2030-02-30, and years outside 1900-9999).
 */
export function parseEventDateTime(text: string): number | null {
  const m = DATE_TIME.exec(text.trim());
  if (!m) return null;
  const [, ys, mos, ds, hs, mis, ss = '0', frac = '0', zone] = m;
  const [y, mo, d, h, mi, s] = [ys, mos, ds, hs, mis, ss].map(Number);
  if (y < 1900 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  date.setUTCHours(h, mi, s, Math.floor(Number(`0.${frac}`) * 1000));
  let offsetMin = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (oh > 23 || om > 59) return null;
    offsetMin = sign * (oh * 60 + om);
  }
  return date.getTime() - offsetMin * 60_000;
}

/** The stored form of an event time: `YYYY-MM-DDTHH:mm:ss.sssZ` (UTC); null when unparsable. */
export function normalizeEventDateTime(text: string): string | null {
  const ms = parseEventDateTime(text);
  return ms === null ? null : new Date(ms).toISOString();
}

/** An event name: the text rule (contract/text.ts; 'Event name (name) must not contain control characters.'), then 1-100 characters. */
export const EventNameSchema = typedTextSchema({ label: 'Event name', field: 'name', required: EVENT_REQUIRED, max: EVENT_NAME_MAX, tooLong: EVENT_NAME_TOO_LONG });

const StartSchema = v.pipe(
  v.string(EVENT_REQUIRED),
  v.trim(),
  v.minLength(1, EVENT_REQUIRED),
  v.check((s) => parseEventDateTime(s) !== null, EVENT_BAD_START),
  v.transform((s) => normalizeEventDateTime(s) as string),
);

/** A date-time that may be none: null or '' (out: null), else normalized; `message` refuses anything else. */
const noneOrDateTime = (message: string) =>
  v.nullable(
    v.pipe(
      v.string(message),
      v.trim(),
      v.check((s) => s === '' || parseEventDateTime(s) !== null, message),
      v.transform((s): string | null => (s === '' ? null : normalizeEventDateTime(s))),
    ),
  );

/** End: a date-time, or null / '' / absent for none. */
const EndSchema = v.optional(noneOrDateTime(EVENT_BAD_END), null);

/**
 * POST /api/clan/{clanId}/events/ and PUT /api/clan/{clanId}/events/{eventId} body (docs/server.md
 * §3): name after the text rule 1-100; type 'Snakes and Ladders' (may be left out); start a
 * required ISO date-time; end an ISO date-time or null. Times come out normalized to
 * `YYYY-MM-DDTHH:mm:ss.sssZ`. The time rules that need the clock are in `eventTimesError`.
 */
export const EventBodySchema = jsonBodySchema({
  // Missing keys default to '' so the field's own message answers (valibot reports a missing
  // key with the object's message otherwise).
  name: v.optional(EventNameSchema, ''),
  type: v.optional(v.literal(EVENT_TYPE, `Event type must be '${EVENT_TYPE}'.`), EVENT_TYPE),
  start_datetime: v.optional(StartSchema, ''),
  end_datetime: EndSchema,
  /** Sign-ups (docs/server.md §16): left out on create = false / null; left out on edit = kept. */
  signups_open: v.optional(v.boolean('signups_open must be true or false.')),
  signups_close_at: v.optional(noneOrDateTime(SIGNUPS_BAD_CLOSE)),
});
export type EventBody = v.InferOutput<typeof EventBodySchema>;
export type EventBodyInput = v.InferInput<typeof EventBodySchema>;

/**
 * POST /api/clan/{clanId}/events/{eventId}/copy body (docs/server.md §18 "The next event"): the
 * new event's name, start and end with the event form's rules and messages (EventBodySchema's
 * fields; the clock's rules are eventTimesError's), and `teams`: true copies the teams with their
 * colours, members and roles (left out: false).
 */
export const CopyEventBodySchema = jsonBodySchema({
  name: EventBodySchema.entries.name,
  start_datetime: EventBodySchema.entries.start_datetime,
  end_datetime: EventBodySchema.entries.end_datetime,
  teams: v.optional(v.boolean('teams must be true or false.'), false),
});
export type CopyEventBody = v.InferOutput<typeof CopyEventBodySchema>;

/** The banner text after a copy (docs/client.md §6 'Copy event'). */
export const eventCopiedMessage = (name: string) => `Event '${name}' copied successfully.`;

/**
 * The time rules of docs/client.md §6: start not before `now` minus START_SLACK_MS
 * (skipped when `unchangedStart` is true: an edit keeping a start that has since passed); end,
 * when given, strictly after start. Inputs are ISO texts and epoch ms. Returns the documented message,
 * or null when the times are fine.
 */
export function eventTimesError(
  times: { start_datetime: string; end_datetime: string | null },
  now: number,
  unchangedStart = false,
): string | null {
  const start = parseEventDateTime(times.start_datetime);
  if (start === null) return EVENT_BAD_START;
  if (!unchangedStart && start < now - START_SLACK_MS) return EVENT_START_IN_PAST;
  if (times.end_datetime !== null) {
    const end = parseEventDateTime(times.end_datetime);
    if (end === null) return EVENT_BAD_END;
    if (end <= start) return EVENT_END_BEFORE_START;
  }
  return null;
}

/** An event as the server answers it (docs/game-rules.md §12). */
const EventSchema = v.object({
  id: v.number(),
  name: v.string(),
  type: v.string(),
  start_datetime: v.string(),
  end_datetime: v.nullable(v.string()),
  game_id: v.nullable(v.number()),
  team_count: v.number(),
  /** The event's game is finished (the server always says; optional for older answers and fixtures). */
  game_finished: v.optional(v.boolean()),
  /** Sign-ups are open (docs/server.md §16); optional for older fixtures, the server always says. */
  signups_open: v.optional(v.boolean()),
  /** When sign-ups close (ISO time), or null. */
  signups_close_at: v.optional(v.nullable(v.string())),
  /**
   * The event's game status (contract/game/status.ts), null without a game: sign-ups are taken only
   * before play (docs/server.md §16). Optional for older fixtures; the server always says.
   */
  game_status: v.optional(v.nullable(v.string())),
  /** The event's captains' draft: 'running', 'paused' or 'done', null without one (docs/server.md §16). */
  draft_status: v.optional(v.nullable(v.picklist(['running', 'paused', 'done']))),
});
export type ClanEvent = v.InferOutput<typeof EventSchema>;

/** GET /api/clan/{clanId}/events/?past=true|false answer. */
export const EventListAnswerSchema = v.object({ events: v.array(EventSchema) });

/** POST and PUT event answer: 'Event scheduled successfully!' / "Event '{name}' updated successfully." */
export const EventSavedAnswerSchema = v.object({ message: v.string(), event: EventSchema });
export type EventSavedAnswer = v.InferOutput<typeof EventSavedAnswerSchema>;

/** POST .../events/{eventId}/copy answer (201): the new event in the event list's shape. */
export const EventCopiedAnswerSchema = v.object({ event: EventSchema });

/** DELETE event answer: "Event '{name}' successfully deleted." */
export const EventDeletedAnswerSchema = v.object({ message: v.string() });

/** Success messages of docs/client.md §11: scheduled, */
export const eventScheduledMessage = () => 'Event scheduled successfully!';
/** ... updated, */
export const eventUpdatedMessage = (name: string) => `Event '${name}' updated successfully.`;
/** ... deleted. */
export const eventDeletedMessage = (name: string) => `Event '${name}' successfully deleted.`;

/** Event status derived from time (docs/game-rules.md §6). */
const EVENT_STATUSES = ['Completed', 'Live', 'Upcoming'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

function toMs(now: Date | number): number {
  return typeof now === 'number' ? now : now.getTime();
}

/**
 * Event status at `now` (Date or epoch ms), docs/game-rules.md §6: 'Completed' once the end time
 * is reached, else 'Live' once the start is reached, else 'Upcoming'. Unparsable times count as
 * not reached. An event whose game is finished reads 'Completed' whatever its times; which list it is in stays time-based.
 */
export function eventStatus(event: { start_datetime: string; end_datetime: string | null; game_finished?: boolean }, now: Date | number): EventStatus {
  if (event.game_finished) return 'Completed';
  const t = toMs(now);
  const end = event.end_datetime ? parseEventDateTime(event.end_datetime) : null;
  if (end !== null && end <= t) return 'Completed';
  const start = parseEventDateTime(event.start_datetime);
  if (start !== null && start <= t) return 'Live';
  return 'Upcoming';
}

/** True when the event's end is in the past at `now` (docs/game-rules.md §6: past events); same as status Completed. */
export function isPastEvent(event: { start_datetime: string; end_datetime: string | null }, now: Date | number): boolean {
  return eventStatus(event, now) === 'Completed';
}
