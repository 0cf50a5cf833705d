import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { ApiClient } from '../support/api';
import type { LogEntry } from '../../contract/gameApi';
import { GameProgressSchema, isFullGame } from '../../contract/socket';
import { castOf, connect, newGame, stored, useTwoProcessCast, watchersOf, type Cast, type Received, type TestGame, type Watcher } from '../support/liveSocket';

/**
 * Compact sockets (docs/server.md §6): a socket that joins with `compact: true` gets one
 * `game_state_update` per roll, revert or status change, carrying that change's log entries as
 * `new_log_entries`, and no `new_log_entry` for them; sockets that do not ask get the two events
 * exactly as before; every other message reaches both alike. Real clients against a real server
 * process, on each database, and across two processes with Redis when both are set.
 */

const BURSTS = { ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000', JOINS_PER_SOCKET: '1000', JOINS_PER_ADDRESS: '1000' };

/** What a socket received after `since`, up to and including the first message passing `until`. */
function receivedUntil(w: Watcher, since: number, until: (r: Received) => boolean): Received[] {
  const after = w.got.slice(since);
  const end = after.findIndex(until);
  return end < 0 ? after : after.slice(0, end + 1);
}

/** The log entries a plain socket received as `new_log_entry` in `messages`. */
const plainEntries = (messages: Received[]): LogEntry[] => messages.flatMap((m) => (m.event === 'new_log_entry' ? [m.payload.log_entry] : []));

const isStatus = (status: string) => (r: Received) => r.event === 'game_state_update' && r.payload.game_state.status === status;

describe.each(backends())('compact sockets (%s)', (backend) => {
  const suite = useServerSuite(backend, { BOARD_SEED: '6006', ...BURSTS });
  let cast: Cast;
  const { open, watcher } = watchersOf(() => suite.url);

  beforeAll(async () => {
    cast = await castOf(suite.url, backend);
  });

  afterAll(() => {
    for (const w of open) w.close();
  });

  /** A game with a plain and a compact socket for members and for spectators, all joined. */
  async function audiences(game: TestGame) {
    const leader = await watcher('leader', cast.owner);
    const plainMember = await watcher('plain member', cast.member);
    const compactMember = await watcher('compact member', cast.member);
    const plainAnon = await watcher('plain anon');
    const compactAnon = await watcher('compact anon');
    await leader.join(game.gameId, true);
    await plainMember.join(game.gameId);
    await compactMember.join(game.gameId, true);
    await plainAnon.join(game.gameId, false);
    await compactAnon.join(game.gameId, true);
    return { leader, plain: [plainMember, plainAnon], compact: [compactMember, compactAnon] };
  }

  it('a roll, a revert and a pause reach a compact socket as one game_state_update each, with the entries plain sockets get as new_log_entry', async () => {
    const game = await newGame(cast, { reverts: 3 });
    const { leader, plain, compact } = await audiences(game);
    const all = [...plain, ...compact];
    const marks = all.map((w) => w.got.length);
    const before = await stored(cast, game);
    const action = { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA };
    leader.socket.emit('roll_dice', action);
    await Promise.all([leader, ...all].map((w) => w.version(before.version + 1)));
    leader.socket.emit('revert_roll', action);
    await Promise.all([leader, ...all].map((w) => w.version(before.version + 2)));
    // The pause comes through the API: every socket's messages up to its update are the roll's and the revert's.
    expect((await cast.owner.put(`${game.path}/status`, { status: 'paused' })).status).toBe(200);
    await Promise.all(all.map((w, i) => w.next(isStatus('paused'), 5000, marks[i])));
    // Plain sockets get each log entry once more after the update; wait for the pause's.
    await Promise.all(plain.map((w, i) => w.next((r) => r.event === 'new_log_entry' && /paused/i.test(r.payload.log_entry.message), 5000, marks[i])));

    const after = await stored(cast, game);
    const expected = after.log_entries.slice(0, 3).reverse();
    expect(expected.map((e) => e.message)).toEqual([
      expect.stringMatching(/^Red Team rolled a \d and moved from 1 to \d\.$/),
      expect.stringMatching(/revert/i),
      expect.stringMatching(/paused/i),
    ]);
    for (const [i, w] of plain.entries()) {
      const got = receivedUntil(w, marks[i], (r) => r.event === 'new_log_entry' && /paused/i.test(r.payload.log_entry.message));
      expect(got.map((r) => r.event), w.name).toEqual(['game_state_update', 'new_log_entry', 'game_state_update', 'new_log_entry', 'game_state_update', 'new_log_entry']);
      expect(plainEntries(got)).toEqual(expected);
      for (const r of got) if (r.event === 'game_state_update') expect(r.payload.game_state).not.toHaveProperty('new_log_entries');
    }
    for (const [i, w] of compact.entries()) {
      const got = receivedUntil(w, marks[plain.length + i], isStatus('paused'));
      expect(got.map((r) => r.event), w.name).toEqual(['game_state_update', 'game_state_update', 'game_state_update']);
      const updates = got.map((r) => v.parse(GameProgressSchema, r.event === 'game_state_update' && r.payload.game_state));
      expect(updates.map((u) => u.version)).toEqual([before.version + 1, before.version + 2, before.version + 3]);
      expect(updates.map((u) => u.new_log_entries)).toEqual(expected.map((entry) => [entry]));
      // The rest of the update is what a plain socket of the same audience got.
      const twin = plain[i];
      const twinUpdates = twin.got.slice(marks[i]).filter((r) => r.event === 'game_state_update').slice(0, 3);
      expect(updates.map(({ new_log_entries: _entries, ...rest }) => rest)).toEqual(twinUpdates.map((r) => r.event === 'game_state_update' && r.payload.game_state));
      // Its held log is the stored one, as a plain socket's is.
      expect(w.log.slice(0, 3)).toEqual(after.log_entries.slice(0, 3));
    }
    // Spectators still get no revert counts in the compact form.
    const anonUpdate = compact[1].got.slice(marks[3]).find((r) => r.event === 'game_state_update');
    expect(anonUpdate?.event === 'game_state_update' && anonUpdate.payload.game_state.team_states[0]).not.toHaveProperty('revert_count');
  });

  it('every other message (a board change, a team change) reaches compact sockets as it reaches plain ones', async () => {
    const game = await newGame(cast);
    const { plain, compact } = await audiences(game);
    const all = [...plain, ...compact];
    let marks = all.map((w) => w.got.length);
    expect((await cast.owner.put(`${game.path}/board`, { snakes_config: [[200, 20]], ladders_config: [[30, 90]] })).status).toBe(200);
    const full = await Promise.all(all.map((w, i) => w.next((r) => r.event === 'game_state_update', 5000, marks[i])));
    for (const r of full) expect(r.event === 'game_state_update' && isFullGame(r.payload.game_state)).toBe(true);
    expect(full[2].payload).toEqual(full[0].payload);
    expect(full[3].payload).toEqual(full[1].payload);

    marks = all.map((w) => w.got.length);
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/events/${game.eventId}/teams/${game.team2}`, { name: 'Teal Team', color: '#008888' })).status).toBe(200);
    const teams = await Promise.all(all.map((w, i) => w.next((r) => r.event === 'team_update', 5000, marks[i])));
    expect(teams[2].payload).toEqual(teams[0].payload);
    expect(teams[3].payload).toEqual(teams[1].payload);
  });

  it('joining again without compact gives the two events back; a compact that is not a boolean is refused', async () => {
    const game = await newGame(cast);
    const leader = await watcher('leader', cast.owner);
    const anon = await watcher('switching anon');
    await leader.join(game.gameId);
    await anon.join(game.gameId, true);
    await anon.join(game.gameId);
    const mark = anon.got.length;
    const v0 = anon.held!.version;
    leader.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
    await anon.next((r) => r.event === 'new_log_entry', 5000, mark);
    expect(anon.held!.version).toBe(v0 + 1);
    expect(anon.got.slice(mark).map((r) => r.event)).toEqual(['game_state_update', 'new_log_entry']);

    const since = anon.got.length;
    (anon.socket.emit as (ev: string, p: unknown) => void)('join_game', { game_id: game.gameId, compact: 'yes' });
    expect(await anon.errorWithin(3000, since)).toMatch(/^Invalid join_game payload: /);
  });
});

describe('compact sockets across two server processes sharing PostgreSQL and Redis', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!redisUrl || !databaseUrl) {
    it.skip('skipped: set TEST_REDIS_URL and TEST_DATABASE_URL to run it', () => {});
    return;
  }
  const site = useTwoProcessCast(redisUrl, BURSTS, 'compact-redis');

  it('a roll made through one process reaches a compact spectator on the other as one message', async () => {
    const { a, b, cast, open } = site;
    const game = await newGame(cast);
    const leader = await connect(a.url, 'leader@a', cast.owner);
    const spectator = await connect(b.url, 'compact spectator@b');
    open.push(leader, spectator);
    await leader.join(game.gameId, true);
    await spectator.join(game.gameId, true);
    const mark = spectator.got.length;
    leader.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
    const update = await spectator.next((r) => r.event === 'game_state_update', 5000, mark);
    const progress = v.parse(GameProgressSchema, update.event === 'game_state_update' && update.payload.game_state);
    expect(progress.new_log_entries?.map((e) => e.message)).toEqual([expect.stringMatching(/^Red Team rolled a \d/)]);
    // A status change through process b ends the roll's messages on a: nothing else came between.
    const bClient = new ApiClient(b.url);
    bClient.cookies = cast.owner.cookies;
    expect((await bClient.put(`${game.path}/status`, { status: 'paused' })).status).toBe(200);
    await spectator.next(isStatus('paused'), 5000, mark);
    expect(receivedUntil(spectator, mark, isStatus('paused')).map((r) => r.event)).toEqual(['game_state_update', 'game_state_update']);
  });
});
