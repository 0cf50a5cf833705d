import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import * as v from 'valibot';
import fc from 'fast-check';
import { backends } from '../support/server';
import { ApiClient } from '../support/api';
import { directSql } from '../support/fixtures';
import { newGame, stored, type TestGame } from '../support/liveSocket';
import { AUTO_RULE_MESSAGES, DINK_MESSAGES, DINK_TYPES, DinkLinkAnswerSchema, type DinkPostUpdate, type DinkType } from '../../contract/dink';
import { PROOF_MESSAGES } from '../../contract/submission';
import { TaskAnswerSchema, TaskListAnswerSchema } from '../../contract/task';
import { dink, fixture, fresh, png, expectError, recentPosts, useDinkSuite } from './dinkSupport';

/**
 * Dink posts as task proof over real HTTP and real sockets (docs/server.md §13), on both
 * databases: the link (managers only, make, switch, rotate, revoke: the old URL 404 at once), the
 * receiver's refusals in the contract's order (404, 429, 400, 413) and its 204, every outcome
 * (duplicate, not_running, unknown_player, suspicious, no_task, no_match, submitted, approved),
 * recorded-shape fixtures of every Dink type (tests/fixtures/dink/) approving their task, the roll
 * gate opening on an automatic approval and staying shut on a pending one, the recent list and its
 * live `dink_post`, the rate limit, and auto rules in the task API and the CSV import. Across two
 * processes with Redis: dink-live.api.test.ts.
 */



