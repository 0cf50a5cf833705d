import * as v from 'valibot';
import {
  EVENT_REQUIRED,
  EVENT_TYPE,
  EventNameSchema,
  eventTimesError,
  parseEventDateTime,
  type ClanEvent,
  type CopyEventBody,
  type EventBodyInput,
} from '../../../contract/event';
import { firstIssueMessage } from '../../../contract/common';

/** The Central-time zone of the conversion note (docs/client.md §6). */
const CENTRAL_TIME_ZONE = 'America/Chicago';

/**
 * The schedule / edit form as the confirmAction draft holds it: `start` and `end` are the values
 * of `datetime-local` inputs ('YYYY-MM-DDTHH:mm'), read as UTC (docs/client.md §6);
 * `originalStart` is the stored start of an edited event (a start that has since passed may be
 * kept).
 */
export interface EventDraft {
  name: string;
  start: string;
  end: string;
  originalStart: string | null;
  /** The stored start ISO text of an edited event, sent back unchanged when the start is kept. */
  originalStartIso: string | null;
  /**
   * 'Open sign-ups' of the schedule modal (docs/server.md §16: create takes signups_open); null in
   * the edit modal, which leaves sign-ups as they are (the Sign-ups view opens and closes them).
   */
  signupsOpen: boolean | null;
  /** The optional sign-ups close time, a `datetime-local` value read as UTC ('' for none). */
  signupsCloseAt: string;
  /**
   * 'Copy teams too' of the Copy event modal (docs/server.md §18 "The next event": the copy's
   * `teams`); null or absent in the schedule and edit modals, which have no such box.
   */
  copyTeams?: boolean | null;
}

/** The draft of the schedule modal: everything empty. */
export function newEventDraft(): EventDraft {
  return { name: '', start: '', end: '', originalStart: null, originalStartIso: null, signupsOpen: false, signupsCloseAt: '', copyTeams: null };
}

/**
 * The draft of the Copy event modal (docs/client.md §6): the event's name to change, empty times
 * (the next run is scheduled anew), no sign-ups box, and 'Copy teams too' ticked.
 */
export function copyEventDraft(event: Pick<ClanEvent, 'name'>): EventDraft {
  return { ...newEventDraft(), name: event.name, signupsOpen: null, copyTeams: true };
}

/** The body of POST .../events/{eventId}/copy built from a valid copy draft (times as UTC ISO texts). */
export function copyEventBody(draft: EventDraft): CopyEventBody {
  const { name, start_datetime, end_datetime } = eventBody(draft);
  return { name, start_datetime, end_datetime, teams: draft.copyTeams === true };
}

/** The draft of the edit modal, filled from the event (times shown in UTC). */
export function editEventDraft(event: Pick<ClanEvent, 'name' | 'start_datetime' | 'end_datetime'>): EventDraft {
  return {
    name: event.name,
    start: isoToUtcInput(event.start_datetime),
    end: event.end_datetime ? isoToUtcInput(event.end_datetime) : '',
    originalStart: isoToUtcInput(event.start_datetime),
    originalStartIso: event.start_datetime,
    signupsOpen: null,
    signupsCloseAt: '',
    copyTeams: null,
  };
}

/** Reads an untyped draft (the model tests' `Record<string, unknown>`) as an EventDraft; missing fields are empty. */
export function asEventDraft(draft: Record<string, unknown>): EventDraft {
  const text = (k: string) => {
    const value = draft[k];
    return typeof value === 'string' ? value : '';
  };
  return {
    name: text('name'),
    start: text('start'),
    end: text('end'),
    originalStart: typeof draft.originalStart === 'string' ? draft.originalStart : null,
    originalStartIso: typeof draft.originalStartIso === 'string' ? draft.originalStartIso : null,
    signupsOpen: typeof draft.signupsOpen === 'boolean' ? draft.signupsOpen : null,
    signupsCloseAt: text('signupsCloseAt'),
    copyTeams: typeof draft.copyTeams === 'boolean' ? draft.copyTeams : null,
  };
}

/**
 * A `datetime-local` value typed as UTC → ISO text 'YYYY-MM-DDTHH:mm:00.000Z'; null when empty or
 * not a date-time. Parsing is the contract's (no zone means UTC).
 */
export function utcInputToIso(value: string): string | null {
  if (!value.trim()) return null;
  const ms = parseEventDateTime(value);
  return ms === null ? null : new Date(ms).toISOString();
}

/** ISO text → the `datetime-local` value showing the same moment in UTC ('YYYY-MM-DDTHH:mm'). */
export function isoToUtcInput(iso: string): string {
  const ms = parseEventDateTime(iso);
  return ms === null ? '' : new Date(ms).toISOString().slice(0, 16);
}

