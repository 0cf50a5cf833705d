import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import * as v from 'valibot';
import sharp from 'sharp';
import { backends } from '../support/server';
import { directSql } from '../support/fixtures';
import type { TestGame } from '../support/liveSocket';
import { ClanUsageSchema, openEventsMessage, uploadQuotaMessage, type ClanUsage } from '../../contract/quotas';
import { PERMISSION_TEXT } from '../support/fixtures';
import { expectError, fixture, fresh, png, recentPosts, useDinkSuite } from './dinkSupport';

/**
 * The per-clan quotas over real HTTP (docs/server.md §18 "Quotas"), on both databases, with a
 * 1 MiB upload quota and images of random pixels (about 600 KiB stored with their thumbnails, so
 * the second does not fit): a proof upload past the quota answers 413 with the text and stores
 * nothing (no file, no submission, the team's state unchanged); a Dink post whose screenshot does
 * not fit is recorded `over_quota` and stores nothing, while a small stand-in still fits; GET
 * .../usage answers the bytes on disk exactly and the open events, for managers only; the 51st
 * event that has not ended is refused 409 on create and on copy, and an event that has ended frees
 * its place.
 */

const QUOTA = 1024 * 1024;

/** A PNG of random pixels: it does not compress, so re-encoded it stays about `side`² × 3 bytes. */
const noise = (side: number) => sharp(crypto.randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png().toBuffer();

/** Files under a folder, recursively, with their sizes. */
function filesUnder(dir: string): Map<string, number> {
  if (!fs.existsSync(dir)) return new Map();
  const files = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
  return new Map(files.map((d) => {
    const file = path.join(d.parentPath, d.name);
    return [file, fs.statSync(file).size];
  }));
}
const bytesUnder = (dir: string) => [...filesUnder(dir).values()].reduce((sum, n) => sum + n, 0);

describe.each(backends())('clan quotas (%s)', (backend) => {
  const dk = useDinkSuite(backend, 'quota', { CLAN_UPLOAD_QUOTA_MB: '1', CLAN_OPEN_EVENTS: '' });
  const { dinkPath, dinkGame, outcome, ruleHere, submissions, stateOf, roll } = dk;

  const usage = async (): Promise<ClanUsage> => {
    const r = await dk.cast.owner.get(`/api/clan/${dk.cast.clanId}/usage`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return v.parse(ClanUsageSchema, r.body);
  };

  /** PlainMember (on team 1) sends `bytes` as proof. */
  const upload = async (game: TestGame, bytes: Buffer) => {
    const form = new FormData();
    form.append('team_id', String(game.team1));
    form.append('image', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'proof.png');
    return dk.cast.member.call('POST', `${game.path}/submissions`, form);
  };

  it('proof images: 413 with the text past the quota and nothing stored; a Dink post past it is over_quota and stores nothing; usage counts the bytes stored', async () => {
    const { game, url, w } = await dinkGame();
    expect(await roll(w, game)).toBeNull();
    await ruleHere(game, { type: 'quest', names: ['dragon slayer i'] });
    expect(await usage()).toMatchObject({ upload_bytes: 0, upload_quota_bytes: QUOTA });

    const big = await noise(450);
    const first = await upload(game, big);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const afterFirst = await usage();
    // What the store holds (the re-encoded image and its thumbnail), to the byte.
    expect(afterFirst.upload_bytes).toBe(bytesUnder(dk.uploads));
    expect(afterFirst.upload_bytes).toBeGreaterThan(QUOTA / 2);
    expect(afterFirst.upload_bytes).toBeLessThan(QUOTA);
    expect((await dk.cast.owner.put(`/api/clan/${dk.cast.clanId}/submissions/${first.body.submission.id}/review`, { decision: 'deny', reason: 'Again' })).status).toBe(200);

    // The second does not fit: refused, nothing written, the team may still send proof.
    const files = filesUnder(dk.uploads);
    expectError(await upload(game, big), 413, uploadQuotaMessage(1));
    expect(uploadQuotaMessage(1)).toBe('This clan has used its 1 MiB for proof images.');
    expect(filesUnder(dk.uploads)).toEqual(files);
    expect(await submissions(game)).toHaveLength(1);
    expect((await stateOf(game)).task_state).toBe('denied');
    expect((await usage()).upload_bytes).toBe(afterFirst.upload_bytes);

    // A Dink post that would count, with a screenshot that does not fit: over_quota, nothing stored.
    expect(await outcome(game, url, fresh(fixture('QUEST')), big)).toBe('over_quota');
    expect((await recentPosts(dk.cast.owner, dinkPath(game)))[0].outcome).toBe('over_quota');
    expect(filesUnder(dk.uploads)).toEqual(files);
    expect(await submissions(game)).toHaveLength(1);
    expect((await stateOf(game)).task_state).toBe('denied');

    // A small screenshot still fits: it is the bytes that count, not a count of images.
    expect(await outcome(game, url, fresh(fixture('QUEST')), await png())).toBe('submitted');
    expect(await submissions(game)).toHaveLength(2);
    const now = await usage();
    expect(now.upload_bytes).toBe(bytesUnder(dk.uploads));
    expect(now.upload_bytes).toBeGreaterThan(afterFirst.upload_bytes);
  });

  it('usage: managers only (a member 403, signed out 401)', async () => {
    const path = `/api/clan/${dk.cast.clanId}/usage`;
    expectError(await dk.cast.member.get(path), 403, PERMISSION_TEXT);
    expectError(await dk.cast.outsider.get(path), 403);
    expect((await dk.suite.client().get(path)).status).toBe(401);
  });

  it('events that have not ended: at most 50; the 51st create and copy answer 409; an ended event frees its place', async () => {
    const { clanId, owner } = dk.cast;
    const open = (await usage()).events_open;
    expect(open).toBeGreaterThan(0);
    expect((await usage()).events_limit).toBe(50);
    // Fill the clan to 50 open events in one statement (no end, or an end still to come), plus one that has ended.
    const now = new Date().toISOString();
    const rows = Array.from({ length: 50 - open }, (_, i) => [clanId, `Filler ${i}`, 'Snakes and Ladders', '2031-01-01T00:00:00.000Z', i % 2 ? null : '2031-02-01T00:00:00.000Z', now]);
    rows.push([clanId, 'Long ago', 'Snakes and Ladders', '2020-01-01T00:00:00.000Z', '2020-01-02T00:00:00.000Z', now]);
    await directSql(dk.suite.env, `INSERT INTO events (clan_id, name, type, start_datetime, end_datetime, created_at) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`, rows.flat());
    expect(await usage()).toMatchObject({ events_open: 50, events_limit: 50 });

    const body = { name: 'One too many', start_datetime: '2031-06-01T18:00Z' };
    expectError(await owner.post(`/api/clan/${clanId}/events/`, body), 409, openEventsMessage(50));
    const [source] = await directSql(dk.suite.env, 'SELECT MIN(id) AS id FROM events WHERE clan_id = ?', [clanId]);
    expectError(await owner.post(`/api/clan/${clanId}/events/${source.id}/copy`, { ...body, end_datetime: null, teams: true }), 409, openEventsMessage(50));
    const names = await directSql(dk.suite.env, 'SELECT name FROM events WHERE clan_id = ? AND name = ?', [clanId, body.name]);
    expect(names).toEqual([]);

    // One filler ends: its place is free again.
    await directSql(dk.suite.env, "UPDATE events SET end_datetime = ? WHERE clan_id = ? AND name = 'Filler 0'", [new Date(Date.now() - 60_000).toISOString(), clanId]);
    expect((await usage()).events_open).toBe(49);
    expect((await owner.post(`/api/clan/${clanId}/events/`, body)).status).toBe(200);
    expect((await usage()).events_open).toBe(50);
    expectError(await owner.post(`/api/clan/${clanId}/events/${source.id}/copy`, { ...body, end_datetime: null, teams: false }), 409, openEventsMessage(50));
  });
});
