import { expect } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { ApiClient } from './api';
import type { ClientToServerEvents, ServerToClientEvents } from '../../contract/socket';
import type { DraftState } from '../../contract/signup';

/**
 * Captains' draft test support (docs/server.md §16): a clan with two captains, four players and
 * an outsider, sign-ups made through the sign-up route, and socket clients that hold the
 * draft as the draft room does.
 */

/** One person of a draft cast: their client, user id and IGN id. */
export interface DraftPerson {
  api: ApiClient;
  userId: number;
  ignId: number;
  ign: string;
}

/** A clan, one event, and its people; `players` scores are 10, 40, 30 and none. */
export interface DraftCast {
  clanId: number;
  eventId: number;
  owner: DraftPerson;
  captain2: DraftPerson;
  players: DraftPerson[];
  member: DraftPerson;
  outsider: ApiClient;
  /** Sign-up ids by IGN. */
  signup: Record<string, number>;
  /** The event's draft path, /api/clan/{clanId}/events/{eventId}/draft. */
  path: string;
}

/** The scores of the four players' sign-ups, in order. */
const PLAYER_SCORES = [10, 40, 30, null] as const;

/**
 * Signs each person up for the event through the sign-up route (docs/server.md §16), with their
 * own IGN, then gives the scores as a manager (`PUT .../signups/{id}`); answers the ids in order.
 */
async function signUp(owner: ApiClient, clanId: number, eventId: number, rows: { person: DraftPerson; score: number | null; wantsLeader: boolean }[]): Promise<number[]> {
  const base = `/api/clan/${clanId}/events/${eventId}/signups`;
  const ids: number[] = [];
  for (const r of rows) {
    const made = await r.person.api.post(base, { osrs_ign_id: r.person.ignId, wants_leader: r.wantsLeader, note: '' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.signup.id as number;
    if (r.score !== null) {
      const scored = await owner.put(`${base}/${id}`, { score: r.score });
      expect(scored.status, JSON.stringify(scored.body)).toBe(200);
    }
    ids.push(id);
  }
  return ids;
}

/**
 * Makes a DraftCast on the server at `url` under `tag` (names stay unique per suite): the owner
 * (captain one, IGN `C1{tag}`), captain two (`C2{tag}`), four players (`P1{tag}`..`P4{tag}`), a
 * member who did not sign up and an outsider; an event with sign-ups open; and the sign-ups of
 * both captains and the players (PLAYER_SCORES), made through the API (signUp).
 */
export async function draftCast(url: string, tag: string): Promise<DraftCast> {
  const person = async (name: string, ign: string, setup: Record<string, unknown>): Promise<DraftPerson & { me: any }> => {
    const api = new ApiClient(url);
    const me = await api.onboard(`${name}-${tag}`, [ign], setup);
    return { api, userId: me.id, ignId: me.igns[0].id, ign, me };
  };
  const owner = await person('draft-owner', `C1${tag}`, { role: 'Owner', clan_name: `Draft Clan ${tag}` });
  const clanId = owner.me.clan_memberships_list[0].clan_id as number;
  const join = { role: 'Member', clan_id: clanId };
  const captain2 = await person('draft-cap2', `C2${tag}`, join);
  const players: DraftPerson[] = [];
  for (let i = 1; i <= 4; i += 1) players.push(await person(`draft-p${i}`, `P${i}${tag}`, join));
  const member = await person('draft-member', `M${tag}`, join);
  const outsider = new ApiClient(url);
  await outsider.onboard(`draft-outsider-${tag}`, [`O${tag}`]);
  const ev = await owner.api.post(`/api/clan/${clanId}/events/`, { name: `Draft ${tag}`, start_datetime: '2031-06-01T18:00Z', signups_open: true });
  expect(ev.status, JSON.stringify(ev.body)).toBe(200);
  const eventId = ev.body.event.id as number;
  const people = [owner, captain2, ...players];
  const scores = [null, null, ...PLAYER_SCORES];
  const ids = await signUp(owner.api, clanId, eventId, people.map((p, i) => ({ person: p, score: scores[i], wantsLeader: i < 2 })));
  const signup = Object.fromEntries(people.map((p, i) => [p.ign, ids[i]]));
  return { clanId, eventId, owner, captain2, players, member, outsider, signup, path: `/api/clan/${clanId}/events/${eventId}/draft` };
}

type DraftSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Got = { event: 'draft_state'; state: DraftState } | { event: 'action_error'; message: string };

/** A socket client in a draft room: every draft_state and action_error it received, and the last state. */
export class DraftWatcher {
  readonly got: Got[] = [];
  state: DraftState | null = null;
  private waiters: { test: (g: Got) => boolean; resolve: (g: Got) => void }[] = [];

  constructor(readonly socket: DraftSocket, readonly name: string) {
    socket.on('draft_state', (state) => this.receive({ event: 'draft_state', state }));
    socket.on('action_error', ({ message }) => this.receive({ event: 'action_error', message }));
  }

  private receive(g: Got): void {
    this.got.push(g);
    if (g.event === 'draft_state') this.state = g.state;
    this.waiters = this.waiters.filter((w) => {
      if (!w.test(g)) return true;
      w.resolve(g);
      return false;
    });
  }

  /** The first message from `since` on passing `test`; rejects after `ms`. */
  next(test: (g: Got) => boolean, ms = 5000, since = this.got.length): Promise<Got> {
    const already = this.got.slice(since).find(test);
    if (already) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name}: nothing matching within ${ms} ms; got ${JSON.stringify(this.got.slice(since))}`)), ms);
      this.waiters.push({ test, resolve: (g) => (clearTimeout(timer), resolve(g)) });
    });
  }

  /** The first draft_state from now on passing `test`. */
  async stateWhere(test: (s: DraftState) => boolean, ms = 5000, since = this.got.length): Promise<DraftState> {
    const g = await this.next((x) => x.event === 'draft_state' && test(x.state), ms, since);
    return (g as { state: DraftState }).state;
  }

  /** join_draft, and the answer: the current state, or the action_error text. */
  async join(eventId: number): Promise<DraftState | string> {
    const since = this.got.length;
    this.socket.emit('join_draft', { event_id: eventId });
    const g = await this.next(() => true, 5000, since);
    return g.event === 'draft_state' ? g.state : g.message;
  }

  /**
   * Sends draft_pick; answers the action_error text, or null once a state shows the pick (of
   * `signupId`, for team `teamId` when given: a state of someone else's pick of that player does not count).
   */
  async pick(eventId: number, signupId: number, teamId?: number): Promise<string | null> {
    const since = this.got.length;
    this.socket.emit('draft_pick', { event_id: eventId, signup_id: signupId });
    const mine = (s: DraftState) => s.picks.some((p) => p.signup_id === signupId && (teamId === undefined || p.team_id === teamId));
    const g = await this.next((x) => x.event === 'action_error' || (x.event === 'draft_state' && mine(x.state)), 5000, since);
    return g.event === 'action_error' ? g.message : null;
  }

  close(): void {
    this.socket.disconnect();
  }
}

/** Connects a DraftWatcher with `api`'s session cookie (or none). */
export async function draftWatcher(url: string, name: string, api?: ApiClient): Promise<DraftWatcher> {
  const cookie = api ? [...api.cookies].map(([k, v]) => `${k}=${v}`).join('; ') : undefined;
  const socket: DraftSocket = connectSocket(url, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false, extraHeaders: cookie ? { cookie } : {} });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
  });
  return new DraftWatcher(socket, name);
}
