import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as v from 'valibot';
import { backends, type TestServer } from '../support/server';
import { useServerSuite } from '../support/suite';
import { ApiClient } from '../support/api';
import { autoSplit, countsToSettings } from '../../contract/game';
import { GameSchema, PublicGameSchema, type Game, type LogEntry } from '../../contract/gameApi';
import { GameProgressSchema } from '../../contract/socket';
import { castOf, connect, watchersOf, LEADER_ONLY, newGame, noReverts, sleep, stored, turns, useTwoProcessCast, type Cast, type Watcher } from '../support/liveSocket';

/**
 * The live socket with real clients against a real server process (docs/server.md §5,
 * §6; docs/game-rules.md §6, §11 game roles, 7 "Live socket"): spectators
 * and members joining, rolls and reverts by Leaders reaching every client alike, refusals that
 * change nothing, 50 simultaneous rolls applied exactly once, the revert allowance, a client that
 * reconnects catching up, the broadcasts of REST changes, and — with TEST_REDIS_URL and
 * TEST_DATABASE_URL — two server processes sharing PostgreSQL and Redis.
 */

/**
 * These suites fire bursts of rolls to test ordering and exactly-once application, not the
 * limits of docs/server.md §8 (tests/server/abuse.socket.test.ts does): their servers
 * allow more rolls a second (ROLLS_PER_SOCKET, ROLLS_PER_USER), and more joins, since a client
 * that sees versions arrive out of order from two processes joins again to resync.
 */
