import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { parse } from 'csv-parse/sync';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { ApiClient } from '../support/api';
import { directSql, importTasksCsv } from '../support/fixtures';
import { autoSplit } from '../../contract/game';
import { RELIEF_MESSAGES, reliefIndex } from '../../contract/game/relief';
import { act, castOf, connect, newGame, stored, useTwoProcessCast, watchersOf, type Cast, type TestGame, type Watcher } from '../support/liveSocket';

/**
 * Stuck-tile relief over the live socket (docs/server.md §15) against a real server on each
 * database: the refusals in their order (Leader, off, too early, limit, none left), the substitute
 * drawn verifiably from the game's seed and shown as the team's task_override until it leaves the
 * square, proof sent for it, and two requests at once giving one substitute.
 */

const BURSTS = { ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000', BOARD_SEED: '77' };
const HOUR_MS = 3_600_000;

/** Sends request_relief from `w`; the action_error text, or null once the game's version moved. */
async function ask(w: Watcher, game: TestGame, teamId: number): Promise<string | null> {
  const mark = w.got.length;
  const version = w.held?.version ?? 0;
  w.socket.emit('request_relief', { game_id: game.gameId, team_id: teamId });
  const r = await w.next((x) => x.event === 'action_error' || (x.event === 'game_state_update' && x.payload.game_state.version > version), 5000, mark);
  return r.event === 'action_error' ? r.payload.message : null;
}

/** Moves the team's arrival on its square `hours` into the past (database `env`), as if it had waited that long. */
async function backdate(env: Record<string, string>, game: TestGame, teamId: number, hours: number): Promise<void> {
  await directSql(env, 'UPDATE team_states SET square_since = ? WHERE game_id = ? AND team_id = ?', [new Date(Date.now() - hours * HOUR_MS).toISOString(), game.gameId, teamId]);
}

/**
 * The substitute the contract's draw gives for relief `k` of the team on its square now: the
 * clan's same-tier tasks not on the board (nor in `exclude`), by id, indexed with reliefIndex from
 * the game's stored seed, as anyone can once the seed is revealed.
 */
async function expectedSubstitute(env: Record<string, string>, cast: Cast, game: TestGame, teamId: number, k: number, exclude: string[] = []): Promise<string> {
  const g = await stored(cast, game);
  const team = g.team_states.find((t) => t.team_id === teamId)!;
  const difficulty = team.task_override?.difficulty ?? g.board_squares[team.current_position - 1].task_difficulty;
  const onBoard = new Set(g.board_squares.map((s) => s.task_id));
  const tasks: { id: number; description: string; difficulty: string }[] = (await cast.owner.get(`/api/clan/${cast.clanId}/tasks`)).body.tasks;
  const candidates = tasks.filter((t) => t.difficulty === difficulty && !onBoard.has(t.id) && !exclude.includes(t.description)).sort((a, b) => a.id - b.id);
  const [{ dice_seed: seed }] = await directSql(env, 'SELECT dice_seed FROM games WHERE id = ?', [game.gameId]);
  return candidates[await reliefIndex(seed, game.gameId, teamId, k, candidates.length)].description;
}

describe.each(backends())('relief (%s)', (backend) => {
  const suite = useServerSuite(backend, BURSTS);
  let cast: Cast;
  const { open, watcher } = watchersOf(() => suite.url);

  beforeAll(async () => {
    cast = await castOf(suite.url, `relief-${backend}`);
    await importTasksCsv(cast.owner, cast.clanId);
  });

  afterAll(() => {
    for (const w of open) w.close();
  });

  it('refuses in order, then gives a verifiable same-tier substitute that proof applies to, up to the limit', async () => {
    const game = await newGame(cast, { size: 25, noWin: false, proof: true });
    const leader = await watcher('leader', cast.owner);
    const member = await watcher('member', cast.member);
    const spectator = await watcher('spectator');
    await leader.join(game.gameId, true);
    await member.join(game.gameId, true);
    await spectator.join(game.gameId, false);

    // Off by default; a member is refused before that.
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const rolled = (await stored(cast, game)).version;
    await Promise.all([member, spectator].map((w) => w.version(rolled)));
    expect(await ask(member, game, game.team1)).toBe(RELIEF_MESSAGES.leaderOnly);
    expect(await ask(leader, game, game.team1)).toBe(RELIEF_MESSAGES.off);
    expect((await cast.owner.put(`${game.path}/rules`, { relief_after_hours: 6, relief_max_per_team: 2 })).status).toBe(200);
    await leader.version((await stored(cast, game)).version);
    expect(await ask(leader, game, game.team1)).toBe(RELIEF_MESSAGES.tooEarly(6));

    // Six hours on the square: the first substitute.
    const before = await stored(cast, game);
    const team = before.team_states.find((t) => t.team_id === game.team1)!;
    expect(team.task_state).toBe('open');
    const square = before.board_squares[team.current_position - 1];
    await backdate(suite.env, game, game.team1, 7);
    const first = await expectedSubstitute(suite.env, cast, game, game.team1, 1);
    const mark = spectator.got.length;
    expect(await ask(leader, game, game.team1)).toBeNull();
    const after = await stored(cast, game);
    expect(after.version).toBe(before.version + 1);
    const relieved = after.team_states.find((t) => t.team_id === game.team1)!;
    expect(relieved.task_override).toEqual({ description: first, difficulty: square.task_difficulty });
    // The game counts the team's new tasks (the screen says what is left of them).
    expect(relieved.relief_count).toBe(1);
    expect(after.team_states.find((t) => t.team_id === game.team2)?.relief_count).toBe(0);
    expect(relieved.task_state).toBe('open');
    expect(first).not.toBe(square.task_description);
    expect(after.log_entries[0].message).toBe(RELIEF_MESSAGES.log('Red Team', team.current_position, 7, first));
    // The spectator saw it live: the team state with the substitute, and the log entry.
    const seen = await spectator.next((r) => r.event === 'new_log_entry' && r.payload.log_entry.message.includes('was stuck'), 5000, mark);
    expect(seen.event === 'new_log_entry' && seen.payload.log_entry.message).toBe(after.log_entries[0].message);
    expect(spectator.held?.team_states.find((t) => t.team_id === game.team1)?.task_override).toEqual({ description: first, difficulty: square.task_difficulty });
    expect(spectator.held?.team_states.find((t) => t.team_id === game.team1)?.relief_count).toBe(1);

    // The history keeps the draw for 'Verify dice': the candidates in id order and the task drawn, which the seed picks.
    const history = (await cast.owner.get(`/api/public/game/${game.gameId}/history`)).body;
    expect(history.reliefs).toHaveLength(1);
    const draw = history.reliefs[0];
    expect(draw).toMatchObject({ team_id: game.team1, k: 1, square_index: team.current_position, description: first });
    expect([...draw.candidate_ids].sort((a: number, b: number) => a - b)).toEqual(draw.candidate_ids);
    const [{ dice_seed: drawSeed }] = await directSql(suite.env, 'SELECT dice_seed FROM games WHERE id = ?', [game.gameId]);
    expect(draw.candidate_ids[await reliefIndex(drawSeed, game.gameId, game.team1, 1, draw.candidate_ids.length)]).toBe(draw.task_id);
    // ... and the history's CSV has it as a row of kind relief, with the square and the task drawn.
    const csvRows = parse(await (await fetch(`${suite.url}/api/public/game/${game.gameId}/history.csv`)).text(), { columns: true }) as Record<string, string>[];
    expect(csvRows.filter((r) => r.kind === 'relief')).toEqual([
      { at: draw.at, team: 'Red Team', kind: 'relief', roll_index: '', die: '', from: String(team.current_position), landing: '', to: String(team.current_position), via: first },
    ]);

    // The new task starts now: asking again at once is too early.
    expect(await ask(leader, game, game.team1)).toBe(RELIEF_MESSAGES.tooEarly(6));

    // Proof sent now is proof of the substitute.
    const form = new FormData();
    form.append('team_id', String(game.team1));
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c83232' } }).png().toBuffer();
    form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'proof.png');
    const sent = await cast.member.call('POST', `${game.path}/submissions`, form);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.submission.task_description).toBe(first);
    // A pending proof is not an open task: no relief for it.
    expect(await ask(leader, game, game.team1)).toBe(RELIEF_MESSAGES.noTask);
    const review = await cast.owner.put(`${game.path}/submissions/${sent.body.submission.id}/review`, { decision: 'deny', reason: 'Blurry.' });
    expect(review.status, JSON.stringify(review.body)).toBe(200);

    // Denied counts as stuck too: the second substitute, never the first again.
    await backdate(suite.env, game, game.team1, 30);
    const second = await expectedSubstitute(suite.env, cast, game, game.team1, 2, [first]);
    expect(await ask(leader, game, game.team1)).toBeNull();
    const twice = (await stored(cast, game)).team_states.find((t) => t.team_id === game.team1)!;
    expect(twice.task_override?.description).toBe(second);
    expect(second).not.toBe(first);

    // The limit.
    await backdate(suite.env, game, game.team1, 30);
    expect(await ask(leader, game, game.team1)).toBe(RELIEF_MESSAGES.limit('Red Team'));

    // Leaving the square ends the substitute.
    expect((await cast.owner.put(`${game.path}/rules`, { proof_required: false })).status).toBe(200);
    await leader.version((await stored(cast, game)).version);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    expect((await stored(cast, game)).team_states.find((t) => t.team_id === game.team1)!.task_override).toBeNull();
  });

  it('two requests at once give one substitute', async () => {
    const game = await newGame(cast, { size: 25, noWin: false, proof: true });
    expect((await cast.owner.put(`${game.path}/rules`, { relief_after_hours: 1 })).status).toBe(200);
    const leader = await watcher('leader2', cast.leader2);
    await leader.join(game.gameId, true);
    expect(await act(leader, 'roll_dice', game, game.team2, cast.ign.leader2)).toBeNull();
    await backdate(suite.env, game, game.team2, 2);
    const before = await stored(cast, game);
    const other = await watcher('leader2 again', cast.leader2);
    await other.join(game.gameId, true);
    const answers = await Promise.all([ask(leader, game, game.team2), ask(other, game, game.team2)]);
    const after = await stored(cast, game);
    expect(after.version).toBe(before.version + 1);
    expect(after.log_entries.filter((e) => e.message.includes('was stuck'))).toHaveLength(1);
    expect(answers.filter((a) => a === null).length).toBeGreaterThanOrEqual(1);
    expect(answers.filter((a) => a !== null)).toEqual(answers.filter((a) => a !== null).map(() => RELIEF_MESSAGES.tooEarly(1)));
    // One draw kept; a reset starts a new round without it.
    const historyPath = `/api/public/game/${game.gameId}/history`;
    expect((await cast.owner.get(historyPath)).body.reliefs).toHaveLength(1);
    expect((await cast.owner.put(`${game.path}/reset`)).status).toBe(200);
    expect((await cast.owner.get(historyPath)).body.reliefs).toEqual([]);
  });

  it('says when no other task of the tier is left in the pool', async () => {
    // A clan whose pool holds exactly the board's tasks.
    const owner = new ApiClient(suite.url);
    const me = await owner.onboard(`relief-small-${backend}`, ['SmallOwner'], { role: 'Owner', clan_name: `Small Pool ${backend}` });
    const clanId = me.clan_memberships_list[0].clan_id as number;
    const counts = autoSplit(25);
    for (const [tier, n] of [['EASY', counts.easy], ['MEDIUM', counts.medium], ['HARD', counts.hard], ['ELITE', counts.elite], ['MASTER', counts.master]] as const) {
      for (let i = 0; i < n; i += 1) expect((await owner.post(`/api/clan/${clanId}/tasks`, { description: `${tier} task ${i + 1}`, difficulty: tier })).status).toBe(200);
    }
    const small: Cast = { ...cast, clanId, owner, ign: { ...cast.ign, ownerA: me.igns[0].id } };
    // Team 2's Leader and the member are not in this clan: team 1 alone plays here, led by SmallOwner.
    const ev = await owner.post(`/api/clan/${clanId}/events/`, { name: 'Small', start_datetime: '2031-06-01T18:00Z' });
    const eventId = ev.body.event.id as number;
    const t = await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/`, { name: 'Solo Team', color: '#00aa00' });
    expect((await owner.post(`/api/clan/${clanId}/events/${eventId}/teams/${t.body.team.id}/members`, { osrs_ign_id: small.ign.ownerA, role: 'Leader' })).status).toBe(200);
    const g = await owner.post(`/api/clan/${clanId}/events/${eventId}/game/`, { board_size: 25, num_snakes: 0, num_ladders: 0, max_reverts_allowed: 1, num_easy_tasks: counts.easy, num_medium_tasks: counts.medium, num_hard_tasks: counts.hard, num_elite_tasks: counts.elite, num_master_tasks: counts.master, proof_required: true, relief_after_hours: 1 });
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    const path = `/api/clan/${clanId}/events/${eventId}/game/${g.body.game.id}`;
    expect((await owner.put(`${path}/status`, { status: 'in-progress' })).status).toBe(200);
    const game: TestGame = { eventId, gameId: g.body.game.id, team1: t.body.team.id, team2: t.body.team.id, path };
    const leader = await watcher('solo leader', owner);
    await leader.join(game.gameId, true);
    expect(await act(leader, 'roll_dice', game, game.team1, small.ign.ownerA)).toBeNull();
    await backdate(suite.env, game, game.team1, 2);
    const state = (await owner.get(path)).body.game;
    const tier = state.board_squares[state.team_states[0].current_position - 1].task_difficulty;
    expect(await ask(leader, game, game.team1)).toBe(RELIEF_MESSAGES.noneLeft(tier));
  });
});


describe('relief across two server processes sharing PostgreSQL and Redis', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl || !process.env.TEST_DATABASE_URL) {
    it.skip('skipped: set TEST_REDIS_URL and TEST_DATABASE_URL to run it', () => {});
    return;
  }
  const site = useTwoProcessCast(redisUrl, BURSTS, 'relief-redis');

  it('the Leader asks through both processes at once: one substitute, the one the seed draws, live for a spectator on the other process', async () => {
    const { a, b, cast, open } = site;
    await importTasksCsv(cast.owner, cast.clanId);
    const game = await newGame(cast, { size: 25, noWin: false, proof: true });
    expect((await cast.owner.put(`${game.path}/rules`, { relief_after_hours: 1 })).status).toBe(200);
    const onA = await connect(a.url, 'leader2@a', cast.leader2);
    const onB = await connect(b.url, 'leader2@b', cast.leader2);
    const spectator = await connect(b.url, 'spectator@b');
    open.push(onA, onB, spectator);
    for (const w of [onA, onB, spectator]) await w.join(game.gameId, true);
    expect(await act(onA, 'roll_dice', game, game.team2, cast.ign.leader2)).toBeNull();
    await backdate(site.db.env, game, game.team2, 2);
    const expected = await expectedSubstitute(site.db.env, cast, game, game.team2, 1);
    const before = await stored(cast, game);

    const answers = await Promise.all([ask(onA, game, game.team2), ask(onB, game, game.team2)]);
    const after = await stored(cast, game);
    expect(after.version).toBe(before.version + 1);
    expect(after.log_entries.filter((e) => e.message.includes('was stuck'))).toHaveLength(1);
    expect(answers.filter((x) => x === null).length).toBeGreaterThanOrEqual(1);
    expect(answers.filter((x) => x !== null)).toEqual(answers.filter((x) => x !== null).map(() => RELIEF_MESSAGES.tooEarly(1)));
    const team = after.team_states.find((t) => t.team_id === game.team2)!;
    expect(team.task_override?.description).toBe(expected);
    // The spectator on process b holds the same substitute.
    const seen = await spectator.version(after.version);
    expect(seen.team_states.find((t) => t.team_id === game.team2)?.task_override?.description).toBe(expected);
  });
});
