import { describe, expect, it } from 'vitest';
import {
  EVENT_END_BEFORE_START,
  EVENT_NAME_TOO_LONG,
  EVENT_REQUIRED,
  EVENT_START_IN_PAST,
  eventStatus,
} from '../../contract/event';
import {
  centralTimeNote,
  editEventDraft,
  eventBody,
  eventFormError,
  formatLocalDateTime,
  isoToUtcInput,
  newEventDraft,
  utcInputAt,
  utcInputToIso,
  type EventDraft,
} from '../../src/features/events/eventForm';

/** Pure rules of the event modals (docs/game-rules.md §12; docs/client.md §6). */

const NOW = Date.parse('2030-01-15T12:00:00Z');
const draft = (over: Partial<EventDraft>): EventDraft => ({ ...newEventDraft(), ...over });

describe('UTC entry and the America/Chicago note', () => {
  it('reads a datetime-local value as UTC and shows it back unchanged', () => {
    expect(utcInputToIso('2030-01-31T18:00')).toBe('2030-01-31T18:00:00.000Z');
    expect(isoToUtcInput('2030-01-31T18:00:00.000Z')).toBe('2030-01-31T18:00');
    expect(isoToUtcInput('2030-01-31T12:00:00-06:00')).toBe('2030-01-31T18:00');
    expect(utcInputToIso('')).toBeNull();
    expect(utcInputToIso('not a date')).toBeNull();
    expect(utcInputToIso('2030-02-30T10:00')).toBeNull();
    expect(utcInputAt(NOW)).toBe('2030-01-15T12:00');
  });

  it('shows the same moment in Central Time, standard and daylight time', () => {
    expect(centralTimeNote('2030-01-31T18:00')).toBe('Central Time (America/Chicago): Thu, Jan 31, 2030, 12:00 PM CST');
    expect(centralTimeNote('2030-07-04T15:30')).toBe('Central Time (America/Chicago): Thu, Jul 4, 2030, 10:30 AM CDT');
    // The UTC day can be the Chicago day before.
    expect(centralTimeNote('2030-01-01T03:00')).toBe('Central Time (America/Chicago): Mon, Dec 31, 2029, 9:00 PM CST');
    expect(centralTimeNote('')).toBeNull();
    expect(centralTimeNote('2030-13-01T00:00')).toBeNull();
  });

  it('follows the daylight-saving switches of 2030 (Mar 10 and Nov 3, at 2 AM local)', () => {
    expect(centralTimeNote('2030-03-10T07:59')).toBe('Central Time (America/Chicago): Sun, Mar 10, 2030, 1:59 AM CST');
    expect(centralTimeNote('2030-03-10T08:00')).toBe('Central Time (America/Chicago): Sun, Mar 10, 2030, 3:00 AM CDT');
    expect(centralTimeNote('2030-11-03T06:30')).toBe('Central Time (America/Chicago): Sun, Nov 3, 2030, 1:30 AM CDT');
    expect(centralTimeNote('2030-11-03T07:30')).toBe('Central Time (America/Chicago): Sun, Nov 3, 2030, 1:30 AM CST');
  });

  it('lists times in the viewer zone (here fixed to two zones)', () => {
    expect(formatLocalDateTime('2030-01-31T18:00:00.000Z', 'en-US', 'UTC')).toBe('Jan 31, 2030, 6:00 PM');
    expect(formatLocalDateTime('2030-01-31T18:00:00.000Z', 'en-US', 'Asia/Tokyo')).toBe('Feb 1, 2030, 3:00 AM');
    expect(formatLocalDateTime('garbage', 'en-US', 'UTC')).toBe('garbage');
  });
});