/** `now` (epoch ms) as a UTC `datetime-local` value, for the start field's `min`. */
export function utcInputAt(now: number): string {
  return new Date(now).toISOString().slice(0, 16);
}

const centralFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: CENTRAL_TIME_ZONE,
  weekday: 'short',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/**
 * The conversion note under a UTC time field (docs/client.md §6): the same moment in
 * America/Chicago through the platform's Intl time-zone data, e.g. '2030-01-31T18:00' →
 * 'Central Time (America/Chicago): Thu, Jan 31, 2030, 12:00 PM CST'. Null for an empty or
 * unreadable value.
 */
export function centralTimeNote(utcValue: string): string | null {
  const iso = utcInputToIso(utcValue);
  if (!iso) return null;
  return `Central Time (America/Chicago): ${centralFormat.format(new Date(iso))}`;
}

/**
 * A listed event time in the viewer's local time (docs/client.md §6), e.g.
 * 'Jan 31, 2030, 7:00 PM'. `locale` and `timeZone` default to the viewer's; tests fix them.
 */
export function formatLocalDateTime(iso: string, locale?: string, timeZone?: string): string {
  const ms = parseEventDateTime(iso);
  if (ms === null) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(ms));
}

/**
 * The form rule of the schedule and edit modals (docs/client.md §6) at `now` (epoch
 * ms): name (EventNameSchema: the text rule, so control characters are refused as the server
 * does) and start required → 'Please fill out all required fields (Event Name and
 * Start Date/Time).'; name at most 100 characters; start not in the past (unless an edit keeps the
 * stored start); end, when given, after start → 'End Date/Time cannot be before or the same as the
 * Start Date/Time.'. Returns the message, or null when the form may be submitted.
 */
export function eventFormError(draft: EventDraft, now: number): string | null {
  const name = v.safeParse(EventNameSchema, draft.name);
  const nameError = name.success ? null : firstIssueMessage(name.issues);
  if (nameError === EVENT_REQUIRED || !draft.start.trim()) return EVENT_REQUIRED;
  if (nameError) return nameError;
  const start = utcInputToIso(draft.start);
  if (!start) return EVENT_REQUIRED;
  const end = draft.end.trim() ? utcInputToIso(draft.end) : null;
  if (draft.end.trim() && !end) return 'End Date/Time is not a valid date and time.';
  if (draft.signupsOpen && draft.signupsCloseAt.trim() && !utcInputToIso(draft.signupsCloseAt)) return EVENT_FORM_TEXTS.badSignupsClose;
  const unchangedStart = draft.originalStart !== null && draft.originalStart === draft.start;
  return eventTimesError({ start_datetime: unchangedStart && draft.originalStartIso ? draft.originalStartIso : start, end_datetime: end }, now, unchangedStart);
}

/** The body of POST / PUT event (docs/server.md §3). */
export interface EventFormBody extends EventBodyInput {
  name: string;
  type: typeof EVENT_TYPE;
  start_datetime: string;
  end_datetime: string | null;
}

/**
 * The body of POST / PUT event built from a valid draft (times as UTC ISO texts); the schedule
 * modal adds signups_open and, when open, signups_close_at (null without a close time).
 */
export function eventBody(draft: EventDraft): EventFormBody {
  // An edited event whose start field is unchanged sends its stored start back as it was.
  const keptStart = draft.originalStart === draft.start ? draft.originalStartIso : null;
  const body: EventFormBody = {
    name: draft.name.trim(),
    type: EVENT_TYPE,
    start_datetime: keptStart ?? utcInputToIso(draft.start) ?? '',
    end_datetime: draft.end.trim() ? utcInputToIso(draft.end) : null,
  };
  if (draft.signupsOpen === null) return body;
  return draft.signupsOpen ? { ...body, signups_open: true, signups_close_at: utcInputToIso(draft.signupsCloseAt) } : { ...body, signups_open: false };
}

/** The texts of the event form's sign-ups fields (docs/client.md §6). */
export const EVENT_FORM_TEXTS = {
  signupsOpen: 'Open sign-ups',
  signupsOpenHint: 'Ticked, clan members can sign up as soon as the event is scheduled.',
  signupsClose: 'Close sign-ups at (UTC, optional)',
  badSignupsClose: 'Close sign-ups at is not a valid date and time.',
  copyTeams: 'Copy teams too',
  copyTeamsHint: 'The same teams, colours, members and roles. Unticked, the new event starts with no teams.',
} as const;
