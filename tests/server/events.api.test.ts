import { describe, it, expect, beforeAll } from 'vitest';
import { backends } from '../support/server';
import type { ApiClient } from '../support/api';
import { useServerSuite } from '../support/suite';
import { actorClient, clanWithRoles, directSql as sql, insertGame, okBody, permissionMatrix, READ, signInDev, WRITE, type Actor, type MatrixCall, type Person } from '../support/fixtures';
import {
  EVENT_BAD_START,
  EVENT_END_BEFORE_START,
  EVENT_NAME_TOO_LONG,
  EVENT_REQUIRED,
  EVENT_START_IN_PAST,
  EVENT_TYPE,
  eventStatus,
  isPastEvent,
  normalizeEventDateTime,
  parseEventDateTime,
} from '../../contract/event';

/**
 * Clan events over real HTTP (docs/game-rules.md §11, §12; docs/client.md §6; docs/server.md
 * §3; docs/server.md §4): the permission matrix of every call ×
 * {signed out, non-member, Guest, Member, Admin, Owner}, the validation rules, the past/upcoming
 * split, the delete cascade, trailing slashes and a sweep of bad input that must answer 4xx.
 * Plus the pure event-status rule of contract/event.ts.
 */

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const iso = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();

describe('event status rule (contract/event.ts)', () => {
  const now = Date.parse('2030-06-15T12:00:00Z');
  it('is Completed once the end is reached, Live once the start is reached, else Upcoming', () => {
    expect(eventStatus({ start_datetime: '2030-06-15T10:00:00Z', end_datetime: '2030-06-15T11:00:00Z' }, now)).toBe('Completed');
    expect(eventStatus({ start_datetime: '2030-06-15T10:00:00Z', end_datetime: '2030-06-15T12:00:00Z' }, now)).toBe('Completed');
    expect(eventStatus({ start_datetime: '2030-06-15T10:00:00Z', end_datetime: '2030-06-15T13:00:00Z' }, now)).toBe('Live');
    expect(eventStatus({ start_datetime: '2030-06-15T10:00:00Z', end_datetime: null }, now)).toBe('Live');
    expect(eventStatus({ start_datetime: '2030-06-15T12:00:00Z', end_datetime: null }, new Date(now))).toBe('Live');
    expect(eventStatus({ start_datetime: '2030-06-16T10:00:00Z', end_datetime: null }, now)).toBe('Upcoming');
    expect(eventStatus({ start_datetime: '2030-06-16T10:00:00Z', end_datetime: '2030-06-17T10:00:00Z' }, now)).toBe('Upcoming');
  });
  it('counts an event as past only when its end is in the past', () => {
    expect(isPastEvent({ start_datetime: '2030-06-15T10:00:00Z', end_datetime: '2030-06-15T11:00:00Z' }, now)).toBe(true);
    expect(isPastEvent({ start_datetime: '2020-01-01T10:00:00Z', end_datetime: null }, now)).toBe(false);
    expect(isPastEvent({ start_datetime: '2030-06-15T10:00:00Z', end_datetime: '2030-06-15T13:00:00Z' }, now)).toBe(false);
  });
  it('parses ISO date-times with or without seconds and zone (no zone = UTC) and refuses impossible ones', () => {
    expect(normalizeEventDateTime('2031-05-01T12:00')).toBe('2031-05-01T12:00:00.000Z');
    expect(normalizeEventDateTime('2031-05-01T12:00:30.5+02:00')).toBe('2031-05-01T10:00:30.500Z');
    expect(normalizeEventDateTime('2031-05-01 12:00:00-0530')).toBe('2031-05-01T17:30:00.000Z');
    expect(normalizeEventDateTime('2031-05-01T12:00:00.123Z')).toBe('2031-05-01T12:00:00.123Z');
    for (const bad of ['', 'tomorrow', '2031-02-30T10:00', '2031-13-01T10:00', '2031-05-01T24:00', '2031-05-01', '31-05-01T10:00', '2031-05-01T10:00+25:00']) {
      expect(parseEventDateTime(bad), bad).toBeNull();
    }
  });
});