describe.each(backends())('Dink proof (%s)', (backend) => {
  const dk = useDinkSuite(backend, 'dink');
  const { suite, watcher, dinkPath, dinkGame, outcome, ruleHere, submissions, stateOf, roll } = dk;

  /** The event's recent posts. */
  const recent = (game: TestGame) => recentPosts(dk.cast.owner, dinkPath(game));

  it('the link: managers only; made with a 32-byte base64url token; auto_approve switched; rotate and revoke end the old URL at once', async () => {
    const game = await newGame(dk.cast, { start: false });
    const p = dinkPath(game);
    expectError(await new ApiClient(suite.url).get(p), 401);
    expectError(await dk.cast.member.get(p), 403);
    expectError(await dk.cast.member.post(p), 403);
    expectError(await dk.cast.member.put(p, { auto_approve: true }), 403);
    expectError(await dk.cast.member.del(p), 403);
    expectError(await dk.cast.member.get(`${p}/recent`), 403);
    expect((await dk.cast.owner.get(p)).body).toEqual({ dink: null });
    expectError(await dk.cast.owner.put(p, { auto_approve: true }), 404, DINK_MESSAGES.noLink);

    const made = await dk.cast.owner.post(p);
    expect(made.status).toBe(200);
    const link = v.parse(DinkLinkAnswerSchema, made.body).dink!;
    expect(link.auto_approve).toBe(false);
    expect(link.url).toMatch(new RegExp(`^${suite.url}/api/dink/[A-Za-z0-9_-]{43}$`));
    expect(Buffer.from(link.url.split('/').pop()!, 'base64url').length).toBeGreaterThanOrEqual(32);
    expect((await dk.cast.owner.get(p)).body).toEqual({ dink: link });
    expectError(await dk.cast.owner.put(p, { auto_approve: 'yes' }), 400, 'auto_approve must be true or false.');
    const on = await dk.cast.owner.put(p, { auto_approve: true });
    expect(on.body).toEqual({ dink: { ...link, auto_approve: true } });

    expect((await dink(link.url, fixture('QUEST'))).status).toBe(204);
    const rotated = v.parse(DinkLinkAnswerSchema, (await dk.cast.owner.post(p)).body).dink!;
    expect(rotated.url).not.toBe(link.url);
    expect(rotated.auto_approve).toBe(true);
    expect((await dink(link.url, fixture('QUEST'))).status).toBe(404);
    expect((await dink(rotated.url, fixture('QUEST'))).status).toBe(204);

    expect((await dk.cast.owner.del(p)).body).toEqual({ dink: null });
    expect((await dink(rotated.url, fixture('QUEST'))).status).toBe(404);
    expect((await dk.cast.owner.get(p)).body).toEqual({ dink: null });
    expect((await dink(`${suite.url}/api/dink/not-a-token`, fixture('QUEST'))).status).toBe(404);
    // No log line holds a Dink token (docs/server.md §14).
    const output = suite.server.output();
    for (const token of [link.url, rotated.url].map((u) => u.split('/').pop()!)) expect(output).not.toContain(token);
  });

  it('bad posts: 404 unknown token first, then 400 (no payload, not JSON, text named .png) and 413 (over 8 MiB); malformed Dink JSON is recorded no_match; none makes a submission', async () => {
    const { game, url } = await dinkGame({ auto: true });
    const unknown = `${suite.url}/api/dink/${'A'.repeat(43)}`;
    expect((await dink(unknown, 'not json')).status).toBe(404);
    expect((await dink(url, undefined)).status).toBe(400);
    expect((await dink(url, '{not json')).status).toBe(400);
    expect((await dink(url, fixture('QUEST'), { bytes: Buffer.from('just text, not an image'), name: 'shot.png' })).status).toBe(400);
    const big = Buffer.concat([await png(), Buffer.alloc(8 * 1024 * 1024)]);
    expect((await dink(url, fixture('QUEST'), { bytes: big })).status).toBe(413);
    const plain = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(plain.status).toBe(400);
    expect(await recent(game)).toEqual([]);

    for (const payload of [
      { type: 'DEATH', playerName: 'Iron Bob', extra: {} },
      { type: 'QUEST', playerName: 'Iron Bob' },
      { type: 'QUEST', playerName: 'Iron\u0007Bob', extra: { questName: 'Dragon Slayer I' } },
      { type: 'QUEST', playerName: 'Iron Bob', extra: { questName: 42 } },
      [1, 2, 3],
      JSON.stringify('a JSON string, not an object'),
    ]) {
      expect(await outcome(game, url, payload, await png())).toBe('no_match');
    }
    // JSON bodies work too (application/json with the same JSON).
    const json = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'FISHING', playerName: 'Iron Bob' }) });
    expect(json.status).toBe(204);
    expect(await submissions(game)).toEqual([]);
    expect((await stateOf(game)).task_state).toBe('none');
    const posts = await recent(game);
    expect(posts[posts.length - 3]).toMatchObject({ player_name: 'Iron\uFFFDBob', type: 'QUEST', outcome: 'no_match' });
  });

  it('outcomes in order: not_running, unknown_player, no_task, no_match, submitted (the roll gate stays shut), duplicate, suspicious', async () => {
    const { game, url, w } = await dinkGame({ start: false });
    const quest = () => fresh(fixture('QUEST'));
    expect(await outcome(game, url, quest())).toBe('not_running');
    expect((await dk.cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    expect(await outcome(game, url, fresh(fixture('QUEST'), 'Somebody Else'))).toBe('unknown_player');
    // On Start there is no task.
    expect(await outcome(game, url, quest())).toBe('no_task');
    expect(await roll(w, game)).toBeNull();
    // A task without a rule, then a rule the post does not satisfy.
    expect(await outcome(game, url, quest())).toBe('no_match');
    await ruleHere(game, { type: 'QUEST', names: ['Monkey Madness II'], min: null });
    expect(await outcome(game, url, quest())).toBe('no_match');
    const square = await ruleHere(game, { type: 'quest', names: ['dragon slayer i'] });
    // Matching, IGN written with another case and '-' for the space; no auto-approve: waits for a referee.
    const post = fresh(fixture('QUEST'), 'IRON-BOB');
    expect(await outcome(game, url, post, await png())).toBe('submitted');
    const [sub] = await submissions(game);
    expect(sub).toMatchObject({
      source: 'dink', evidence: { type: 'QUEST', summary: 'Quest complete: Dragon Slayer I' }, auto: false, status: 'pending', reviewer: null, screenshot: true,
      square_index: square, submitted_by: { ign: 'Iron Bob', username: `dink-bob-${backend}` }, team_id: game.team1,
    });
    expect((await stateOf(game)).task_state).toBe('submitted');
    expect(await roll(w, game)).toBe(PROOF_MESSAGES.rollGate(square, 'Red Team'));
    // The screenshot was stored as the submission's image.
    const image = await dk.cast.owner.call('GET', sub.image_url!);
    expect(image.status).toBe(200);
    // The same post again: taken once; after 10 minutes (the stored time aged here) it is judged again.
    expect(await outcome(game, url, post, await png())).toBe('duplicate');
    await directSql(suite.env, 'UPDATE dink_digests SET at = ?', [new Date(Date.now() - 11 * 60_000).toISOString()]);
    expect(await outcome(game, url, post, await png())).toBe('no_task');
    // Another account hash for the same IGN.
    expect(await outcome(game, url, { ...fresh(fixture('QUEST')), dinkAccountHash: 'someone-else' })).toBe('suspicious');
    // Sent already: no_task until a referee decides.
    expect(await outcome(game, url, quest())).toBe('no_task');
    // Member dk.uploads say so too.
    expect((await dk.cast.owner.put(`/api/clan/${dk.cast.clanId}/submissions/${sub.id}/review`, { decision: 'deny', reason: 'Blurry' })).status).toBe(200);
    const form = new FormData();
    form.append('team_id', String(game.team1));
    form.append('image', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'proof.png');
    const upload = await dk.cast.member.call('POST', `${game.path}/submissions`, form);
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    expect(upload.body.submission).toMatchObject({ source: 'upload', evidence: null, auto: false, screenshot: true });
  });

  it('auto-approve with a screenshot: approved at once (auto, no reviewer, logged), the Leader rolls; without a screenshot it waits for a person', async () => {
    const { game, url, w } = await dinkGame({ auto: true });
    expect(await roll(w, game)).toBeNull();
    await ruleHere(game, { type: 'LOOT', names: ['Dragon warhammer'], min: 1 });
    expect(await outcome(game, url, fresh(fixture('LOOT')))).toBe('submitted');
    const [waiting] = await submissions(game);
    // Sent without a screenshot: the submission says so (its image is a plain stand-in).
    expect(waiting).toMatchObject({ status: 'pending', auto: false, source: 'dink', screenshot: false });
    expect((await dk.cast.owner.put(`/api/clan/${dk.cast.clanId}/submissions/${waiting.id}/review`, { decision: 'deny', reason: 'No screenshot' })).status).toBe(200);

    const mark = w.got.length;
    expect(await outcome(game, url, fresh(fixture('LOOT')), await png())).toBe('approved');
    const [approved] = await submissions(game);
    expect(approved).toMatchObject({
      status: 'approved', auto: true, reviewer: null, source: 'dink', screenshot: true,
      evidence: { type: 'LOOT', summary: 'Dragon warhammer x1, Bones x1 from Lizardman shaman' },
    });
    expect(approved.reviewed_at).not.toBeNull();
    // The Leader's screen learns it live, and may roll.
    await w.next((r) => r.event === 'game_state_update' && r.payload.game_state.team_states?.some((t: { team_id: number; task_state: string }) => t.team_id === game.team1 && t.task_state === 'approved'), 5000, mark);
    const g = await stored(dk.cast, game);
    expect(g.log_entries.map((l) => l.message)).toContain('Approved automatically from Dink: Dragon warhammer x1, Bones x1 from Lizardman shaman.');
    expect(await roll(w, game)).toBeNull();
    // Counted by outcome in the metrics (docs/server.md §14), read from loopback.
    const metrics = await (await fetch(`${suite.url}/metrics`)).text();
    expect(metrics).toMatch(/dink_posts_total\{outcome="approved"\} [1-9]/);
    expect(metrics).toMatch(/dink_posts_total\{outcome="submitted"\} [1-9]/);
  });

  it("after relief the substitute's own rule judges posts, not the square's, and the submission is for the substitute", async () => {
    const { game, url, w } = await dinkGame({});
    expect(await roll(w, game)).toBeNull();
    expect((await stateOf(game)).task_state).toBe('open');
    await ruleHere(game, { type: 'QUEST', names: ['Dragon Slayer I'], min: null });
    // Relief after 1 h; the team has waited 2 h on the square (its arrival moved back).
    expect((await dk.cast.owner.put(`${game.path}/rules`, { relief_after_hours: 1 })).status).toBe(200);
    await directSql(suite.env, 'UPDATE team_states SET square_since = ? WHERE game_id = ? AND team_id = ?', [new Date(Date.now() - 2 * 3_600_000).toISOString(), game.gameId, game.team1]);
    const version = (await stored(dk.cast, game)).version;
    const mark = w.got.length;
    w.socket.emit('request_relief', { game_id: game.gameId, team_id: game.team1 });
    const answer = await w.next((x) => x.event === 'action_error' || (x.event === 'game_state_update' && x.payload.game_state.version > version), 5000, mark);
    expect(answer.event, JSON.stringify(answer.payload)).toBe('game_state_update');
    const substitute = (await stateOf(game)).task_override!;
    expect(substitute).not.toBeNull();
    const pool: { id: number; description: string; difficulty: string }[] = (await dk.cast.owner.get(`/api/clan/${dk.cast.clanId}/tasks`)).body.tasks;
    const task = pool.find((t) => t.description === substitute.description)!;
    const put = await dk.cast.owner.put(`/api/clan/${dk.cast.clanId}/tasks/${task.id}`, { description: task.description, difficulty: task.difficulty, auto_rule: { type: 'LOOT', names: ['Dragon warhammer'], min: 1 } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    // The square's rule no longer counts; the substitute's does.
    expect(await outcome(game, url, fresh(fixture('QUEST')))).toBe('no_match');
    expect(await outcome(game, url, fresh(fixture('LOOT')))).toBe('submitted');
    const [sub] = await submissions(game);
    expect(sub).toMatchObject({ source: 'dink', status: 'pending', task_description: substitute.description, evidence: { type: 'LOOT' } });
  });

  it('every Dink type (recorded-shape fixtures) approves a task with its rule', async () => {
    const { game, url, w } = await dinkGame({ auto: true });
    const rules: Record<DinkType, unknown> = {
      LOOT: { type: 'LOOT', names: ['Dragon warhammer'], min: 1 },
      COLLECTION: { type: 'COLLECTION', names: ['Dragon warhammer'] },
      KILL_COUNT: { type: 'KILL_COUNT', names: ['Zulrah'], min: 50 },
      LEVEL: { type: 'LEVEL', names: ['Attack'], min: 70 },
      QUEST: { type: 'QUEST', names: ['Dragon Slayer I'] },
      CLUE: { type: 'CLUE', names: ['Hard', 'Elite'] },
      PET: { type: 'PET', names: ['Pet snakeling'] },
      COMBAT_ACHIEVEMENT: { type: 'COMBAT_ACHIEVEMENT', names: ['Snake. Snake!? Snaaaaaake!'] },
      ACHIEVEMENT_DIARY: { type: 'ACHIEVEMENT_DIARY', names: ['Varrock Hard'] },
      SLAYER: { type: 'SLAYER', names: ['Kalphite'], min: 100 },
    };
    for (const type of DINK_TYPES) {
      expect(await roll(w, game), type).toBeNull();
      await ruleHere(game, rules[type]);
      expect(await outcome(game, url, fresh(fixture(type)), await png()), type).toBe('approved');
      expect((await stateOf(game)).task_state, type).toBe('approved');
    }
    expect((await submissions(game)).map((s) => s.evidence?.type)).toEqual([...DINK_TYPES].reverse());
  });

  it('the recent list: newest first with player, type, summary and outcome; each post also goes live to the managers room', async () => {
    const { game, url } = await dinkGame();
    const referee = await watcher('referee', dk.cast.owner);
    const live: DinkPostUpdate[] = [];
    (referee.socket as unknown as { on(ev: string, fn: (p: DinkPostUpdate) => void): void }).on('dink_post', (p) => live.push(p));
    await new Promise<void>((resolve) => (referee.socket as unknown as { emit(ev: string, p: unknown, ack: () => void): void }).emit('join_reviews', { clan_id: dk.cast.clanId }, () => resolve()));
    expect(await outcome(game, url, fresh(fixture('KILL_COUNT'), 'Nobody'))).toBe('unknown_player');
    expect(await outcome(game, url, fresh(fixture('LEVEL')))).toBe('no_task');
    const posts = await recent(game);
    expect(posts.map((p) => [p.player_name, p.type, p.summary, p.outcome])).toEqual([
      ['iron_bob', 'LEVEL', 'Attack level 70', 'no_task'],
      ['Nobody', 'KILL_COUNT', 'Zulrah kill count 50', 'unknown_player'],
    ]);
    expect(Date.parse(posts[0].at)).toBeGreaterThanOrEqual(Date.parse(posts[1].at));
    const deadline = Date.now() + 5000;
    while (live.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(live.map((p) => [p.event_id, p.post.outcome])).toEqual([[game.eventId, 'unknown_player'], [game.eventId, 'no_task']]);
  });

  it('rate limit: 60 posts a minute to a live token, then 429; posts to a dead token are 404 and do not count', async () => {
    const game = await newGame(dk.cast, { start: false });
    const made = await dk.cast.owner.post(dinkPath(game));
    const url = (made.body.dink.url as string).replace(/^https?:\/\/[^/]+/, suite.url);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => dink(url, { type: 'QUEST', playerName: 'x', content: `burst ${i}` })));
    expect(answers.map((a) => a.status)).toEqual(Array(60).fill(204));
    const over = await dink(url, { type: 'QUEST', playerName: 'x', content: 'one too many' });
    expect(over.status).toBe(429);
    expect(JSON.parse(over.body)).toEqual({ error: DINK_MESSAGES.rateLimited });
    // A new token has its own budget.
    const rotated = ((await dk.cast.owner.post(dinkPath(game))).body.dink.url as string).replace(/^https?:\/\/[^/]+/, suite.url);
    expect((await dink(rotated, { type: 'QUEST', playerName: 'x', content: 'after rotation' })).status).toBe(204);
    expect((await dink(url, { type: 'QUEST', playerName: 'x' })).status).toBe(404);
  });

  it('junk never answers 5xx: random payload_json to the receiver (204 or 400) and random auto_rule values to the task API (200 or 400)', async () => {
    const { game, url } = await dinkGame();
    const junk = fc.oneof(fc.jsonValue(), fc.record({ type: fc.constantFrom(...DINK_TYPES, 'DEATH', ''), playerName: fc.oneof(fc.string(), fc.constant('Iron Bob')), dinkAccountHash: fc.string(), extra: fc.jsonValue() }));
    await fc.assert(fc.asyncProperty(junk, async (payload) => {
      const r = await dink(url, JSON.stringify(payload));
      expect([204, 400]).toContain(r.status);
    }), { numRuns: 40 });
    expect(await submissions(game)).toEqual([]);
    let n = 0;
    await fc.assert(fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.record({ type: fc.string(), names: fc.array(fc.string()), min: fc.oneof(fc.integer(), fc.double(), fc.string()) })), async (rule) => {
      const r = await dk.cast.owner.post(`/api/clan/${dk.cast.clanId}/tasks`, { description: `Fuzzed rule ${backend} ${++n}`, difficulty: 'EASY', auto_rule: rule });
      expect([200, 400], JSON.stringify(r.body)).toContain(r.status);
      if (r.status === 400) expect(typeof r.body.error).toBe('string');
    }), { numRuns: 40 });
  });

  it('auto_rule in the task API (create, edit, every shape; null by default; kept when left out) and its 400s', async () => {
    const base = `/api/clan/${dk.cast.clanId}/tasks`;
    const plain = await dk.cast.owner.post(base, { description: 'Dink plain task', difficulty: 'EASY' });
    expect(v.parse(TaskAnswerSchema, plain.body).task.auto_rule).toBeNull();
    const made = await dk.cast.owner.post(base, { description: 'Get a Dragon warhammer', difficulty: 'hard', auto_rule: { type: 'loot', names: ['Dragon warhammer', 'dragon WARHAMMER'], min: 1 } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const task = v.parse(TaskAnswerSchema, made.body).task;
    expect(task.auto_rule).toEqual({ type: 'LOOT', names: ['Dragon warhammer'], min: 1, team_total: null, distinct: false });
    const kept = await dk.cast.owner.put(`${base}/${task.id}`, { description: 'Get a Dragon warhammer!', difficulty: 'HARD' });
    expect(kept.body.task.auto_rule).toEqual({ type: 'LOOT', names: ['Dragon warhammer'], min: 1, team_total: null, distinct: false });
    const cleared = await dk.cast.owner.put(`${base}/${task.id}`, { description: 'Get a Dragon warhammer!', difficulty: 'HARD', auto_rule: null });
    expect(cleared.body.task.auto_rule).toBeNull();
    const list = v.parse(TaskListAnswerSchema, (await dk.cast.member.get(base)).body).tasks;
    expect(list.find((t) => t.id === task.id)!.auto_rule).toBeNull();
    for (const [rule, message] of [
      [{ type: 'DEATH', names: ['x'] }, AUTO_RULE_MESSAGES.type],
      [{ type: 'LOOT', names: [] }, AUTO_RULE_MESSAGES.names],
      [{ type: 'LOOT', names: ['bad\u0000name'] }, AUTO_RULE_MESSAGES.name],
      [{ type: 'LOOT', names: ['x'], min: 0 }, AUTO_RULE_MESSAGES.min],
      [{ type: 'LOOT', names: ['x'], min: 99999999999 }, AUTO_RULE_MESSAGES.min],
      ['LOOT', AUTO_RULE_MESSAGES.notObject],
    ] as const) {
      expectError(await dk.cast.owner.post(base, { description: `Bad rule ${message}`, difficulty: 'EASY', auto_rule: rule }), 400, message);
    }
  });

  it('CSV: optional auto_type, auto_names (| separated) and auto_min columns; a bad rule is a row error; examples/osrs-tasks.csv imports with its rules', async () => {
    const other = new ApiClient(suite.url);
    const me = await other.onboard(`dink-csv-${backend}`, ['Csv Owner'], { role: 'Owner', clan_name: `Dink CSV ${backend}` });
    const clanId = me.clan_memberships_list[0].clan_id as number;
    const csv = [
      'description,difficulty,auto_type,auto_names,auto_min',
      'Kill Zulrah 50 times,HARD,KILL_COUNT,Zulrah,50',
      'Any Zulrah unique,ELITE,loot,Tanzanite fang|Magic fang|Serpentine visage,',
      'Plain task,EASY,,,',
      'Bad type,EASY,FISHING,x,',
      'Bad min,EASY,LOOT,x,lots',
    ].join('\n');
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'rules.csv');
    const r = await other.call('POST', `/api/clan/${clanId}/tasks/upload_csv`, form);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ inserted_count: 3, errors: [{ row: 5, message: AUTO_RULE_MESSAGES.type }, { row: 6, message: AUTO_RULE_MESSAGES.min }] });
    const tasks = v.parse(TaskListAnswerSchema, (await other.get(`/api/clan/${clanId}/tasks`)).body).tasks;
    const rule = (d: string) => tasks.find((t) => t.description === d)!.auto_rule;
    expect(rule('Kill Zulrah 50 times')).toEqual({ type: 'KILL_COUNT', names: ['Zulrah'], min: 50, team_total: null, distinct: false });
    expect(rule('Any Zulrah unique')).toEqual({ type: 'LOOT', names: ['Tanzanite fang', 'Magic fang', 'Serpentine visage'], min: null, team_total: null, distinct: false });
    expect(rule('Plain task')).toBeNull();

    const sample = fs.readFileSync(path.join(__dirname, '../../examples/osrs-tasks.csv'));
    const clear = await other.call('DELETE', `/api/clan/${clanId}/tasks`);
    expect(clear.status).toBe(200);
    const upload = new FormData();
    upload.append('file', new Blob([new Uint8Array(sample)], { type: 'text/csv' }), 'osrs-tasks.csv');
    const s = await other.call('POST', `/api/clan/${clanId}/tasks/upload_csv`, upload);
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    expect(s.body).toMatchObject({ inserted_count: 144, skipped_count: 0, errors: [] });
    const all = v.parse(TaskListAnswerSchema, (await other.get(`/api/clan/${clanId}/tasks`)).body).tasks;
    const ruled = all.filter((t) => t.auto_rule !== null);
    expect(ruled.length).toBeGreaterThanOrEqual(40);
    expect(new Set(ruled.map((t) => t.auto_rule!.type))).toEqual(new Set(["LOOT", "KILL_COUNT", "CLUE", "XP", "KC"]));
  });
});
