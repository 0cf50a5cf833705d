import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as v from 'valibot';
import sharp from 'sharp';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { ApiClient, type Answer } from '../support/api';
import { directSql, PERMISSION_TEXT } from '../support/fixtures';
import { act, castOf, newGame, watchersOf, type Cast } from '../support/liveSocket';
import { AUDIT_BAD_BEFORE, AUDIT_PAGE_SIZE, AuditAnswerSchema, type AuditEntry } from '../../contract/audit';

/**
 * The clan History over real HTTP (docs/server.md §18 "History"), on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL: managers only (403 for a Member); pages of 100 newest first with
 * ties by id, `before` giving the entries after one, 400 for a bad `before`; a representative set
 * of manager actions each writing exactly one entry with its action, target and detail; a refused
 * action writing none; and no invite code, webhook URL or token in any entry.
 */

const TIERS = ['EASY', 'MEDIUM', 'HARD', 'ELITE', 'MASTER'];
/** The suite rolls once; the roll limits of docs/server.md §8 are not what it tests. */
const FAST = { ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000', JOINS_PER_SOCKET: '1000', JOINS_PER_ADDRESS: '1000' };
const WEBHOOK = 'https://discord.com/api/webhooks/424242/AuditSecretWebhookToken';

const ok = (r: Answer, status = 200) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};

