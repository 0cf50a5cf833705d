import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import { backends, type Backend } from '../support/server';
import { useServerSuite, type ServerSuite } from '../support/suite';
import type { ApiClient } from '../support/api';
import { castOf, connect, newGame, type Cast, type TestGame, type Watcher } from '../support/liveSocket';
import type { ClientToServerEvents } from '../../contract/socket';

/**
 * docs/server.md §8: every event a client sends over the socket is limited like rolls, and a
 * flood of any of them, from one socket or many, leaves other users' HTTP calls within 0.5 s.
 * Guests of the clan (signed in, as a real flooder would be) send 1,500 of each client event at
 * once, first from one socket, then from five sockets of five Guests, while a member of the clan
 * calls GET /api/clan/{id}/events/ one call after another: the calls' 95th percentile must stay
 * under 500 ms, and every flooding socket must hear 'Too many requests. Slow down.'. On each
 * backend, and with TEST_DATABASE_URL and TEST_REDIS_URL on two processes sharing the limits.
 */

const TOO_MANY = 'Too many requests. Slow down.';
/** Events of each kind each flooding socket sends at once. */
const FLOOD = 1_500;
/** Flooding sockets of the second round, one per Guest. */
const FLOODERS = 5;

/** What the payloads name: the clan, a game in progress (teams, an IGN), its event. */
interface Targets {
  clanId: number;
  game: TestGame;
  ignId: number;
}

/**
 * A valid payload of every client event, each one reaching its handler's database work (the
 * Guest is refused only after it: not a Leader, not a manager, no draft). Typed against the
 * contract, so a client event added there does not compile until it is flooded here too.
 */
const PAYLOADS = {
  join_game: (t) => ({ game_id: t.game.gameId }),
  leave_game: (t) => ({ game_id: t.game.gameId }),
  roll_dice: (t) => ({ game_id: t.game.gameId, team_id: t.game.team1, performer_ign_id: t.ignId }),
  revert_roll: (t) => ({ game_id: t.game.gameId, team_id: t.game.team1, performer_ign_id: t.ignId }),
  request_relief: (t) => ({ game_id: t.game.gameId, team_id: t.game.team1 }),
  tasks_reordered: (t) => ({ game_id: t.game.gameId, message: '' }),
  join_reviews: (t) => ({ clan_id: t.clanId }),
  join_draft: (t) => ({ event_id: t.game.eventId }),
  leave_draft: (t) => ({ event_id: t.game.eventId }),
  draft_pick: (t) => ({ event_id: t.game.eventId, signup_id: 1 }),
} satisfies { [K in keyof ClientToServerEvents]: (t: Targets) => Parameters<ClientToServerEvents[K]>[0] };
const EVENTS = Object.keys(PAYLOADS) as (keyof ClientToServerEvents)[];

/** The 95th percentile of `values` (nearest rank). */
function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)];
}

/** How many TOO_MANY answers `w` got. */
const tooMany = (w: Watcher) => w.got.filter((g) => g.event === 'action_error' && g.payload.message === TOO_MANY).length;

/**
 * Times `api`'s GET `path`, one call after another, until `done()` holds and at least
 * `minSamples` calls and `minMs` have passed (or `maxMs`, after which the caller's assertions
 * say what was missing); answers each call's ms. Every call must answer 200.
 */
async function timeCallsUntil(api: ApiClient, path: string, done: () => boolean, opts: { minSamples: number; minMs: number; maxMs: number }): Promise<number[]> {
  const times: number[] = [];
  const start = performance.now();
  for (;;) {
    const elapsed = performance.now() - start;
    if (elapsed > opts.maxMs) break;
    if (times.length >= opts.minSamples && elapsed >= opts.minMs && done()) break;
    const t0 = performance.now();
    const r = await api.get(path);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    times.push(performance.now() - t0);
  }
  return times;
}

/**
 * The flood tests on `backend` (one process, or with `redisUrl` two of one site, the flooders
 * spread over both), under `name`; `tag` keeps the suite's user and clan names apart.
 */
function floodSuite(name: string, tag: string, backend: Backend, redisUrl?: string): void {
  describe(name, () => {
    const suite: ServerSuite = useServerSuite(backend, {}, redisUrl);
    let cast: Cast;
    let targets: Targets;
    const guests: ApiClient[] = [];
    const open: Watcher[] = [];

    beforeAll(async () => {
      cast = await castOf(suite.url, tag);
      for (let i = 0; i < FLOODERS; i += 1) {
        const guest = suite.client();
        const me = await guest.onboard(`flood-guest-${i}-${tag}`, [`FloodGuest${i}`], { role: 'Member', clan_id: cast.clanId });
        expect((await cast.owner.put(`/api/clan/${cast.clanId}/members/${me.id}/role`, { role: 'Guest' })).status).toBe(200);
        guests.push(guest);
      }
      targets = { clanId: cast.clanId, game: await newGame(cast), ignId: cast.ign.ownerA };
    });

    // All sockets come from 127.0.0.1, which may hold 100: close each round's.
    afterEach(() => {
      for (const w of open.splice(0)) w.close();
    });

    for (const event of EVENTS) {
      for (const sockets of [1, FLOODERS]) {
        it(`${FLOOD} ${event} at once from ${sockets === 1 ? 'one Guest socket' : `${sockets} Guests' sockets`}: others' calls p95 under 500 ms, the flooders told to slow down`, async () => {
          const flooders: Watcher[] = [];
          for (let i = 0; i < sockets; i += 1) {
            // With two processes, the flooders are spread over both.
            const url = i % 2 ? suite.urlB : suite.url;
            const w = await connect(url, `${event} flooder ${i}`, guests[i]);
            open.push(w);
            flooders.push(w);
          }
          const payload = PAYLOADS[event](targets);
          const floodStart = performance.now();
          for (let n = 0; n < FLOOD; n += 1) {
            for (const w of flooders) (w.socket.emit as (ev: string, p: unknown) => void)(event, payload);
          }
          // 0.4 s of calls from the flood's start: the server has refused all of a flood well within
          // it (the calls' p95 was 6-7 ms over 0.4 s as over 1 s, measured), so a longer window only
          // adds calls made after the flood, which would dilute the percentile.
          const times = await timeCallsUntil(cast.leader2, `/api/clan/${cast.clanId}/events/`, () => flooders.every((w) => tooMany(w) > 0), {
            minSamples: 20, minMs: 400, maxMs: 10_000,
          });
          const seconds = (performance.now() - floodStart) / 1000;
          expect(p95(times), `GET events/ ms during the flood: ${times.map(Math.round).join(' ')}`).toBeLessThan(500);
          for (const w of flooders) {
            expect(tooMany(w), `${w.name} was never told to slow down`).toBeGreaterThanOrEqual(1);
            // At most one TOO_MANY a second, and only the few within the limit were answered otherwise
            // (5 a second per socket; none at all for the events that answer nothing).
            expect(tooMany(w)).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
            expect(w.got.length - tooMany(w)).toBeLessThanOrEqual(5 * (Math.ceil(seconds) + 1));
          }
        });
      }
    }
  });
}

for (const backend of backends()) floodSuite(`every client event flooded (${backend})`, `fl-${backend}`, backend);

const redisUrl = process.env.TEST_REDIS_URL;
if (redisUrl && process.env.TEST_DATABASE_URL) floodSuite('every client event flooded over two processes sharing PostgreSQL and Redis', 'fl-redis', 'postgres', redisUrl);