describe('event form rule', () => {
  it('needs a trimmed name and a start', () => {
    expect(eventFormError(draft({}), NOW)).toBe(EVENT_REQUIRED);
    expect(eventFormError(draft({ name: '   ', start: '2030-02-01T10:00' }), NOW)).toBe(EVENT_REQUIRED);
    expect(eventFormError(draft({ name: 'Bingo' }), NOW)).toBe(EVENT_REQUIRED);
    expect(eventFormError(draft({ name: 'Bingo', start: '2030-02-01T10:00' }), NOW)).toBeNull();
  });

  it('allows 100 characters of name, not 101', () => {
    expect(eventFormError(draft({ name: 'x'.repeat(100), start: '2030-02-01T10:00' }), NOW)).toBeNull();
    expect(eventFormError(draft({ name: ` ${'x'.repeat(100)} `, start: '2030-02-01T10:00' }), NOW)).toBeNull();
    expect(eventFormError(draft({ name: 'x'.repeat(101), start: '2030-02-01T10:00' }), NOW)).toBe(EVENT_NAME_TOO_LONG);
  });

  it('refuses a start in the past, but an edit may keep its passed start', () => {
    expect(eventFormError(draft({ name: 'Bingo', start: '2030-01-14T10:00' }), NOW)).toBe(EVENT_START_IN_PAST);
    const edit = editEventDraft({ name: 'Bingo', start_datetime: '2030-01-14T10:00:00.000Z', end_datetime: null });
    expect(eventFormError(edit, NOW)).toBeNull();
    expect(eventFormError({ ...edit, start: '2030-01-14T11:00' }, NOW)).toBe(EVENT_START_IN_PAST);
  });

  it('needs the end after the start, not equal', () => {
    const base = draft({ name: 'Bingo', start: '2030-02-01T10:00' });
    expect(eventFormError({ ...base, end: '2030-02-01T09:59' }, NOW)).toBe(EVENT_END_BEFORE_START);
    expect(eventFormError({ ...base, end: '2030-02-01T10:00' }, NOW)).toBe(EVENT_END_BEFORE_START);
    expect(eventFormError({ ...base, end: '2030-02-01T10:01' }, NOW)).toBeNull();
  });

  it('builds the body with UTC times, a null end, and the stored start when it is kept', () => {
    expect(eventBody(draft({ name: '  Bingo ', start: '2030-02-01T10:00' }))).toEqual({
      name: 'Bingo',
      type: 'Snakes and Ladders',
      start_datetime: '2030-02-01T10:00:00.000Z',
      end_datetime: null,
      signups_open: false,
    });
    // The create form's 'Open sign-ups' adds the close time (UTC) or null without one.
    expect(eventBody(draft({ name: 'Bingo', start: '2030-02-01T10:00', signupsOpen: true, signupsCloseAt: '2030-01-31T18:00' }))).toMatchObject({ signups_open: true, signups_close_at: '2030-01-31T18:00:00.000Z' });
    expect(eventBody(draft({ name: 'Bingo', start: '2030-02-01T10:00', signupsOpen: true }))).toMatchObject({ signups_open: true, signups_close_at: null });
    const edit = editEventDraft({ name: 'Bingo', start_datetime: '2030-01-14T10:00:30.500Z', end_datetime: '2030-01-20T10:00:00.000Z' });
    expect(edit.end).toBe('2030-01-20T10:00');
    expect(eventBody(edit).start_datetime).toBe('2030-01-14T10:00:30.500Z');
    expect(eventBody({ ...edit, start: '2030-01-16T10:00' }).start_datetime).toBe('2030-01-16T10:00:00.000Z');
  });
});

describe('event status derived from time', () => {
  const e = { start_datetime: '2030-01-15T10:00:00.000Z', end_datetime: '2030-01-15T14:00:00.000Z' };
  it('is Upcoming, Live, then Completed', () => {
    expect(eventStatus(e, Date.parse('2030-01-15T09:59:59Z'))).toBe('Upcoming');
    expect(eventStatus(e, Date.parse('2030-01-15T10:00:00Z'))).toBe('Live');
    expect(eventStatus(e, Date.parse('2030-01-15T14:00:00Z'))).toBe('Completed');
    expect(eventStatus({ ...e, end_datetime: null }, Date.parse('2031-01-01T00:00:00Z'))).toBe('Live');
  });

  it('is Completed once its game is finished, whatever the time', () => {
    expect(eventStatus({ ...e, game_finished: true }, Date.parse('2030-01-15T09:59:59Z'))).toBe('Completed');
    expect(eventStatus({ ...e, game_finished: false }, Date.parse('2030-01-15T09:59:59Z'))).toBe('Upcoming');
  });
});