const BURSTS = { ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000', JOINS_PER_SOCKET: '1000', JOINS_PER_ADDRESS: '1000' };

describe.each(backends())('live socket (%s)', (backend) => {
  const suite = useServerSuite(backend, { BOARD_SEED: '6006', ...BURSTS });
  let cast: Cast;
  const { open, watcher } = watchersOf(() => suite.url);

  beforeAll(async () => {
    cast = await castOf(suite.url, backend);
  });

  afterAll(async () => {
    for (const w of open) w.close();
  });

  it('a spectator receives the public game on join; members get revert counts and their own user_teams', async () => {
    const game = await newGame(cast);
    const anon = await watcher('anon');
    const outsider = await watcher('outsider', cast.outsider);
    const member = await watcher('member', cast.member);
    for (const w of [anon, outsider]) {
      const held = await w.join(game.gameId);
      const raw = w.got.find((g) => g.event === 'game_state_update')!.payload as { game_state: Record<string, unknown> };
      expect(raw.game_state).not.toHaveProperty('user_teams');
      for (const t of raw.game_state.team_states as Record<string, unknown>[]) expect(t).not.toHaveProperty('revert_count');
      const parsed = v.parse(PublicGameSchema, held);
      expect(parsed.id).toBe(game.gameId);
      expect(parsed.board_squares).toHaveLength(225);
      expect(parsed.status).toBe('in-progress');
      expect(parsed.team_states.map((t) => t.current_position)).toEqual([1, 1]);
    }
    const full = v.parse(GameSchema, await member.join(game.gameId));
    expect(full.user_teams).toEqual([expect.objectContaining({ id: game.team1, osrs_ign_id: cast.ign.member, role: 'Member', player_ign: 'PlainMember' })]);
    expect(full.team_states.every((t) => t.revert_count === 0)).toBe(true);
    expect(full).toEqual(await stored(cast, game).then((g) => ({ ...g, user_teams: full.user_teams })));
  });

  it('refuses a missing game, a PENDING game to outsiders, and bad payloads, and stays usable', async () => {
    const anon = await watcher('anon-bad');
    let since = anon.got.length;
    anon.socket.emit('join_game', { game_id: 987654 });
    expect(await anon.errorWithin(3000, since)).toBe('Game not found.');
    for (const bad of [null, 'x', { game_id: 'abc' }, { game_id: -1 }, { game_id: 1.5 }, { game_id: 2 ** 40 }, [1, 2]]) {
      await sleep(210); // within the 5 join_game a second a socket may send (docs/server.md §8)
      since = anon.got.length;
      (anon.socket.emit as (ev: string, p: unknown) => void)('join_game', bad);
      const msg = await anon.errorWithin(3000, since);
      expect(msg, JSON.stringify(bad)).toMatch(/^Invalid join_game payload: /);
    }
    since = anon.got.length;
    (anon.socket.emit as (ev: string, p: unknown) => void)('roll_dice', { game_id: 1 });
    expect(await anon.errorWithin(3000, since)).toMatch(/^Invalid roll_dice payload: /);
    const ready = await newGame(cast, { start: false });
    // A game whose event has no team is PENDING: not public yet.
    const ev = await cast.owner.post(`/api/clan/${cast.clanId}/events/`, { name: 'No teams', start_datetime: '2031-06-01T18:00Z' });
    const g = await cast.owner.post(`/api/clan/${cast.clanId}/events/${ev.body.event.id}/game/`, { board_size: 25, num_snakes: 0, num_ladders: 0, max_reverts_allowed: 3, ...countsToSettings(autoSplit(25)) });
    expect(g.status).toBe(200);
    await sleep(1000);
    since = anon.got.length;
    anon.socket.emit('join_game', { game_id: g.body.game.id });
    expect(await anon.errorWithin(3000, since)).toBe('Game not found.');
    const member = await watcher('member-pending', cast.member);
    expect((await member.join(g.body.game.id)).status).toBe('PENDING');
    // Still connected and served after all that.
    expect((await anon.join(ready.gameId)).status).toBe('READY');
  });

  it("a Leader's roll reaches every client in the room with the same state, persisted", async () => {
    const game = await newGame(cast);
    const leader = await watcher('leader', cast.owner);
    const member = await watcher('member', cast.member);
    const outsider = await watcher('outsider', cast.outsider);
    const anon = await watcher('anon');
    const before = await stored(cast, game);
    for (const w of [leader, member, outsider, anon]) await w.join(game.gameId);
    const marks = [leader, member, outsider, anon].map((w) => w.got.length);
    leader.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
    const states = await Promise.all([leader, member, outsider, anon].map((w) => w.version(before.version + 1)));
    const after = await stored(cast, game);
    expect(after.version).toBe(before.version + 1);
    const red = after.team_states.find((t) => t.team_id === game.team1)!;
    expect(red.position_history).toHaveLength(2);
    expect(red.current_position).toBeGreaterThanOrEqual(2);
    expect(red.current_position).toBeLessThanOrEqual(7);
    // Members hold revert counts, spectators do not; otherwise all hold the same state.
    for (const s of states.slice(0, 2)) expect(s.team_states).toEqual(after.team_states);
    for (const s of states.slice(2)) expect(noReverts(s.team_states)).toEqual(noReverts(after.team_states));
    for (const [i, w] of [leader, member, outsider, anon].entries()) {
      const update = w.got.slice(marks[i]).find((g) => g.event === 'game_state_update')!;
      const progress = v.parse(GameProgressSchema, update.payload.game_state);
      expect(Object.keys(progress).sort()).toEqual(['id', 'last_move', 'status', 'team_states', 'version', 'winners']);
      // The roll moment: the die, the squares walked and where it ended, for every audience.
      const to = red.current_position;
      expect(progress.last_move).toEqual({ team_id: game.team1, die: to - 1, from: 1, landing: to, to, via: null, path: Array.from({ length: to }, (_, k) => k + 1) });
      const log = await w.next((g) => g.event === 'new_log_entry', 3000, marks[i]);
      expect(log.event === 'new_log_entry' && log.payload.log_entry).toMatchObject({
        team_name: 'Red Team', team_color: '#aa0000', message: `Red Team rolled a ${red.current_position - 1} and moved from 1 to ${red.current_position}.`,
      });
    }
    expect(after.log_entries[0].message).toMatch(/^Red Team rolled a \d and moved from 1 to \d\.$/);
    expect(leader.count('action_error', marks[0])).toBe(0);
  });

  it("a non-leader's roll, someone else's IGN, a signed-out roll and a roll while paused get action_error and change nothing", async () => {
    const game = await newGame(cast);
    const member = await watcher('member', cast.member);
    const leader = await watcher('leader', cast.owner);
    const leader2 = await watcher('leader2', cast.leader2);
    const anon = await watcher('anon');
    const watch = await watcher('watch');
    for (const w of [member, leader, leader2, anon, watch]) await w.join(game.gameId);
    const before = await stored(cast, game);
    const spectatorMark = watch.got.length;
    const refusals: [Watcher, 'roll_dice' | 'revert_roll', object, string][] = [
      [member, 'roll_dice', { team_id: game.team1, performer_ign_id: cast.ign.member }, LEADER_ONLY],
      [member, 'revert_roll', { team_id: game.team1, performer_ign_id: cast.ign.member }, LEADER_ONLY],
      [member, 'roll_dice', { team_id: game.team1, performer_ign_id: cast.ign.ownerA }, LEADER_ONLY],
      [leader, 'roll_dice', { team_id: game.team2, performer_ign_id: cast.ign.ownerA }, LEADER_ONLY],
      [leader, 'roll_dice', { team_id: game.team2, performer_ign_id: cast.ign.leader2 }, LEADER_ONLY],
      [leader, 'roll_dice', { team_id: game.team1, performer_ign_id: cast.ign.ownerB }, LEADER_ONLY],
      [leader2, 'roll_dice', { team_id: game.team1, performer_ign_id: cast.ign.leader2 }, LEADER_ONLY],
      [anon, 'roll_dice', { team_id: game.team1, performer_ign_id: cast.ign.ownerA }, 'You must be signed in to play.'],
      [anon, 'revert_roll', { team_id: game.team1, performer_ign_id: cast.ign.ownerA }, 'You must be signed in to play.'],
      [leader, 'revert_roll', { team_id: game.team1, performer_ign_id: cast.ign.ownerA }, 'Red Team is on square 1: there is no move to revert.'],
    ];
    for (const [w, event, body, message] of refusals) {
      const since = w.got.length;
      w.socket.emit(event, { game_id: game.gameId, ...body } as never);
      expect(await w.errorWithin(3000, since), `${w.name} ${event} ${JSON.stringify(body)}`).toBe(message);
    }
    expect(await cast.owner.put(`${game.path}/status`, { status: 'paused' }).then((r) => r.status)).toBe(200);
    const paused = await watch.next((g) => g.event === 'game_state_update', 3000, spectatorMark);
    expect(paused.event === 'game_state_update' && paused.payload.game_state.status).toBe('paused');
    await watch.next((g) => g.event === 'new_log_entry' && g.payload.log_entry.message === 'Game paused.', 3000, spectatorMark);
    const pausedGame = await stored(cast, game);
    for (const w of [leader, leader2]) {
      const since = w.got.length;
      const ign = w === leader ? cast.ign.ownerA : cast.ign.leader2;
      w.socket.emit('roll_dice', { game_id: game.gameId, team_id: w === leader ? game.team1 : game.team2, performer_ign_id: ign });
      expect(await w.errorWithin(3000, since)).toBe('Game is paused. No actions available.');
    }
    await sleep(200);
    const after = await stored(cast, game);
    expect(after).toEqual(pausedGame);
    expect(after.team_states).toEqual(before.team_states);
    expect(after.version).toBe(before.version + 1);
    // The spectator saw only the pause: one state update and its log entry.
    expect(watch.count('game_state_update', spectatorMark)).toBe(1);
    expect(watch.count('new_log_entry', spectatorMark)).toBe(1);
    expect(watch.count('action_error', spectatorMark)).toBe(0);
  });

  it('50 rolls fired at once by two Leaders of different teams are all applied exactly once', async () => {
    const game = await newGame(cast);
    const leader = await watcher('leader', cast.owner);
    const leader2 = await watcher('leader2', cast.leader2);
    const anon = await watcher('anon');
    for (const w of [leader, leader2, anon]) await w.join(game.gameId);
    const before = await stored(cast, game);
    expect(turns(before)).toBe(0);
    const mark = anon.got.length;
    for (let i = 0; i < 25; i += 1) {
      leader.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
      leader2.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team2, performer_ign_id: cast.ign.leader2 });
    }
    const seen = await anon.version(before.version + 50, 20_000);
    await sleep(200);
    const after = await stored(cast, game);
    expect(after.status).toBe('in-progress');
    expect(turns(after)).toBe(50);
    expect(after.version - before.version).toBe(50);
    for (const t of after.team_states) expect(t.position_history).toHaveLength(26);
    expect(leader.count('action_error') + leader2.count('action_error')).toBe(0);
    // The spectator got each version exactly once, in order, and holds the stored state.
    const versions = anon.got.slice(mark).filter((g) => g.event === 'game_state_update').map((g) => g.payload.game_state.version);
    expect(versions).toEqual(Array.from({ length: 50 }, (_, i) => before.version + 1 + i));
    expect(noReverts(seen.team_states)).toEqual(noReverts(after.team_states));
    for (const g of anon.got.slice(mark)) {
      if (g.event === 'game_state_update') for (const t of g.payload.game_state.team_states) expect(t).not.toHaveProperty('revert_count');
    }
    expect(after.log_entries.filter((l) => / rolled a \d and moved from /.test(l.message))).toHaveLength(50);
    // Every history is a chain of legal moves: each step 1..6 forward, or down a snake to 2..7.
    for (const t of after.team_states) {
      for (let i = 1; i < t.position_history.length; i += 1) {
        const [a, b] = [t.position_history[i - 1], t.position_history[i]];
        expect(b - a >= 1 && b - a <= 6 ? true : b >= 2 && b <= 7 && a >= 207).toBe(true);
      }
    }
  });

  it('rolls follow ladders and snakes, and a roll reaching the last square finishes the game for everyone', async () => {
    const game = await newGame(cast, { size: 25, noWin: false, start: false });
    // Every first roll (1 + 1..6) lands on a ladder; snakes wait on 18-21.
    const board = { ladders_config: [[2, 12], [3, 13], [4, 14], [5, 15], [6, 16], [7, 17]], snakes_config: [[18, 8], [19, 9], [20, 10], [21, 11]] };
    expect((await cast.owner.put(`${game.path}/board`, board)).status).toBe(200);
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    const leader = await watcher('leader', cast.owner);
    const leader2 = await watcher('leader2', cast.leader2);
    const anon = await watcher('anon');
    for (const w of [leader, leader2, anon]) await w.join(game.gameId);
    const mark = anon.got.length;
    const ladders = new Map(board.ladders_config.map(([a, b]) => [a, b]));
    const snakes = new Map(board.snakes_config.map(([a, b]) => [a, b]));
    const names = ['Red Team', 'Blue Team'];
    let rolls = 0;
    while (anon.held!.status !== 'finished') {
      expect(rolls).toBeLessThan(300);
      const side = rolls % 2;
      const [w, teamId, ignId] = side === 0 ? [leader, game.team1, cast.ign.ownerA] : [leader2, game.team2, cast.ign.leader2];
      const from = anon.held!.team_states.find((t) => t.team_id === teamId)!.current_position;
      const logMark = anon.got.length;
      w.socket.emit('roll_dice', { game_id: game.gameId, team_id: teamId, performer_ign_id: ignId });
      const state = await anon.version(anon.held!.version + 1);
      rolls += 1;
      const to = state.team_states.find((t) => t.team_id === teamId)!.current_position;
      const won = to === 25;
      const expected: string[] = [];
      const rolled = new RegExp(`^${names[side]} rolled a ([1-6]) and moved from ${from} to (\\d+)\\.$`);
      const entries = async (count: number) => {
        const out: LogEntry[] = [];
        for (let i = 0; i < count; i += 1) {
          const r = await anon.next((g) => g.event === 'new_log_entry' && !out.includes(g.payload.log_entry), 3000, logMark);
          if (r.event === 'new_log_entry') out.push(r.payload.log_entry);
        }
        return out;
      };
      const [first] = await entries(1);
      const m = rolled.exec(first.message);
      expect(m, first.message).not.toBeNull();
      const landing = Number(m![2]);
      expect(landing).toBe(Math.min(from + Number(m![1]), 25));
      if (ladders.has(landing)) expected.push(`Ladder! ${names[side]} climbed from ${landing} to ${ladders.get(landing)}.`);
      if (snakes.has(landing)) expected.push(`Snake! ${names[side]} slid down from ${landing} to ${snakes.get(landing)}.`);
      if (won) expected.push(`${names[side]} reached square 25 and won the game!`);
      const rest = await entries(1 + expected.length);
      expect(rest.slice(1).map((e) => e.message)).toEqual(expected);
      expect(to).toBe(ladders.get(landing) ?? snakes.get(landing) ?? landing);
      if (won) {
        expect(rest[rest.length - 1]).toMatchObject({ team_name: 'Server', team_color: null });
        expect(state.winners).toEqual([{ name: names[side], color: side === 0 ? '#aa0000' : '#0000aa' }]);
      }
    }
    expect(anon.got.slice(mark).some((g) => g.event === 'new_log_entry' && g.payload.log_entry.message.startsWith('Ladder! '))).toBe(true);
    // Everyone holds the finished game; nothing more can be played.
    const final = await stored(cast, game);
    expect(final.status).toBe('finished');
    expect(leader.held!.status).toBe('finished');
    expect(leader.held!.winners).toEqual(final.winners);
    for (const [w, teamId, ignId, event] of [[leader, game.team1, cast.ign.ownerA, 'roll_dice'], [leader2, game.team2, cast.ign.leader2, 'revert_roll']] as const) {
      const since = w.got.length;
      w.socket.emit(event, { game_id: game.gameId, team_id: teamId, performer_ign_id: ignId });
      expect(await w.errorWithin(3000, since)).toBe('Game is finished. No actions available.');
    }
    await sleep(100);
    expect((await stored(cast, game)).version).toBe(final.version);
  });

  it('a revert beyond the allowance is refused, and reverts go back one move', async () => {
    const game = await newGame(cast, { reverts: 1 });
    const leader = await watcher('leader', cast.owner);
    const member = await watcher('member', cast.member);
    await leader.join(game.gameId);
    await member.join(game.gameId);
    const v0 = (await stored(cast, game)).version;
    const act = (event: 'roll_dice' | 'revert_roll') => leader.socket.emit(event, { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
    act('roll_dice');
    await member.version(v0 + 1);
    act('roll_dice');
    const two = await member.version(v0 + 2) as Game;
    const red2 = two.team_states.find((t) => t.team_id === game.team1)!;
    const revertMark = member.got.length;
    act('revert_roll');
    const three = await member.version(v0 + 3) as Game;
    const red3 = three.team_states.find((t) => t.team_id === game.team1)!;
    expect(red3.position_history).toEqual(red2.position_history.slice(0, -1));
    expect(red3.current_position).toBe(red2.position_history[1]);
    expect(red3.revert_count).toBe(1);
    const revertLog = await member.next((g) => g.event === 'new_log_entry' && /reverted/.test(g.payload.log_entry.message), 3000, revertMark);
    expect(revertLog.event === 'new_log_entry' && revertLog.payload.log_entry.message)
      .toBe(`Red Team reverted its last move from ${red2.current_position} back to ${red3.current_position} (1 of 1 reverts used).`);
    const since = leader.got.length;
    act('revert_roll');
    expect(await leader.errorWithin(3000, since)).toBe('No reverts left: Red Team has used 1 of 1 reverts allowed.');
    await sleep(100);
    const after = await stored(cast, game);
    expect(after.version).toBe(v0 + 3);
    expect(after.team_states.find((t) => t.team_id === game.team1)).toEqual(red3);
  });

  it('a client that disconnects during three rolls and joins again shows the same state as the others', async () => {
    const game = await newGame(cast);
    const leader = await watcher('leader', cast.owner);
    const stay = await watcher('stay');
    const away = await watcher('away');
    for (const w of [leader, stay, away]) await w.join(game.gameId);
    const leader2 = await watcher('leader2', cast.leader2);
    await leader2.join(game.gameId);
    const v0 = stay.held!.version;
    const rolls: [Watcher, number, number][] = [[leader, game.team1, cast.ign.ownerA], [leader2, game.team2, cast.ign.leader2], [leader, game.team1, cast.ign.ownerA]];
    for (const [i, [w, teamId, ignId]] of rolls.entries()) {
      w.socket.emit('roll_dice', { game_id: game.gameId, team_id: teamId, performer_ign_id: ignId });
      if (i === 0) away.socket.disconnect(); // while the first roll is in flight
      await stay.version(v0 + i + 1);
    }
    expect(away.held!.version).toBeLessThan(v0 + 3);
    // The client connects again and sends join_game again, as the liveGame chart does.
    away.socket.connect();
    await new Promise<void>((resolve) => away.socket.once('connect', () => resolve()));
    const rejoined = await away.join(game.gameId);
    expect(rejoined.version).toBe(v0 + 3);
    // Same state; the log a client shows is the joined list plus the live entries, newest first.
    expect({ ...rejoined, log_entries: [], team_states: noReverts(rejoined.team_states) })
      .toEqual({ ...stay.held, log_entries: [], team_states: noReverts(stay.held!.team_states) });
    expect(away.log).toEqual(stay.log);
    expect(away.log.slice(0, 3).map((l) => l.message)).toEqual(expect.arrayContaining([expect.stringMatching(/ rolled a \d and moved from /)]));
    expect(turns(rejoined)).toBe(3);
  });

  it('REST changes are broadcast: a board change as the full game per audience, a team change as team_update, tasks_reordered for managers only', async () => {
    const game = await newGame(cast);
    const member = await watcher('member', cast.member);
    const anon = await watcher('anon');
    const owner = await watcher('owner', cast.owner);
    for (const w of [member, anon, owner]) await w.join(game.gameId);
    let marks = [member.got.length, anon.got.length];
    expect((await cast.owner.put(`${game.path}/board`, { snakes_config: [[200, 20]], ladders_config: [[30, 90]] })).status).toBe(200);
    const full = await Promise.all([member, anon].map((w, i) => w.next((g) => g.event === 'game_state_update', 3000, marks[i])));
    const memberState = (full[0].payload as { game_state: Record<string, unknown> }).game_state;
    const anonState = (full[1].payload as { game_state: Record<string, unknown> }).game_state;
    expect(memberState).not.toHaveProperty('user_teams');
    expect((memberState.team_states as Record<string, unknown>[])[0]).toHaveProperty('revert_count', 0);
    expect(anonState).not.toHaveProperty('user_teams');
    expect((anonState.team_states as Record<string, unknown>[])[0]).not.toHaveProperty('revert_count');
    expect(memberState.board_connections).toEqual([{ type: 'snake', start: 200, end: 20 }, { type: 'ladder', start: 30, end: 90 }]);
    expect(anonState.board_connections).toEqual(memberState.board_connections);

    marks = [member.got.length, anon.got.length];
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/events/${game.eventId}/teams/${game.team2}`, { name: 'Navy Team', color: '#000088' })).status).toBe(200);
    const [mt, at] = await Promise.all([member, anon].map((w, i) => w.next((g) => g.event === 'team_update', 3000, marks[i])));
    expect(mt.payload).toEqual({ updated_team_data: { id: game.team2, name: 'Navy Team', color: '#000088', members: [{ osrs_ign_id: cast.ign.leader2, osrs_ign: 'LeaderTwo', role: 'Leader' }] } });
    expect(at.payload).toEqual({ updated_team_data: { id: game.team2, name: 'Navy Team', color: '#000088', members: [] } });

    marks = [member.got.length, anon.got.length];
    let since = member.got.length;
    member.socket.emit('tasks_reordered', { game_id: game.gameId, message: 'moved' });
    expect(await member.errorWithin(3000, since)).toBe('Permission denied. You are not authorized to manage this clan.');
    since = anon.got.length;
    anon.socket.emit('tasks_reordered', { game_id: game.gameId, message: 'moved' });
    expect(await anon.errorWithin(3000, since)).toBe('Permission denied. You are not authorized to manage this clan.');
    owner.socket.emit('tasks_reordered', { game_id: game.gameId, message: 'moved' });
    const [mr, ar] = await Promise.all([member, anon].map((w, i) => w.next((g) => g.event === 'tasks_reordered', 3000, marks[i])));
    expect(mr.event === 'tasks_reordered' && mr.payload.board_data.board_squares).toHaveLength(225);
    expect(ar.event === 'tasks_reordered' && ar.payload.game_state).not.toHaveProperty('user_teams');
    expect(member.count('tasks_reordered', marks[0])).toBe(1);
  });

  it('leave_game stops the updates', async () => {
    const game = await newGame(cast);
    const leader = await watcher('leader', cast.owner);
    const anon = await watcher('anon');
    await leader.join(game.gameId);
    await anon.join(game.gameId);
    anon.socket.emit('leave_game', { game_id: game.gameId });
    await sleep(100);
    const mark = anon.got.length;
    const v0 = leader.held!.version;
    leader.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
    await leader.version(v0 + 1);
    await sleep(200);
    expect(anon.got.length).toBe(mark);
  });
});

describe('two server processes sharing PostgreSQL and Redis', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const skip = !redisUrl || !databaseUrl;
  if (skip) {
    it.skip('skipped: set TEST_REDIS_URL (e.g. redis://127.0.0.1:6379) and TEST_DATABASE_URL to run it', () => {});
    return;
  }

  const site = useTwoProcessCast(redisUrl, BURSTS, 'redis');
  let a: TestServer;
  let b: TestServer;
  let cast: Cast;
  const open = site.open;

  beforeAll(() => {
    ({ a, b, cast } = site);
  });

  it('a roll made through one process reaches a spectator on the other', async () => {
    const game = await newGame(cast);
    const leader = await connect(a.url, 'leader@a', cast.owner);
    const spectator = await connect(b.url, 'spectator@b');
    const member = await connect(b.url, 'member@b', cast.member);
    open.push(leader, spectator, member);
    for (const w of [leader, spectator, member]) await w.join(game.gameId);
    const v0 = spectator.held!.version;
    const rollMark = spectator.got.length;
    leader.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
    const seen = await spectator.version(v0 + 1);
    const memberSeen = await member.version(v0 + 1) as Game;
    const after = await stored(cast, game);
    expect(noReverts(seen.team_states)).toEqual(noReverts(after.team_states));
    expect(memberSeen.team_states).toEqual(after.team_states);
    await spectator.next((g) => g.event === 'new_log_entry' && /^Red Team rolled a \d/.test(g.payload.log_entry.message), 5000, rollMark);
    // A REST change made through process b reaches a spectator connected to process a.
    const watcherA = await connect(a.url, 'spectator@a');
    open.push(watcherA);
    await watcherA.join(game.gameId);
    const mark = watcherA.got.length;
    const bClient = new ApiClient(b.url);
    bClient.cookies = cast.owner.cookies;
    expect((await bClient.put(`${game.path}/status`, { status: 'paused' })).status).toBe(200);
    await watcherA.next((g) => g.event === 'game_state_update' && g.payload.game_state.status === 'paused', 5000, mark);
  });

  it('rolls of one team fired at both processes at once are each applied exactly once (the version guard)', async () => {
    const game = await newGame(cast);
    // The same Leader on both processes rolls the same team: without the conditional update on
    // games.version, two processes would read one history and one of the rolls would be lost.
    const onA = await connect(a.url, 'leader1@a', cast.owner);
    const onB = await connect(b.url, 'leader1@b', cast.owner);
    const l2 = await connect(b.url, 'leader2@b', cast.leader2);
    const spectator = await connect(a.url, 'spectator@a');
    open.push(onA, onB, l2, spectator);
    for (const w of [onA, onB, l2, spectator]) await w.join(game.gameId);
    const before = await stored(cast, game);
    for (let i = 0; i < 15; i += 1) {
      onA.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
      onB.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team1, performer_ign_id: cast.ign.ownerA });
      if (i % 3 === 0) l2.socket.emit('roll_dice', { game_id: game.gameId, team_id: game.team2, performer_ign_id: cast.ign.leader2 });
    }
    await spectator.version(before.version + 35, 30_000);
    await sleep(300);
    const after = await stored(cast, game);
    expect(onA.count('action_error') + onB.count('action_error') + l2.count('action_error')).toBe(0);
    expect(turns(after)).toBe(35);
    expect(after.version - before.version).toBe(35);
    expect(after.team_states.map((t) => t.position_history.length)).toEqual([31, 6]);
    expect(noReverts(spectator.held!.team_states)).toEqual(noReverts(after.team_states));
  });
});