describe.each(backends())('clan History (%s)', (backend) => {
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-audit-'));
  const suite = useServerSuite(backend, { UPLOAD_DIR: uploads, ...FAST });
  const { open, watcher } = watchersOf(() => suite.url);
  let cast: Cast;
  let ownerName: string;
  let ownerId: number;
  const auditPath = (before?: number | string) => `/api/clan/${cast.clanId}/audit${before === undefined ? '' : `?before=${before}`}`;

  /** One page of the History as the Owner sees it. */
  const page = async (before?: number | string): Promise<AuditEntry[]> => v.parse(AuditAnswerSchema, ok(await cast.owner.get(auditPath(before)))).entries;
  /** The highest entry id of the clan so far (0 for none). */
  const lastId = async () => Number((await directSql(suite.env, 'SELECT COALESCE(MAX(id), 0) AS n FROM audit_entries'))[0].n);
  /** Runs `change` and answers the entries it wrote (newest first). */
  const written = async (change: () => Promise<unknown>): Promise<AuditEntry[]> => {
    const before = await lastId();
    await change();
    return (await page()).filter((e) => e.id > before);
  };
  /** Runs `change` and expects exactly one entry, by the Owner, matching `entry`. */
  const one = async (change: () => Promise<unknown>, entry: Partial<AuditEntry>) => {
    const got = await written(change);
    expect(got, JSON.stringify(got)).toHaveLength(1);
    expect(got[0]).toMatchObject({ actor: { user_id: ownerId, username: ownerName }, ...entry });
    expect(Date.parse(got[0].at)).toBeGreaterThan(Date.now() - 60_000);
    return got[0];
  };

  beforeAll(async () => {
    cast = await castOf(suite.url, `audit-${backend}`);
    const me = ok(await cast.owner.get('/api/user/me'));
    ownerName = me.username;
    ownerId = me.id;
  });

  afterAll(() => {
    for (const w of open) w.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  it('is for managers: 403 for a Member and a non-member, 401 signed out', async () => {
    expect(await cast.member.get(auditPath())).toMatchObject({ status: 403, body: { error: PERMISSION_TEXT } });
    expect((await cast.outsider.get(auditPath())).status).toBe(403);
    expect((await new ApiClient(suite.url).get(auditPath())).status).toBe(401);
  });

  it('member, join, invite and clan actions write one entry each, naming people by username and never the invite code', async () => {
    const clanName = `Socket Clan audit-${backend}`;
    const joe = new ApiClient(suite.url);
    const joeId = (await joe.onboard(`audit-joe-${backend}`, ['JoeIgn'], { role: 'Member', clan_id: cast.clanId })).id;
    const kim = new ApiClient(suite.url);
    const kimId = (await kim.onboard(`audit-kim-${backend}`, ['KimIgn'], { role: 'Member', clan_id: cast.clanId })).id;

    await one(() => cast.owner.put(`/api/clan/${cast.clanId}/members/${joeId}/role`, { role: 'Admin' }).then((r) => ok(r)),
      { action: 'member.role', target: `audit-joe-${backend}`, detail: 'Member → Admin' });
    await one(() => cast.owner.del(`/api/clan/${cast.clanId}/members/${kimId}`).then((r) => ok(r)),
      { action: 'member.kick', target: `audit-kim-${backend}` });
    await one(() => cast.owner.put(`/api/clan/${cast.clanId}/settings`, { join_policy: 'request' }).then((r) => ok(r)),
      { action: 'clan.settings', target: clanName, detail: 'Join policy: request; listed: yes' });

    const asker = new ApiClient(suite.url);
    await asker.onboard(`audit-ask-${backend}`, ['AskIgn']);
    const asked = ok(await asker.post(`/api/clan/${cast.clanId}/join`), 202);
    await one(() => cast.owner.post(`/api/clan/${cast.clanId}/join-requests/${asked.join_request.id}/approve`).then((r) => ok(r)),
      { action: 'join.approve', target: `audit-ask-${backend}`, detail: 'Joined as Member' });

    let code = '';
    await one(async () => { code = ok(await cast.owner.post(`/api/clan/${cast.clanId}/invites`, { max_uses: 5 }), 201).invite.code; },
      { action: 'invite.create', target: 'Invite link', detail: '5 uses, 168 hours' });
    expect(code.length).toBeGreaterThan(10);
    expect(JSON.stringify(await page())).not.toContain(code);

    // A refused change writes nothing: a Member's kick (403) and a rename to the same name (400).
    expect(await written(async () => {
      expect((await cast.member.del(`/api/clan/${cast.clanId}/members/${joeId}`)).status).toBe(403);
      expect((await cast.owner.put(`/api/clan/${cast.clanId}/name`, { new_name: clanName })).status).toBe(400);
    })).toEqual([]);
  });

  it('event, team, task, game, review and webhook actions write one entry each; the webhook URL never shows', async () => {
    let event = { id: 0 };
    await one(async () => { event = ok(await cast.owner.post(`/api/clan/${cast.clanId}/events/`, { name: 'Winter Ladder', start_datetime: '2031-06-01T18:00Z' })).event; },
      { action: 'event.create', target: 'Winter Ladder', detail: 'Scheduled' });
    const teams = `/api/clan/${cast.clanId}/events/${event.id}/teams`;
    let teamId = 0;
    await one(async () => { teamId = ok(await cast.owner.post(`${teams}/`, { name: 'Team 2', color: '#123456' })).team.id; },
      { action: 'team.create', target: 'Team 2', detail: 'In Winter Ladder' });
    await one(() => cast.owner.post(`${teams}/${teamId}/members`, { osrs_ign_id: cast.ign.member, role: 'Leader' }).then((r) => ok(r)),
      { action: 'team.member.add', target: 'PlainMember', detail: 'Added to Team 2 as Leader' });
    // A refused duplicate team (409) writes nothing.
    expect(await written(async () => expect((await cast.owner.post(`${teams}/`, { name: 'team 2', color: '#654321' })).status).toBe(409))).toEqual([]);

    await one(() => cast.owner.post(`/api/clan/${cast.clanId}/tasks`, { description: 'Kill Ali Cat', difficulty: 'EASY' }).then((r) => ok(r)),
      { action: 'task.create', target: 'Kill Ali Cat', detail: 'Tier: EASY' });
    const rows = ['description,difficulty', ...TIERS.flatMap((t) => Array.from({ length: 60 }, (_, i) => `${t} audit task ${i + 1},${t}`))];
    const form = new FormData();
    form.append('file', new Blob([rows.join('\n')], { type: 'text/csv' }), 'pool.csv');
    await one(() => cast.owner.call('POST', `/api/clan/${cast.clanId}/tasks/upload_csv`, form).then((r) => ok(r)),
      { action: 'tasks.import', target: 'Task pool', detail: '300 added, 0 skipped' });

    const game = await newGame(cast, { proof: true, start: false });
    const gameEvent = ok(await cast.owner.get(`/api/clan/${cast.clanId}/events`)).events.find((e: { id: number }) => e.id === game.eventId).name;
    await one(() => cast.owner.put(`${game.path}/status`, { status: 'in-progress' }).then((r) => ok(r)),
      { action: 'game.status', target: gameEvent, detail: 'READY → in-progress' });

    const leader = await watcher('leader', cast.owner);
    await leader.join(game.gameId);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c83232' } }).png().toBuffer();
    const proof = new FormData();
    proof.append('team_id', String(game.team1));
    proof.append('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'proof.png');
    const submission = ok(await cast.member.call('POST', `${game.path}/submissions`, proof), 201).submission;
    await one(() => cast.owner.put(`/api/clan/${cast.clanId}/submissions/${submission.id}/review`, { decision: 'approve' }).then((r) => ok(r)),
      { action: 'review.approve', target: 'Red Team', detail: `Square ${submission.square_index}: ${submission.task_description}` });

    await one(() => cast.owner.put(`/api/clan/${cast.clanId}/events/${game.eventId}/discord`, { webhook_url: WEBHOOK }).then((r) => ok(r)),
      { action: 'webhook.set', target: gameEvent, detail: 'Announces: status, rolls, reviews, results' });
    const all = JSON.stringify(await page());
    expect(all).not.toContain('AuditSecretWebhookToken');
    expect(all).not.toContain('424242');
  });

  it('pages of 100 newest first, ties by id, `before` giving the entries after one; a bad `before` is 400', async () => {
    // 230 rows straight into the table, many sharing one time, so the tie order is tested too.
    const base = Date.now() - 86_400_000;
    const values: unknown[] = [];
    for (let i = 0; i < 230; i++) values.push(cast.clanId, new Date(base + Math.floor(i / 3)).toISOString(), ownerId, 'task.update', `Task ${i}`, 'Tier: EASY');
    await directSql(suite.env, `INSERT INTO audit_entries (clan_id, at, actor_user_id, action, target, detail) VALUES ${Array(230).fill('(?, ?, ?, ?, ?, ?)').join(', ')}`, values);
    const expected = (await directSql(suite.env, 'SELECT id FROM audit_entries WHERE clan_id = ? ORDER BY at DESC, id DESC', [cast.clanId])).map((r) => Number(r.id));
    expect(expected.length).toBeGreaterThan(230);

    const seen: number[] = [];
    let before: number | undefined;
    for (;;) {
      const got = await page(before);
      expect(got.length).toBeLessThanOrEqual(AUDIT_PAGE_SIZE);
      seen.push(...got.map((e) => e.id));
      if (got.length < AUDIT_PAGE_SIZE) break;
      before = got[got.length - 1].id;
    }
    expect(seen).toEqual(expected);
    expect(await page(expected[expected.length - 1])).toEqual([]);

    for (const bad of ['abc', '0', '-1', '1.5', String(expected[0] + 10_000)]) {
      expect(await cast.owner.get(auditPath(bad)), bad).toMatchObject({ status: 400, body: { error: AUDIT_BAD_BEFORE } });
    }
  });
});
