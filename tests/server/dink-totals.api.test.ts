import { describe, it, expect } from 'vitest';
import { backends, startServer } from '../support/server';
import { stored } from '../support/liveSocket';
import { FAST, dink, fixture, fresh, png, recentPosts, useDinkSuite } from './dinkSupport';

/**
 * Team totals counted from Dink posts (docs/server.md §17 'Progress and Dink totals') over real
 * HTTP and sockets, on both databases: LOOT sums the matching quantities with each player's
 * share, posts that add without reaching are `counted`, the post that reaches makes one
 * submission (source dink, the total and shares as evidence) that waits for a referee without
 * auto-approve; distinct counts each name once and auto-approves with a screenshot; the same post
 * is never counted twice (also when posts arrive at once); progress starts at 0 on arrival and is
 * kept by another server process on the same database.
 */
describe.each(backends())('Dink team totals (%s)', (backend) => {
  const dk = useDinkSuite(backend, 'totals');
  const { suite, dinkPath, dinkGame, outcome, ruleHere, submissions, stateOf, roll } = dk;

  /** A proof game with Iron Bob on team 1 (OwnerA leads it), its Dink link, the owner's socket joined, and team 1 rolled onto a task square. */
  async function totalGame(opts: { auto?: boolean } = {}) {
    const made = await dinkGame({ auto: opts.auto });
    expect(await roll(made.w, made.game)).toBeNull();
    return made;
  }

  /** A LOOT post of `quantity` × `item` by `player` (OwnerA posts under its own account hash). */
  const loot = (item: string, quantity: number, player = 'Iron Bob') => ({
    ...fresh(fixture('LOOT'), player),
    ...(player === 'Iron Bob' ? {} : { dinkAccountHash: `hash-of-${player}-${backend}` }),
    extra: { items: [{ id: 12934, quantity, priceEach: 1, name: item }, { id: 526, quantity: 1, priceEach: 1, name: 'Bones' }], source: 'Zulrah', category: 'NPC', killCount: 10 },
  });
  /** A COLLECTION post of `item` by Iron Bob. */
  const collection = (item: string) => ({ ...fresh(fixture('COLLECTION')), extra: { ...fixture('COLLECTION').extra, itemName: item } });

  it('LOOT sums the matching quantities with each share; counted until reached; the reaching post makes one pending submission with the total as evidence', async () => {
    const { game, url } = await totalGame();
    await ruleHere(game, { type: 'LOOT', names: ["Zulrah's scales"], team_total: 500 });
    const before = (await stored(dk.cast, game)).version;
    const first = loot("Zulrah's scales", 300);
    const shot = await png();
    expect(await outcome(game, url, first, shot)).toBe('counted');
    const after = await stored(dk.cast, game);
    expect(after.version).toBeGreaterThan(before);
    expect(after.team_states.find((t) => t.team_id === game.team1)!.progress).toMatchObject({ have: 300, need: 500, unit: 'items', by: [{ ign: 'Iron Bob', amount: 300 }], errors: [] });
    // The same post (JSON and image bytes) again is a duplicate and adds nothing; a post of other items does not match.
    expect(await outcome(game, url, first, shot)).toBe('duplicate');
    expect(await outcome(game, url, loot('Dragon bones', 900))).toBe('no_match');
    expect((await stateOf(game)).progress!.have).toBe(300);
    expect(await outcome(game, url, loot("zulrah's SCALES", 150, 'OwnerA'))).toBe('counted');
    expect((await stateOf(game)).progress!.by).toEqual([{ ign: 'Iron Bob', amount: 300 }, { ign: 'OwnerA', amount: 150 }]);
    expect(await outcome(game, url, loot("Zulrah's scales", 60, 'OwnerA'))).toBe('submitted');
    const [made] = await submissions(game);
    expect(made).toMatchObject({
      status: 'pending', auto: false, source: 'dink', screenshot: true,
      evidence: { type: 'LOOT', summary: "Zulrah's scales x510 (Iron Bob 300, OwnerA 210)" },
    });
    const state = await stateOf(game);
    expect(state.task_state).toBe('submitted');
    expect(state.progress).toMatchObject({ have: 510, need: 500 });
    // Sent: posts no longer count for this square.
    expect(await outcome(game, url, loot("Zulrah's scales", 5))).toBe('no_task');
    expect((await submissions(game)).length).toBe(1);
    const posts = await recentPosts(dk.cast.owner, dinkPath(game));
    expect(posts.filter((p) => p.outcome === 'counted').length).toBe(2);
  });

  it('distinct counts each name once ("any three of these five"); auto-approve with a screenshot approves the reaching post at once, live', async () => {
    const { game, url, w } = await totalGame({ auto: true });
    await ruleHere(game, { type: 'COLLECTION', names: ['Tanzanite fang', 'Magic fang', 'Serpentine visage', 'Pet snakeling', 'Jar of swamp'], team_total: 3, distinct: true });
    expect(await outcome(game, url, collection('Tanzanite fang'), await png())).toBe('counted');
    // A name already counted is still listed `counted` but adds 0.
    expect(await outcome(game, url, collection('tanzanite fang'))).toBe('counted');
    expect((await stateOf(game)).progress).toMatchObject({ have: 1, need: 3, unit: 'items' });
    expect(await outcome(game, url, collection('Magic fang'))).toBe('counted');
    const mark = w.got.length;
    expect(await outcome(game, url, collection('Jar of swamp'))).toBe('approved');
    await w.next((r) => r.event === 'game_state_update' && r.payload.game_state.team_states?.some((t: { team_id: number; task_state: string; progress?: { have: number } | null }) =>
      t.team_id === game.team1 && t.task_state === 'approved' && t.progress?.have === 3), 5000, mark);
    const [approved] = await submissions(game);
    // The screenshot is the last one among the counted posts (the first post's).
    expect(approved).toMatchObject({ status: 'approved', auto: true, reviewer: null, source: 'dink', screenshot: true, evidence: { type: 'COLLECTION', summary: expect.stringMatching(/ x3 \(Iron Bob 3\)$/) } });
    const g = await stored(dk.cast, game);
    expect(g.log_entries.map((l) => l.message)).toContain(`Approved automatically from Dink: ${approved.evidence!.summary}.`);
    expect(await roll(w, game)).toBeNull();
  });

  it('posts sent at once are each counted once: the total is their exact sum, and a repeated post never adds twice', async () => {
    const { game, url } = await totalGame();
    await ruleHere(game, { type: 'LOOT', names: ['Coins'], team_total: 1_000_000 });
    const posts = Array.from({ length: 8 }, (_, i) => loot('Coins', 100 + i));
    const same = loot('Coins', 5000);
    const answers = await Promise.all([...posts, same, same, same].map((p) => dink(url, p)));
    expect(answers.map((a) => a.status)).toEqual(Array(11).fill(204));
    const want = posts.reduce((sum, p) => sum + p.extra.items[0].quantity, 0) + 5000;
    const deadline = Date.now() + 15_000;
    while ((await recentPosts(dk.cast.owner, dinkPath(game))).length < 11) {
      if (Date.now() > deadline) throw new Error('posts were not all recorded');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await stateOf(game)).progress).toMatchObject({ have: want, by: [{ ign: 'Iron Bob', amount: want }] });
  });

  it("a total changed while the team stands on its square: the count follows the task's new target", async () => {
    const { game, url } = await totalGame();
    await ruleHere(game, { type: 'LOOT', names: ['Coins'], team_total: 500 });
    expect(await outcome(game, url, loot('Coins', 300))).toBe('counted');
    expect((await stateOf(game)).progress).toMatchObject({ have: 300, need: 500 });
    await ruleHere(game, { type: 'LOOT', names: ['Coins'], team_total: 1000 });
    // 600 passes the old 500 but not the new 1,000: counted, no submission.
    expect(await outcome(game, url, loot('Coins', 300))).toBe('counted');
    expect((await stateOf(game)).progress).toMatchObject({ have: 600, need: 1000, unit: 'items' });
    expect(await submissions(game)).toEqual([]);
  });

  it('progress starts at 0 on arrival on a team-total square, and another server process on the same database keeps it and counts on', async () => {
    const { game, url, w } = await totalGame();
    // Every task of this board becomes a team total, then the team rolls onto one.
    const board = (await stored(dk.cast, game)).board_squares.filter((s) => s.task_id !== null);
    const here = (await stateOf(game)).current_position;
    for (const s of board.filter((b) => b.square_index > here).slice(0, 12)) {
      const r = await dk.cast.owner.put(`/api/clan/${dk.cast.clanId}/tasks/${s.task_id}`, { description: s.task_description, difficulty: s.task_difficulty, auto_rule: { type: 'LOOT', names: ['Coins'], team_total: 1000 } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    // Proof is required: approve the first square's task by hand so the Leader may roll on.
    const form = new FormData();
    form.append('team_id', String(game.team1));
    form.append('image', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'proof.png');
    const sent = await dk.bob.call('POST', `${game.path}/submissions`, form);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect((await dk.cast.owner.put(`/api/clan/${dk.cast.clanId}/submissions/${sent.body.submission.id}/review`, { decision: 'approve' })).status).toBe(200);
    expect(await roll(w, game)).toBeNull();
    const arrived = await stateOf(game);
    const square = (await stored(dk.cast, game)).board_squares.find((s) => s.square_index === arrived.current_position)!;
    if (square.task_id === null) {
      expect(arrived.progress).toBeNull();
      return;
    }
    expect(arrived.progress).toMatchObject({ have: 0, need: 1000, unit: 'items', by: [], errors: [] });
    expect(await outcome(game, url, loot('Coins', 400))).toBe('counted');
    const other = await startServer({ ...suite.env, UPLOAD_DIR: dk.uploads, ...FAST });
    try {
      const read = await dk.cast.owner.get(game.path);
      expect(read.body.game.team_states.find((t: { team_id: number }) => t.team_id === game.team1).progress).toMatchObject({ have: 400 });
      const otherUrl = url.replace(suite.url, other.url);
      const r = await dink(otherUrl, loot('Coins', 100));
      expect(r.status).toBe(204);
      const deadline = Date.now() + 10_000;
      while ((await stateOf(game)).progress!.have !== 500) {
        if (Date.now() > deadline) throw new Error('the other process never counted the post');
        await new Promise((res) => setTimeout(res, 50));
      }
    } finally {
      await other.stop();
    }
  });
});
