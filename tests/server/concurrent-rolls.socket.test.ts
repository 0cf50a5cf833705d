import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import type { TestServer } from '../support/server';
import { useTwoProcesses } from '../support/suite';
import { castOf, connect, newGame, sleep, type Cast, type Watcher } from '../support/liveSocket';

/**
 * Legitimate play under the limits (docs/server.md §8), across two processes sharing PostgreSQL and
 * Redis: four Leader sockets (two Leaders, one socket on each process each) roll for 20 s at half
 * the per-socket and per-user limits, and a spectator must see every roll, none refused or lost.
 * Apart from the abuse floods (abuse.socket.test.ts): this file loads the machine no more than a
 * game does, and mostly waits, but bunched rolls would show as refusals, so it runs in the timed group.
 */
describe('concurrent rolls across two processes sharing PostgreSQL and Redis', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!redisUrl || !databaseUrl) {
    it.skip('skipped: set TEST_REDIS_URL and TEST_DATABASE_URL to run it', () => {});
    return;
  }

  const site = useTwoProcesses(redisUrl);
  let a: TestServer;
  let b: TestServer;
  let cast: Cast;
  const open: Watcher[] = [];
  const on = async (server: TestServer, name: string, api?: Cast['owner']) => {
    const w = await connect(server.url, name, api);
    open.push(w);
    return w;
  };

  beforeAll(async () => {
    ({ a, b } = site);
    cast = await castOf(a.url, 'rolls-redis');
  });

  afterEach(() => {
    for (const w of open.splice(0)) w.close();
  });

  it('20 s of concurrent rolls by four Leaders on both processes: no legitimate roll is refused or lost', async () => {
    const game = await newGame(cast);
    const leaders = [
      { team: game.team1, ign: cast.ign.ownerA, api: cast.owner },
      { team: game.team2, ign: cast.ign.leader2, api: cast.leader2 },
    ];
    // Each Leader rolls from a socket on each process every 400 ms: 2.5 rolls a second per socket
    // and 5 per user, half the limits of 5 and 10, so rolls that arrive bunched still fit.
    const players: { w: Watcher; team: number; ign: number }[] = [];
    for (const l of leaders) {
      for (const server of [a, b]) {
        const w = await on(server, `leader ${l.team}@${server.port}`, l.api);
        await w.join(game.gameId);
        players.push({ w, team: l.team, ign: l.ign });
      }
    }
    const spectator = await on(a, 'spectator@a');
    await spectator.join(game.gameId);
    const before = spectator.held!.version;
    const marks = players.map((p) => p.w.got.length);
    let sent = 0;
    // 20 s: 50 rounds of four rolls, 200 in all, through both processes' limits (windows of one
    // second, so twenty of them) and the game's row lock; a steady backlog would show too, as the
    // spectator's version falling behind.
    const end = performance.now() + 20_000;
    while (performance.now() < end) {
      for (const p of players) {
        p.w.socket.emit('roll_dice', { game_id: game.gameId, team_id: p.team, performer_ign_id: p.ign });
        sent += 1;
      }
      await sleep(400);
    }
    const refusedSoFar = () => players.flatMap((p, i) => p.w.got.slice(marks[i]).flatMap((g) => (g.event === 'action_error' ? [g.payload.message] : [])));
    // A refused roll never moves the version: say which refusal it was rather than only that the version stalled.
    await spectator.version(before + sent, 30_000).catch((err: Error) => {
      throw new Error(`${err.message}; refusals: ${JSON.stringify(refusedSoFar())}`);
    });
    await sleep(500);
    const refused = refusedSoFar();
    expect(refused).toEqual([]);
    expect(spectator.held!.version - before).toBe(sent);
    expect(sent).toBeGreaterThan(150);
  }, 60_000);
});
