import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import sharp from 'sharp';
import type { ApiClient, Answer } from '../support/api';
import * as v from 'valibot';
import { DinkRecentAnswerSchema, type DinkOutcome, type DinkPost, type DinkType } from '../../contract/dink';

// Helpers of the Dink API tests (dink.api.test.ts, dink-accounts.api.test.ts, dink-live.api.test.ts; docs/server.md §13).

/** Socket limits raised so a suite's many rolls and joins are never refused (the limits have their own tests). */
export const FAST = { ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000', JOINS_PER_SOCKET: '1000', JOINS_PER_ADDRESS: '1000' };

/** Expects an answer of `status`, and when `error` is given exactly the body `{error}`. */
export const expectError = (r: Answer, status: number, error?: string): void => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  if (error !== undefined) expect(r.body).toEqual({ error });
};

/** The recorded-shape fixture of one Dink type (tests/fixtures/dink/), as a fresh object. */
export function fixture(type: DinkType): Record<string, any> {
  return JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/dink', `${type.toLowerCase()}.json`), 'utf8'));
}

/** Every post differs (its content line), so none is taken as a duplicate unless meant; posted as `player`. */
let nonce = 0;
export const fresh = (payload: Record<string, any>, player = 'iron_bob') => ({ ...payload, playerName: player, content: `${payload.content} #${++nonce}` });

/** A small PNG screenshot stand-in. */
export const png = () => sharp({ create: { width: 64, height: 48, channels: 3, background: '#c83232' } }).png().toBuffer();

/** POSTs like Dink: multipart payload_json (a string as is, anything else as JSON) and an optional file part; no cookie, no Origin. */
export async function dink(url: string, payload: unknown, file?: { bytes: Buffer; name?: string; type?: string }): Promise<Answer> {
  const form = new FormData();
  if (payload !== undefined) form.append('payload_json', typeof payload === 'string' ? payload : JSON.stringify(payload));
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/png' }), file.name ?? 'image.png');
  const res = await fetch(url, { method: 'POST', body: form });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

/** Fills the clan's pool with 60 tasks a tier, so every task square gets one. */
export async function fillPool(owner: ApiClient, clanId: number): Promise<void> {
  const rows = ['description,difficulty', ...['EASY', 'MEDIUM', 'HARD', 'ELITE', 'MASTER'].flatMap((t) => Array.from({ length: 60 }, (_, i) => `${t} dink task ${i + 1},${t}`))];
  const form = new FormData();
  form.append('file', new Blob([rows.join('\n')], { type: 'text/csv' }), 'pool.csv');
  const r = await owner.call('POST', `/api/clan/${clanId}/tasks/upload_csv`, form);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** The event's recent posts as the owner reads them (GET `{dinkApi}/recent`, docs/server.md §13), newest first. */
export async function recentPosts(owner: ApiClient, dinkApi: string): Promise<DinkPost[]> {
  const r = await owner.get(`${dinkApi}/recent`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return v.parse(DinkRecentAnswerSchema, r.body).posts;
}

/** Posts to `url` like Dink and answers the recorded outcome (waits until the recent list has grown by one; the 204 may come first). */
export async function postOutcome(owner: ApiClient, dinkApi: string, url: string, payload: unknown, file?: Buffer): Promise<DinkOutcome> {
  const before = (await recentPosts(owner, dinkApi)).length;
  const r = await dink(url, payload, file ? { bytes: file } : undefined);
  expect(r.status, r.body).toBe(204);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const posts = await recentPosts(owner, dinkApi);
    if (posts.length > before) return posts[0].outcome;
    if (Date.now() > deadline) throw new Error('the post was never recorded');
    await new Promise((res) => setTimeout(res, 50));
  }
}
