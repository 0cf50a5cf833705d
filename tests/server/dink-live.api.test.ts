import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as v from 'valibot';
import { act, connect, newGame, useTwoProcessCast, type TestGame } from '../support/liveSocket';
import { ApiClient } from '../support/api';
import { DinkRecentAnswerSchema } from '../../contract/dink';
import { dink, fillPool, fixture, fresh, png } from './dinkSupport';

/**
 * Dink across two server processes sharing PostgreSQL and Redis (docs/server.md §13, §7): a post
 * taken by process a approves the task and updates the Leader's screen on process b live (the
 * Leader then rolls there); the 60-a-minute limit of a token is one budget for both processes;
 * the same post sent to both at once is taken once.
 */
describe('Dink across two server processes sharing PostgreSQL and Redis', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!redisUrl || !databaseUrl) {
    it.skip('skipped: set TEST_REDIS_URL and TEST_DATABASE_URL to run it', () => {});
    return;
  }
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-dink-live-'));
  const site = useTwoProcessCast(redisUrl, { UPLOAD_DIR: uploads, ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000', JOINS_PER_SOCKET: '1000', JOINS_PER_ADDRESS: '1000' }, 'dink-live');
  let bobIgn: number;

  beforeAll(async () => {
    const { a, cast } = site;
    await fillPool(cast.owner, cast.clanId);
    const bob = new ApiClient(a.url);
    bobIgn = (await bob.onboard('dink-live-bob', ['Iron Bob'], { role: 'Member', clan_id: cast.clanId })).igns[0].id;
  });
  afterAll(() => fs.rmSync(uploads, { recursive: true, force: true }));

  /** A proof game with Iron Bob on team 1 and its Dink link (auto-approve on); the link's URL on process `base`. */
  async function dinkGame(): Promise<{ game: TestGame; token: string }> {
    const { cast } = site;
    const game = await newGame(cast, { proof: true });
    expect((await cast.owner.post(`/api/clan/${cast.clanId}/events/${game.eventId}/teams/${game.team1}/members`, { osrs_ign_id: bobIgn, role: 'Member' })).status).toBe(200);
    const p = `/api/clan/${cast.clanId}/events/${game.eventId}/dink`;
    expect((await cast.owner.post(p)).status).toBe(200);
    const on = await cast.owner.put(p, { auto_approve: true });
    return { game, token: (on.body.dink.url as string).split('/').pop()! };
  }
  const recent = async (game: TestGame) => v.parse(DinkRecentAnswerSchema, (await site.cast.owner.get(`/api/clan/${site.cast.clanId}/events/${game.eventId}/dink/recent`)).body).posts;

  it('a matching post with a screenshot to process a approves the task on the Leader\'s screen on process b, who then rolls there', async () => {
    const { a, b, cast, open } = site;
    const { game, token } = await dinkGame();
    const leader = await connect(b.url, 'leader@b', cast.owner);
    open.push(leader);
    await leader.join(game.gameId);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const g = (await cast.owner.get(game.path)).body.game;
    const at = g.team_states.find((t: { team_id: number }) => t.team_id === game.team1).current_position;
    const square = g.board_squares.find((s: { square_index: number }) => s.square_index === at);
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/tasks/${square.task_id}`, { description: square.task_description, difficulty: square.task_difficulty, auto_rule: { type: 'LOOT', names: ['Dragon warhammer'], min: null } })).status).toBe(200);

    const mark = leader.got.length;
    expect((await dink(`${a.url}/api/dink/${token}`, fresh(fixture('LOOT')), { bytes: await png() })).status).toBe(204);
    await leader.next((r) => r.event === 'game_state_update' && (r.payload.game_state.team_states ?? []).some((t: { team_id: number; task_state: string }) => t.team_id === game.team1 && t.task_state === 'approved'), 10_000, mark);
    await leader.next((r) => r.event === 'submission_update' && r.payload.submission.auto === true && r.payload.submission.status === 'approved', 10_000, mark);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
  });

  it('one budget of 60 posts a minute per token over both processes; the same post sent to both at once is taken once', async () => {
    const { a, b } = site;
    const { game, token } = await dinkGame();
    const same = fresh(fixture('QUEST'));
    const twice = await Promise.all([dink(`${a.url}/api/dink/${token}`, same), dink(`${b.url}/api/dink/${token}`, same)]);
    expect(twice.map((r) => r.status)).toEqual([204, 204]);
    const deadline = Date.now() + 10_000;
    while ((await recent(game)).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect((await recent(game)).map((p) => p.outcome).sort()).toEqual(['duplicate', 'no_task']);

    const burst = await Promise.all(Array.from({ length: 58 }, (_, i) => dink(`${(i % 2 ? a : b).url}/api/dink/${token}`, { type: 'QUEST', playerName: 'x', content: `burst ${i}` })));
    expect(burst.map((r) => r.status)).toEqual(Array(58).fill(204));
    expect((await dink(`${a.url}/api/dink/${token}`, { type: 'QUEST', playerName: 'x', content: 'over' })).status).toBe(429);
    expect((await dink(`${b.url}/api/dink/${token}`, { type: 'QUEST', playerName: 'x', content: 'over too' })).status).toBe(429);
  });
});