describe.each(backends())('events API (%s)', (backend) => {
  const suite = useServerSuite(backend);
  /** The clan's people by role (set up in beforeAll). */
  const roles = {} as Record<Person, ApiClient>;
  let clanId: number;
  let otherOwner: ApiClient;
  let otherClanId: number;
  let serial = 0;

  const client = () => suite.client();

  const signIn = (name: string) => signInDev(client, name);

  function as(actor: Actor): ApiClient {
    return actorClient(roles, actor);
  }

  /** A fresh upcoming event of the main clan, made by its Owner. */
  async function freshEvent(extra: Record<string, unknown> = {}): Promise<{ id: number; name: string }> {
    const name = `Event ${++serial}`;
    const r = await roles.owner.post(`/api/clan/${clanId}/events/`, { name, type: EVENT_TYPE, start_datetime: iso(DAY), end_datetime: iso(2 * DAY), ...extra });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return { id: r.body.event.id, name: r.body.event.name };
  }

  const allEvents = async (api: ApiClient = roles.owner, clan = clanId): Promise<any[]> => (await okBody(api.get(`/api/clan/${clan}/events/`))).events;

  beforeAll(async () => {
    clanId = (await clanWithRoles(suite.url, { prefix: 'ev', clanName: 'Event Clan', signIn, into: roles })).clanId;
    otherOwner = (await signIn('ev-other-owner')).api;
    otherClanId = (await otherOwner.post('/api/clans', { clan_name: 'Other Event Clan' })).body.clan_id;
  }, 60_000);

  /** Every call × every actor; a refused write changes nothing. */
  const MATRIX: MatrixCall[] = [
    {
      call: 'GET events/?past=false',
      expect: READ,
      send: async (api) => ({ r: await api.get(`/api/clan/${clanId}/events/?past=false`) }),
    },
    {
      call: 'GET events/?past=true',
      expect: READ,
      send: async (api) => ({ r: await api.get(`/api/clan/${clanId}/events/?past=true`) }),
    },
    {
      call: 'POST events/',
      expect: WRITE,
      send: async (api) => {
        const name = `Matrix create ${++serial}`;
        const r = await api.post(`/api/clan/${clanId}/events/`, { name, type: EVENT_TYPE, start_datetime: iso(DAY), end_datetime: null });
        return { r, verify: async (ok) => expect((await allEvents()).some((e) => e.name === name)).toBe(ok) };
      },
    },
    {
      call: 'PUT events/{id}',
      expect: WRITE,
      send: async (api) => {
        const ev = await freshEvent();
        const r = await api.put(`/api/clan/${clanId}/events/${ev.id}`, { name: `${ev.name} renamed`, type: EVENT_TYPE, start_datetime: iso(DAY), end_datetime: null });
        return { r, verify: async (ok) => expect((await allEvents()).find((e) => e.id === ev.id).name).toBe(ok ? `${ev.name} renamed` : ev.name) };
      },
    },
    {
      call: 'DELETE events/{id}',
      expect: WRITE,
      send: async (api) => {
        const ev = await freshEvent();
        const r = await api.del(`/api/clan/${clanId}/events/${ev.id}`);
        return { r, verify: async (ok) => expect((await allEvents()).some((e) => e.id === ev.id)).toBe(!ok) };
      },
    },
  ];

  permissionMatrix(MATRIX, as);

  describe('clans and ids', () => {
    it('answers 404 "Clan ID {id} not found." for a missing clan on every call', async () => {
      const missing = 987654;
      const body = { name: 'x', type: EVENT_TYPE, start_datetime: iso(DAY), end_datetime: null };
      for (const r of [
        await roles.member.get(`/api/clan/${missing}/events/?past=false`),
        await roles.member.post(`/api/clan/${missing}/events/`, body),
        await roles.member.put(`/api/clan/${missing}/events/1`, body),
        await roles.member.del(`/api/clan/${missing}/events/1`),
      ]) {
        expect(r).toMatchObject({ status: 404, body: { error: `Clan ID ${missing} not found.` } });
      }
    });

    it('answers 404 for an event of another clan, through either clan, and changes nothing', async () => {
      const ev = await freshEvent();
      const body = { name: 'Hijacked', type: EVENT_TYPE, start_datetime: iso(DAY), end_datetime: null };
      // Through the other clan (where the actor is Owner): the event is not found there.
      expect(await otherOwner.put(`/api/clan/${otherClanId}/events/${ev.id}`, body)).toMatchObject({ status: 404, body: { error: `Event ID ${ev.id} not found.` } });
      expect((await otherOwner.del(`/api/clan/${otherClanId}/events/${ev.id}`)).status).toBe(404);
      // Through the event's own clan the other Owner is a non-member.
      expect((await otherOwner.del(`/api/clan/${clanId}/events/${ev.id}`)).status).toBe(403);
      expect((await allEvents()).find((e) => e.id === ev.id).name).toBe(ev.name);
      expect((await roles.owner.put(`/api/clan/${clanId}/events/987654`, body)).status).toBe(404);
      expect((await roles.owner.del(`/api/clan/${clanId}/events/987654`)).status).toBe(404);
    });

    it('answers 400 for ids that are not positive integers or too large, never 500', async () => {
      const body = { name: 'x', type: EVENT_TYPE, start_datetime: iso(DAY), end_datetime: null };
      for (const bad of ['abc', '0', '-1', '1.5', '12abc', '9999999999', '99999999999999999999']) {
        expect((await roles.owner.get(`/api/clan/${bad}/events/`)).status, bad).toBe(400);
        expect((await roles.owner.post(`/api/clan/${bad}/events/`, body)).status, bad).toBe(400);
        expect((await roles.owner.put(`/api/clan/${clanId}/events/${bad}`, body)).status, bad).toBe(400);
        expect((await roles.owner.del(`/api/clan/${clanId}/events/${bad}`)).status, bad).toBe(400);
      }
    });

    it('accepts every path with and without a trailing slash', async () => {
      expect((await roles.member.get(`/api/clan/${clanId}/events`)).status).toBe(200);
      expect((await roles.member.get(`/api/clan/${clanId}/events/?past=true`)).status).toBe(200);
      const made = await roles.owner.post(`/api/clan/${clanId}/events`, { name: 'No slash', type: EVENT_TYPE, start_datetime: iso(DAY), end_datetime: null });
      expect(made.status).toBe(200);
      const id = made.body.event.id;
      expect((await roles.owner.put(`/api/clan/${clanId}/events/${id}/`, { name: 'With slash', start_datetime: iso(DAY), end_datetime: null })).status).toBe(200);
      expect((await roles.owner.del(`/api/clan/${clanId}/events/${id}/`)).body).toEqual({ message: "Event 'With slash' successfully deleted." });
    });
  });

  describe('schedule and edit', () => {
    it('schedules an event with the spec message and answers the event with every field', async () => {
      const start = '2031-05-01T12:00:00+02:00';
      const r = await roles.admin.post(`/api/clan/${clanId}/events/`, { name: '  Summer Bash  ', type: EVENT_TYPE, start_datetime: start, end_datetime: '2031-05-02T12:00' });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.message).toBe('Event scheduled successfully!');
      expect(r.body.event).toEqual({
        id: expect.any(Number),
        name: 'Summer Bash',
        type: EVENT_TYPE,
        start_datetime: '2031-05-01T10:00:00.000Z',
        end_datetime: '2031-05-02T12:00:00.000Z',
        game_id: null,
        team_count: 0,
        game_finished: false,
        signups_open: false,
        signups_close_at: null,
        game_status: null,
        draft_status: null,
      });
    });

    it('takes the type as optional but refuses any other type', async () => {
      const r = await roles.owner.post(`/api/clan/${clanId}/events/`, { name: 'No type', start_datetime: iso(DAY) });
      expect(r.status).toBe(200);
      expect(r.body.event).toMatchObject({ type: EVENT_TYPE, end_datetime: null });
      const bad = await roles.owner.post(`/api/clan/${clanId}/events/`, { name: 'Bingo', type: 'Bingo', start_datetime: iso(DAY) });
      expect(bad.status).toBe(400);
    });

    const INVALID: [string, Record<string, unknown>, string][] = [
      ['no name', { start_datetime: '+1d' }, EVENT_REQUIRED],
      ['blank name', { name: '   ', start_datetime: '+1d' }, EVENT_REQUIRED],
      ['name of 101 characters', { name: 'n'.repeat(101), start_datetime: '+1d' }, EVENT_NAME_TOO_LONG],
      ['name not a string', { name: 42, start_datetime: '+1d' }, EVENT_REQUIRED],
      ['no start', { name: 'Ev' }, EVENT_REQUIRED],
      ['empty start', { name: 'Ev', start_datetime: '' }, EVENT_REQUIRED],
      ['start not a date', { name: 'Ev', start_datetime: 'tomorrow' }, EVENT_BAD_START],
      ['impossible start', { name: 'Ev', start_datetime: '2031-02-30T10:00' }, EVENT_BAD_START],
      ['start an hour ago', { name: 'Ev', start_datetime: '-1h' }, EVENT_START_IN_PAST],
      ['end before start', { name: 'Ev', start_datetime: '+2d', end_datetime: '+1d' }, EVENT_END_BEFORE_START],
      ['end equal to start', { name: 'Ev', start_datetime: '+1d', end_datetime: '+1d' }, EVENT_END_BEFORE_START],
      ['end not a date', { name: 'Ev', start_datetime: '+1d', end_datetime: 'soon' }, 'End Date/Time'],
      ['end a number', { name: 'Ev', start_datetime: '+1d', end_datetime: 5 }, 'End Date/Time'],
    ];

    /** '+1d', '-1h' … become times relative to now. */
    function resolve(body: Record<string, unknown>, base = Date.now()): Record<string, unknown> {
      const out: Record<string, unknown> = { ...body };
      for (const k of ['start_datetime', 'end_datetime']) {
        const m = typeof out[k] === 'string' ? /^([+-]\d+)([dh])$/.exec(out[k] as string) : null;
        if (m) out[k] = new Date(base + Number(m[1]) * (m[2] === 'd' ? DAY : HOUR)).toISOString();
      }
      return out;
    }

    it.each(INVALID)('refuses %s with 400 and stores nothing', async (_label, body, message) => {
      const before = (await allEvents()).length;
      const r = await roles.owner.post(`/api/clan/${clanId}/events/`, resolve(body));
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(message);
      expect((await allEvents()).length).toBe(before);
    });

    it('accepts a name of exactly 100 characters, an empty or null end, and a start up to 5 minutes ago', async () => {
      expect((await roles.owner.post(`/api/clan/${clanId}/events/`, { name: 'n'.repeat(100), start_datetime: iso(DAY) })).status).toBe(200);
      const empty = await roles.owner.post(`/api/clan/${clanId}/events/`, { name: 'Empty end', start_datetime: iso(DAY), end_datetime: '' });
      expect(empty.body.event.end_datetime).toBeNull();
      expect((await roles.owner.post(`/api/clan/${clanId}/events/`, { name: 'Slack', start_datetime: iso(-2 * 60_000), end_datetime: null })).status).toBe(200);
    });

    it('refuses bodies that are not JSON objects with 400', async () => {
      for (const body of ['not json', '[]', 'null', '"text"', '42']) {
        const r = await roles.owner.call('POST', `/api/clan/${clanId}/events/`, body);
        expect(r.status, body).toBe(400);
        expect(typeof r.body.error).toBe('string');
      }
    });

    it('updates an event with the spec message, and applies the same rules', async () => {
      const ev = await freshEvent();
      const r = await roles.admin.put(`/api/clan/${clanId}/events/${ev.id}`, { name: ' Renamed ', type: EVENT_TYPE, start_datetime: iso(3 * DAY), end_datetime: iso(4 * DAY) });
      expect(r.status).toBe(200);
      expect(r.body.message).toBe("Event 'Renamed' updated successfully.");
      expect(r.body.event).toMatchObject({ id: ev.id, name: 'Renamed', game_id: null, team_count: 0 });
      const bad = await roles.owner.put(`/api/clan/${clanId}/events/${ev.id}`, { name: 'Renamed', start_datetime: iso(3 * DAY), end_datetime: iso(2 * DAY) });
      expect(bad).toMatchObject({ status: 400, body: { error: EVENT_END_BEFORE_START } });
      expect((await roles.owner.put(`/api/clan/${clanId}/events/${ev.id}`, { name: '', start_datetime: iso(DAY) })).status).toBe(400);
      expect((await roles.owner.put(`/api/clan/${clanId}/events/${ev.id}`, 'nope')).status).toBe(400);
      expect((await allEvents()).find((e) => e.id === ev.id).name).toBe('Renamed');
    });

    it('keeps a start that has since passed when an edit leaves it unchanged, but refuses a new past start', async () => {
      const ev = await freshEvent();
      const pastStart = new Date(Date.now() - 2 * DAY).toISOString();
      await sql(suite.env, 'UPDATE events SET start_datetime = ? WHERE id = ?', [pastStart, ev.id]);
      const same = await roles.owner.put(`/api/clan/${clanId}/events/${ev.id}`, { name: 'Still running', start_datetime: pastStart, end_datetime: iso(DAY) });
      expect(same.status, JSON.stringify(same.body)).toBe(200);
      expect(same.body.event.start_datetime).toBe(pastStart);
      const moved = await roles.owner.put(`/api/clan/${clanId}/events/${ev.id}`, { name: 'Still running', start_datetime: new Date(Date.now() - DAY).toISOString(), end_datetime: iso(DAY) });
      expect(moved).toMatchObject({ status: 400, body: { error: EVENT_START_IN_PAST } });
    });
  });

  describe('listing', () => {
    it('splits past (end before now) from upcoming (the rest), sorted by start, with game_id and team_count', async () => {
      const lister = await signIn('ev-lister');
      const clan = (await lister.api.post('/api/clans', { clan_name: 'Listing Clan' })).body.clan_id as number;
      const mk = async (name: string, start: number, end: number | null) => {
        const r = await lister.api.post(`/api/clan/${clan}/events/`, { name, start_datetime: iso(start), end_datetime: end === null ? null : iso(end) });
        expect(r.status).toBe(200);
        return r.body.event.id as number;
      };
      const later = await mk('Later', 3 * DAY, null);
      const soon = await mk('Soon', DAY, 2 * DAY);
      const live = await mk('Live', 2 * HOUR, 5 * DAY);
      const oldA = await mk('Old A', 2 * DAY, 3 * DAY);
      const oldB = await mk('Old B', 4 * DAY, 5 * DAY);
      // Move two events into the past, as time would.
      await sql(suite.env, 'UPDATE events SET start_datetime = ?, end_datetime = ? WHERE id = ?', [iso(-3 * DAY), iso(-2 * DAY), oldA]);
      await sql(suite.env, 'UPDATE events SET start_datetime = ?, end_datetime = ? WHERE id = ?', [iso(-5 * DAY), iso(-4 * DAY), oldB]);
      await sql(suite.env, 'UPDATE events SET start_datetime = ? WHERE id = ?', [iso(-HOUR), live]);
      const gameId = await insertGame(suite.env, soon, clan);
      expect((await lister.api.post(`/api/clan/${clan}/events/${soon}/teams/`, { name: 'T1', color: '#112233' })).status).toBe(200);
      expect((await lister.api.post(`/api/clan/${clan}/events/${soon}/teams/`, { name: 'T2', color: '#445566' })).status).toBe(200);

      // A running captains' draft on the event with the game (docs/server.md §16).
      const at = iso(0);
      await sql(suite.env, "INSERT INTO drafts (event_id, status, pick_seconds, team_order, captains, deadline, paused_remaining_ms, version, created_at, updated_at) VALUES (?, 'running', 60, '[]', '[]', ?, NULL, 0, ?, ?)", [soon, iso(HOUR), at, at]);

      const upcoming = await lister.api.get(`/api/clan/${clan}/events/?past=false`);
      expect(upcoming.body.events.map((e: any) => e.id)).toEqual([live, soon, later]);
      const soonRow = upcoming.body.events.find((e: any) => e.id === soon);
      // The game's status and the draft's, so a member's screen can tell sign-ups closed and a draft live.
      expect(soonRow).toMatchObject({ game_id: gameId, team_count: 2, game_status: 'READY', draft_status: 'running' });
      expect(upcoming.body.events.find((e: any) => e.id === later)).toMatchObject({ game_id: null, team_count: 0, end_datetime: null, game_status: null, draft_status: null });
      for (const e of upcoming.body.events) expect(Object.keys(e).sort()).toEqual(['draft_status', 'end_datetime', 'game_finished', 'game_id', 'game_status', 'id', 'name', 'signups_close_at', 'signups_open', 'start_datetime', 'team_count', 'type']);
      const past = await lister.api.get(`/api/clan/${clan}/events/?past=true`);
      expect(past.body.events.map((e: any) => e.id)).toEqual([oldB, oldA]);
      const all = await lister.api.get(`/api/clan/${clan}/events/`);
      expect(all.body.events.map((e: any) => e.id)).toEqual([oldB, oldA, live, soon, later]);
      expect((await lister.api.get(`/api/clan/${clan}/events/?past=maybe`)).status).toBe(400);
    });
  });

  describe('delete', () => {
    it("deletes the event with its teams, team members and game, with the spec message", async () => {
      const ev = await freshEvent();
      const ign = await roles.member.post('/api/user/igns', { ign: 'EvDelIgn' });
      expect(ign.status).toBe(200);
      const t1 = (await roles.owner.post(`/api/clan/${clanId}/events/${ev.id}/teams/`, { name: 'Red', color: '#ff0000' })).body.team.id;
      await roles.owner.post(`/api/clan/${clanId}/events/${ev.id}/teams/`, { name: 'Blue', color: '#0000ff' });
      expect((await roles.owner.post(`/api/clan/${clanId}/events/${ev.id}/teams/${t1}/members`, { osrs_ign_id: ign.body.ign.id, role: 'Leader' })).status).toBe(200);
      const gameId = await insertGame(suite.env, ev.id, clanId, 'READY');
      await sql(suite.env, "INSERT INTO board_squares (game_id, square_index, task_id, task_description, task_difficulty) VALUES (?, 1, NULL, 'Start', NULL)", [gameId]);
      await sql(suite.env, "INSERT INTO game_log (game_id, timestamp, team_name, team_color, message) VALUES (?, ?, 'Server', NULL, 'hello')", [gameId, new Date().toISOString()]);
      await sql(suite.env, "INSERT INTO team_states (game_id, team_id, current_position, revert_count, position_history) VALUES (?, ?, 1, 0, '[1]')", [gameId, t1]);

      const r = await roles.admin.del(`/api/clan/${clanId}/events/${ev.id}`);
      expect(r).toMatchObject({ status: 200, body: { message: `Event '${ev.name}' successfully deleted.` } });
      const count = async (table: string, col: string, id: number) => Number((await sql(suite.env, `SELECT COUNT(*) AS n FROM ${table} WHERE ${col} = ?`, [id]))[0].n);
      expect(await count('events', 'id', ev.id)).toBe(0);
      expect(await count('teams', 'event_id', ev.id)).toBe(0);
      expect(await count('team_members', 'event_id', ev.id)).toBe(0);
      expect(await count('games', 'event_id', ev.id)).toBe(0);
      for (const t of ['board_squares', 'game_log', 'team_states']) expect(await count(t, 'game_id', gameId), t).toBe(0);
      // The IGN itself stays linked to its user.
      expect((await roles.member.get('/api/user/me')).body.igns.map((i: any) => i.ign)).toContain('EvDelIgn');
      expect((await roles.owner.del(`/api/clan/${clanId}/events/${ev.id}`)).status).toBe(404);
    });
  });

  describe('bad input never answers 5xx', () => {
    it('answers 4xx to a sweep of odd bodies and queries', async () => {
      const ev = await freshEvent();
      const bodies: unknown[] = [
        {}, { name: null }, { name: {} }, { name: ['a'] }, { name: 'x'.repeat(100_000), start_datetime: iso(DAY) },
        { name: 'x', start_datetime: 123 }, { name: 'x', start_datetime: {} }, { name: 'x', start_datetime: '9999-12-31T23:59:59.999999999Z', end_datetime: '0000-01-01T00:00' },
        { name: 'x', start_datetime: iso(DAY), end_datetime: [] }, { name: 'x', start_datetime: iso(DAY), type: null },
      ];
      for (const b of bodies) {
        for (const r of [await roles.owner.post(`/api/clan/${clanId}/events/`, b), await roles.owner.put(`/api/clan/${clanId}/events/${ev.id}`, b)]) {
          expect(r.status, JSON.stringify(b).slice(0, 80)).toBeGreaterThanOrEqual(400);
          expect(r.status).toBeLessThan(500);
        }
      }
      for (const q of ['past=', 'past=1', 'past=TRUE', 'past=true&past=false']) {
        const r = await roles.owner.get(`/api/clan/${clanId}/events/?${q}`);
        expect(r.status, q).toBeLessThan(500);
      }
    });
  });
});
