import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as v from 'valibot';
import sharp from 'sharp';
import { backends, type TestServer } from '../support/server';
import { useServerSuite, useTwoProcesses } from '../support/suite';
import { ApiClient, type Answer } from '../support/api';
import { directSql } from '../support/fixtures';
import { startS3StandIn } from '../support/s3StandIn';
import { act, castOf, connect, newGame, watchersOf, type Cast, type TestGame, type Watcher } from '../support/liveSocket';
import { GameAnswerSchema, PublicGameSchema, type Game } from '../../contract/gameApi';
import {
  PROOF_LOG,
  type JoinReviewsAnswer,
  PROOF_MAX_BYTES,
  PROOF_MESSAGES,
  PROOF_NOTE_MAX,
  REVIEW_REASON_MAX,
  SubmissionAnswerSchema,
  SubmissionListSchema,
  SubmissionSchema,
  type Submission,
} from '../../contract/submission';

/**
 * Task proof and referee review over real HTTP and real sockets (docs/server.md §9): the
 * proof_required rule, task states after rolls, reverts and reset, the roll gate's exact text,
 * who may send proof and who may review it, every 409, the 8 MiB limit (413), the type read from
 * the bytes (a PNG named .txt accepted, text named .png refused), metadata stripped (the EXIF of a
 * JPEG made here with sharp is gone), the undo window (the review is aged in the database, so no
 * test waits 5 minutes), revert withdrawal, reset deleting rows and files, the image answers,
 * `submission_update` to the members and managers rooms and never to spectators, a demoted
 * manager leaving the managers room, the image store on a local S3 stand-in, and, with
 * TEST_DATABASE_URL and TEST_REDIS_URL, all of it across two processes.
 */

const TIERS = ['EASY', 'MEDIUM', 'HARD', 'ELITE', 'MASTER'];
/** These suites roll as fast as they can to reach the states they test, not the limits of docs/server.md §8. */
const FAST = { ROLLS_PER_SOCKET: '1000', ROLLS_PER_USER: '1000', JOINS_PER_SOCKET: '1000', JOINS_PER_ADDRESS: '1000' };

/** Fills the clan's pool with 60 tasks a tier, so every task square of a 225-square board gets one. */
async function fillPool(owner: ApiClient, clanId: number): Promise<void> {
  const rows = ['description,difficulty', ...TIERS.flatMap((t) => Array.from({ length: 60 }, (_, i) => `${t} proof task ${i + 1},${t}`))];
  const form = new FormData();
  form.append('file', new Blob([rows.join('\n')], { type: 'text/csv' }), 'pool.csv');
  const r = await owner.call('POST', `/api/clan/${clanId}/tasks/upload_csv`, form);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** A small PNG screenshot stand-in. */
const png = () => sharp({ create: { width: 64, height: 48, channels: 3, background: '#c83232' } }).png().toBuffer();
/** A JPEG carrying EXIF text that must not survive. */
const jpegWithExif = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#2050a0' } })
    .jpeg()
    .withExif({ IFD0: { ImageDescription: 'SECRET-EXIF-TEXT', Copyright: 'SECRET-EXIF-TEXT' } })
    .toBuffer();

/** POST .../submissions as `api`: team_id, image bytes under `name` with `type`, and optional note. */
function submit(api: ApiClient, game: TestGame, teamId: number | string, bytes: Buffer | null, opts: { name?: string; type?: string; note?: string } = {}): Promise<Answer> {
  const form = new FormData();
  form.append('team_id', String(teamId));
  if (bytes) form.append('image', new Blob([new Uint8Array(bytes)], { type: opts.type ?? 'image/png' }), opts.name ?? 'proof.png');
  if (opts.note !== undefined) form.append('note', opts.note);
  return api.call('POST', `${game.path}/submissions`, form);
}

/** The stored game (members shape). */
async function gameOf(cast: Cast, game: TestGame): Promise<Game> {
  const r = await cast.owner.get(game.path);
  expect(r.status).toBe(200);
  return v.parse(GameAnswerSchema, r.body).game;
}

const stateOf = async (cast: Cast, game: TestGame, teamId: number) => (await gameOf(cast, game)).team_states.find((t) => t.team_id === teamId)!;


const expectError = (r: Answer, status: number, error?: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  if (error !== undefined) expect(r.body).toEqual({ error });
  else expect(typeof r.body.error).toBe('string');
};

const review = (api: ApiClient, cast: Cast, id: number, body: unknown) => api.put(`/api/clan/${cast.clanId}/submissions/${id}/review`, body);
const undo = (api: ApiClient, cast: Cast, id: number) => api.del(`/api/clan/${cast.clanId}/submissions/${id}/review`);
/** Sends join_reviews and waits for its acknowledgement `{joined}` (at most 5 s). */
const joinReviews = (w: Watcher, clanId: number): Promise<JoinReviewsAnswer> =>
  (w.socket as unknown as { timeout(ms: number): { emitWithAck(event: 'join_reviews', payload: { clan_id: number }): Promise<JoinReviewsAnswer> } })
    .timeout(5000).emitWithAck('join_reviews', { clan_id: clanId });

/** Files under a folder, recursively. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.join(d.parentPath, d.name));
}

describe.each(backends())('task proof and review (%s)', (backend) => {
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-proof-'));
  const suite = useServerSuite(backend, { UPLOAD_DIR: uploads, ...FAST });
  let cast: Cast;
  let admin: ApiClient;
  let adminId: number;
  const { open, watcher } = watchersOf(() => suite.url);

  beforeAll(async () => {
    cast = await castOf(suite.url, `proof-${backend}`);
    await fillPool(cast.owner, cast.clanId);
    admin = new ApiClient(suite.url);
    adminId = (await admin.onboard(`proof-admin-${backend}`, ['Referee'], { role: 'Member', clan_id: cast.clanId })).id;
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/members/${adminId}/role`, { role: 'Admin' })).status).toBe(200);
  });

  afterAll(() => {
    for (const w of open) w.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  it('proof_required: false unless sent on create, in every shape, changed by managers only through PUT .../rules', async () => {
    const plain = await newGame(cast, { start: false });
    expect((await gameOf(cast, plain)).proof_required).toBe(false);
    const proof = await newGame(cast, { proof: true, start: false });
    const g = await gameOf(cast, proof);
    expect(g.proof_required).toBe(true);
    for (const t of g.team_states) {
      expect(t.task_state).toBe('none');
      expect(Date.parse(t.square_since)).toBeGreaterThan(Date.now() - 60_000);
    }
    const pub = await new ApiClient(suite.url).get(`/api/public/game/${proof.gameId}`);
    expect(v.parse(PublicGameSchema, pub.body.game).proof_required).toBe(true);
    expect(pub.body.game.team_states[0]).toMatchObject({ task_state: 'none' });

    expectError(await cast.member.put(`${plain.path}/rules`, { proof_required: true }), 403);
    expectError(await new ApiClient(suite.url).put(`${plain.path}/rules`, { proof_required: true }), 401);
    expectError(await cast.owner.put(`${plain.path}/rules`, { proof_required: 'yes' }), 400, 'proof_required must be true or false.');
    expectError(await cast.owner.put(`${plain.path}/rules`, 'nope'), 400);
    const before = await gameOf(cast, plain);
    const r = await admin.put(`${plain.path}/rules`, { proof_required: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.proof_required).toBe(true);
    const after = await gameOf(cast, plain);
    expect(after.proof_required).toBe(true);
    expect(after.version).toBe(before.version + 1);
    expect(after.board_squares).toEqual(before.board_squares);
    expectError(await cast.owner.post(`/api/clan/${cast.clanId}/events/${plain.eventId}/game/`, { proof_required: 1 }), 400);
  });

  it('a roll opens the task of the landing square; with proof_required the next roll is refused with the exact text until a referee approves', async () => {
    const game = await newGame(cast, { proof: true });
    const leader = await watcher('leader', cast.owner);
    await leader.join(game.gameId);
    const start = await stateOf(cast, game, game.team1);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const rolled = await stateOf(cast, game, game.team1);
    expect(rolled.task_state).toBe('open');
    expect(rolled.current_position).toBeGreaterThan(1);
    expect(Date.parse(rolled.square_since)).toBeGreaterThanOrEqual(Date.parse(start.square_since));
    // The progress update carries the task state.
    const held = leader.held as Game;
    expect(held.team_states.find((t) => t.team_id === game.team1)).toMatchObject({ task_state: 'open', square_since: rolled.square_since });

    const gate = PROOF_MESSAGES.rollGate(rolled.current_position, 'Red Team');
    expect(gate).toBe(`Complete the task on square ${rolled.current_position} first: a referee must approve its proof before Red Team can roll again.`);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBe(gate);

    const sent = await submit(cast.member, game, game.team1, await png(), { note: 'Cerberus x10' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const submission = v.parse(SubmissionAnswerSchema, sent.body).submission;
    expect(submission).toMatchObject({
      game_id: game.gameId, team_id: game.team1, team_name: 'Red Team', team_color: '#aa0000', square_index: rolled.current_position,
      submitted_by: { username: 'sock-member-proof-' + backend, ign: 'PlainMember' }, note: 'Cerberus x10', status: 'pending',
      reviewer: null, reason: null, reviewed_at: null,
      image_url: `/api/submissions/${submission.id}/image`, thumb_url: `/api/submissions/${submission.id}/thumb`,
    });
    const square = (await gameOf(cast, game)).board_squares.find((s) => s.square_index === rolled.current_position)!;
    expect(submission.task_description).toBe(square.task_description);
    expect(submission.task_difficulty).toBe(square.task_difficulty);
    expect((await stateOf(cast, game, game.team1)).task_state).toBe('submitted');
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBe(gate);

    const approved = await review(admin, cast, submission.id, { decision: 'approve' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.submission).toMatchObject({ status: 'approved', reviewer: { user_id: adminId, username: `proof-admin-${backend}` }, reason: null });
    expect((await stateOf(cast, game, game.team1)).task_state).toBe('approved');
    const log = (await gameOf(cast, game)).log_entries.map((e) => e.message);
    expect(log).toContain(PROOF_LOG.sent('Red Team', rolled.current_position));
    expect(log).toContain(`Approved by proof-admin-${backend}: Red Team may roll.`);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    expect((await stateOf(cast, game, game.team1)).task_state).toBe('open');
    // Without proof_required the gate is off.
    expect((await cast.owner.put(`${game.path}/rules`, { proof_required: false })).status).toBe(200);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
  });

  it('who may send proof, and every refusal: 400, 403, 409 and 413', async () => {
    const game = await newGame(cast, { proof: true });
    const image = await png();
    // Before any roll the team is on Start: no task.
    expectError(await submit(cast.member, game, game.team1, image), 409, PROOF_MESSAGES.noTask(1));
    const leader = await watcher('leader-rules', cast.owner);
    await leader.join(game.gameId);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const square = (await stateOf(cast, game, game.team1)).current_position;

    expectError(await submit(new ApiClient(suite.url), game, game.team1, image), 401);
    expectError(await submit(cast.outsider, game, game.team1, image), 403);
    expectError(await submit(cast.leader2, game, game.team1, image), 403, PROOF_MESSAGES.notOnTeam);
    expectError(await submit(admin, game, game.team1, image), 403, PROOF_MESSAGES.notOnTeam);
    expectError(await submit(cast.member, game, 'abc', image), 400, PROOF_MESSAGES.teamRequired);
    expectError(await submit(cast.member, game, 999999, image), 400, PROOF_MESSAGES.teamNotInGame);
    expectError(await submit(cast.member, game, game.team1, null), 400, PROOF_MESSAGES.imageRequired);
    expectError(await cast.member.post(`${game.path}/submissions`, { team_id: game.team1 }), 400);
    expectError(await submit(cast.member, game, game.team1, image, { note: 'x'.repeat(PROOF_NOTE_MAX + 1) }), 400, PROOF_MESSAGES.noteTooLong);
    expectError(await submit(cast.member, game, game.team1, image, { note: 'bad\u0000note' }), 400);
    // The type comes from the bytes, never the name.
    expectError(await submit(cast.member, game, game.team1, Buffer.from('just some text, not an image\n'.repeat(20)), { name: 'shot.png', type: 'image/png' }), 400, PROOF_MESSAGES.notImage);
    expectError(await submit(cast.member, game, game.team1, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), { name: 'shot.png' }), 400, PROOF_MESSAGES.notImage);
    const truncated = (await sharp({ create: { width: 300, height: 300, channels: 3, background: '#123456' } }).png({ compressionLevel: 0 }).toBuffer()).subarray(0, 2000);
    expectError(await submit(cast.member, game, game.team1, truncated), 400);
    // 8 MiB: one byte more is 413 (checked on the file), far more is 413 before the body is read.
    expectError(await submit(cast.member, game, game.team1, Buffer.concat([image, Buffer.alloc(PROOF_MAX_BYTES + 1 - image.length)])), 413, PROOF_MESSAGES.tooLarge);
    expectError(await submit(cast.member, game, game.team1, Buffer.alloc(PROOF_MAX_BYTES + 512 * 1024)), 413);
    expect((await stateOf(cast, game, game.team1)).task_state).toBe('open');

    // A PNG named .txt is accepted; the team's state becomes submitted; a second one is refused.
    const sent = await submit(cast.member, game, game.team1, image, { name: 'screenshot.txt', type: 'text/plain' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expectError(await submit(cast.owner, game, game.team1, image), 409, PROOF_MESSAGES.alreadySubmitted(square));
    expect(await review(admin, cast, sent.body.submission.id, { decision: 'approve' })).toMatchObject({ status: 200 });
    expectError(await submit(cast.member, game, game.team1, image), 409, PROOF_MESSAGES.alreadyApproved(square));

    // Only while in-progress or paused.
    const idle = await newGame(cast, { proof: true, start: false });
    expectError(await submit(cast.member, idle, idle.team1, image), 409, PROOF_MESSAGES.notPlaying);
    expect((await cast.owner.put(`${game.path}/status`, { status: 'paused' })).status).toBe(200);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toMatch(/^Game is paused/);
  });

  it('review: managers only, never their own, deny needs a reason, only pending ones; denied proof may be sent again', async () => {
    const game = await newGame(cast, { proof: true });
    const leader = await watcher('leader-review', cast.owner);
    await leader.join(game.gameId);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const own = await submit(cast.owner, game, game.team1, await png());
    expect(own.status).toBe(201);
    const id = own.body.submission.id as number;
    expectError(await review(cast.owner, cast, id, { decision: 'approve' }), 403, 'You cannot review your own submission.');
    expectError(await review(cast.member, cast, id, { decision: 'approve' }), 403);
    expectError(await review(cast.outsider, cast, id, { decision: 'approve' }), 403);
    expectError(await review(new ApiClient(suite.url), cast, id, { decision: 'approve' }), 401);
    expectError(await review(admin, cast, id, { decision: 'maybe' }), 400, PROOF_MESSAGES.decision);
    expectError(await review(admin, cast, id, { decision: 'deny' }), 400, PROOF_MESSAGES.reasonRequired);
    expectError(await review(admin, cast, id, { decision: 'deny', reason: '   ' }), 400);
    expectError(await review(admin, cast, id, { decision: 'deny', reason: 'r'.repeat(REVIEW_REASON_MAX + 1) }), 400, PROOF_MESSAGES.reasonTooLong);
    expectError(await review(admin, cast, 99999999, { decision: 'approve' }), 404, PROOF_MESSAGES.notFound);
    expectError(await review(admin, cast, 0, { decision: 'approve' }), 400);

    // The queue: managers only, oldest first over the clan's games.
    const other = await newGame(cast, { proof: true });
    await leader.join(other.gameId);
    expect(await act(leader, 'roll_dice', other, other.team1, cast.ign.ownerA)).toBeNull();
    const later = await submit(cast.member, other, other.team1, await png());
    expect(later.status).toBe(201);
    const queue = await admin.get(`/api/clan/${cast.clanId}/submissions?status=pending`);
    expect(queue.status).toBe(200);
    const ids = v.parse(SubmissionListSchema, queue.body).submissions.map((s) => s.id);
    expect(ids.indexOf(id)).toBeLessThan(ids.indexOf(later.body.submission.id));
    expectError(await cast.member.get(`/api/clan/${cast.clanId}/submissions?status=pending`), 403);
    expectError(await admin.get(`/api/clan/${cast.clanId}/submissions?status=lost`), 400, PROOF_MESSAGES.statusQuery);

    // Deny with a reason (under the game path too), then send again, then approve.
    const denied = await admin.put(`${game.path}/submissions/${id}/review`, { decision: 'deny', reason: 'Wrong boss.' });
    expect(denied.status, JSON.stringify(denied.body)).toBe(200);
    expect(denied.body.submission).toMatchObject({ status: 'denied', reason: 'Wrong boss.', reviewer: { user_id: adminId } });
    expect((await stateOf(cast, game, game.team1)).task_state).toBe('denied');
    expect((await gameOf(cast, game)).log_entries.map((e) => e.message)).toContain(`Denied by proof-admin-${backend}: Wrong boss.`);
    expectError(await review(admin, cast, id, { decision: 'approve' }), 409, PROOF_MESSAGES.notPending);
    expectError(await admin.put(`${other.path}/submissions/${id}/review`, { decision: 'approve' }), 404);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toMatch(/^Complete the task on square/);
    const again = await submit(cast.member, game, game.team1, await png());
    expect(again.status).toBe(201);
    expect((await stateOf(cast, game, game.team1)).task_state).toBe('submitted');
    expect((await review(cast.owner, cast, again.body.submission.id, { decision: 'approve' })).status).toBe(200);

    // The game's list: clan members, newest first.
    const list = await cast.member.get(`${game.path}/submissions`);
    expect(list.status).toBe(200);
    expect(v.parse(SubmissionListSchema, list.body).submissions.map((s) => [s.id, s.status])).toEqual([[again.body.submission.id, 'approved'], [id, 'denied']]);
    expectError(await cast.outsider.get(`${game.path}/submissions`), 403);
  });

  it('undo: pending again within 5 minutes while the team has not rolled, 409 otherwise', async () => {
    const game = await newGame(cast, { proof: true });
    const leader = await watcher('leader-undo', cast.owner);
    await leader.join(game.gameId);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const id = (await submit(cast.member, game, game.team1, await png())).body.submission.id as number;
    expectError(await undo(admin, cast, id), 409, PROOF_MESSAGES.notReviewed);
    expect((await review(admin, cast, id, { decision: 'approve' })).status).toBe(200);
    expectError(await undo(cast.member, cast, id), 403);
    const undone = await undo(cast.owner, cast, id);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body.submission).toMatchObject({ status: 'pending', reviewer: null, reason: null, reviewed_at: null });
    expect((await stateOf(cast, game, game.team1)).task_state).toBe('submitted');
    expect((await gameOf(cast, game)).log_entries[0].message).toBe(PROOF_LOG.undone(`sock-owner-proof-${backend}`));

    // 4 min 50 s after the review: still possible; 5 min 10 s: too late (the review is aged in the database).
    const age = (seconds: number) => directSql(suite.env, 'UPDATE submissions SET reviewed_at = ? WHERE id = ?', [new Date(Date.now() - seconds * 1000).toISOString(), id]);
    expect((await review(admin, cast, id, { decision: 'deny', reason: 'Blurry.' })).status).toBe(200);
    await age(290);
    expect((await undo(admin, cast, id)).status).toBe(200);
    expect((await review(admin, cast, id, { decision: 'approve' })).status).toBe(200);
    await age(310);
    expectError(await undo(admin, cast, id), 409, PROOF_MESSAGES.undoExpired);
    await age(0);
    // After the team rolled: too late.
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    expectError(await undo(admin, cast, id), 409, PROOF_MESSAGES.undoExpired);
  });

  it('a revert withdraws the pending proof and returns to an approved task; reset deletes submissions and their files', async () => {
    const game = await newGame(cast, { proof: true });
    const leader = await watcher('leader-revert', cast.owner);
    await leader.join(game.gameId);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const first = (await submit(cast.member, game, game.team1, await png())).body.submission.id as number;
    expect((await review(admin, cast, first, { decision: 'approve' })).status).toBe(200);
    const firstSquare = (await stateOf(cast, game, game.team1)).current_position;
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const pending = (await submit(cast.member, game, game.team1, await jpegWithExif(), { name: 'p.jpg', type: 'image/jpeg' })).body.submission.id as number;
    expect(filesUnder(uploads).length).toBeGreaterThanOrEqual(4);

    expect(await act(leader, 'revert_roll', game, game.team1, cast.ign.ownerA)).toBeNull();
    const back = await stateOf(cast, game, game.team1);
    expect(back.current_position).toBe(firstSquare);
    expect(back.task_state).toBe('approved');
    const list = v.parse(SubmissionListSchema, (await cast.member.get(`${game.path}/submissions`)).body).submissions;
    expect(list.find((s) => s.id === pending)?.status).toBe('withdrawn');
    expect(list.find((s) => s.id === first)?.status).toBe('approved');
    expectError(await review(admin, cast, pending, { decision: 'approve' }), 409, PROOF_MESSAGES.notPending);
    // Back to Start: no task.
    expect(await act(leader, 'revert_roll', game, game.team1, cast.ign.ownerA)).toBeNull();
    expect((await stateOf(cast, game, game.team1)).task_state).toBe('none');

    const keys = (await directSql(suite.env, 'SELECT image_key, thumb_key FROM submissions WHERE game_id = ?', [game.gameId]))
      .flatMap((r: { image_key: string; thumb_key: string }) => [r.image_key, r.thumb_key]);
    expect(keys).toHaveLength(4);
    for (const k of keys) expect(fs.existsSync(path.join(uploads, k))).toBe(true);
    expect((await cast.owner.put(`${game.path}/reset`)).status).toBe(200);
    for (const k of keys) expect(fs.existsSync(path.join(uploads, k))).toBe(false);
    expect(v.parse(SubmissionListSchema, (await cast.member.get(`${game.path}/submissions`)).body).submissions).toEqual([]);
    expect((await gameOf(cast, game)).team_states.map((t) => t.task_state)).toEqual(['none', 'none']);
    expectError(await cast.member.get(`/api/submissions/${first}/image`), 404);

    // Deleting the game deletes its submissions and files too.
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const last = (await submit(cast.member, game, game.team1, await png())).body.submission.id as number;
    const [row] = await directSql(suite.env, 'SELECT image_key FROM submissions WHERE id = ?', [last]);
    expect(fs.existsSync(path.join(uploads, row.image_key))).toBe(true);
    expect((await cast.owner.del(game.path)).status).toBe(200);
    expect(fs.existsSync(path.join(uploads, row.image_key))).toBe(false);
    expect(await directSql(suite.env, 'SELECT id FROM submissions WHERE game_id = ?', [game.gameId])).toEqual([]);
  });

  it('images: clan members only, the stored type, nosniff, private caching; metadata stripped and a thumbnail', async () => {
    const game = await newGame(cast, { proof: true });
    const leader = await watcher('leader-images', cast.owner);
    await leader.join(game.gameId);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const original = await jpegWithExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    expect(original.includes('SECRET-EXIF-TEXT')).toBe(true);
    const sent = await submit(cast.member, game, game.team1, original, { name: 'photo.png', type: 'image/png' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const s = sent.body.submission as Submission;

    const fetchBytes = async (api: ApiClient, url: string) => {
      const headers: Record<string, string> = api.cookies.size ? { cookie: [...api.cookies].map(([k, val]) => `${k}=${val}`).join('; ') } : {};
      const res = await fetch(suite.url + url, { headers });
      return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
    };
    const image = await fetchBytes(cast.leader2, s.image_url!);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('cache-control')).toBe('private');
    const meta = await sharp(image.bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect([meta.width, meta.height]).toEqual([40, 30]);
    expect(meta.exif).toBeUndefined();
    expect(image.bytes.includes('SECRET-EXIF-TEXT')).toBe(false);
    const thumb = await fetchBytes(cast.member, s.thumb_url!);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect(thumb.headers.get('cache-control')).toBe('private');
    expect((await sharp(thumb.bytes).metadata()).format).toBe('webp');

    expect((await new ApiClient(suite.url).get(s.image_url!)).status).toBe(401);
    expectError(await cast.outsider.get(s.image_url!), 403);
    expectError(await cast.outsider.get(s.thumb_url!), 403);
    expectError(await cast.member.get('/api/submissions/99999999/image'), 404);
    expectError(await cast.member.get('/api/submissions/abc/thumb'), 400);
  });

  it('submission_update reaches the members room and the managers room, never spectators; join_reviews is for managers only; a demoted manager leaves the room', async () => {
    const game = await newGame(cast, { proof: true });
    const leader = await watcher('leader-live', cast.owner);
    const member = await watcher('member-live', cast.member);
    const spectator = await watcher('spectator-live');
    const outsider = await watcher('outsider-live', cast.outsider);
    const referee = await watcher('referee-reviews', admin);
    const plainReviews = await watcher('member-reviews', cast.leader2);
    for (const w of [leader, member, spectator, outsider]) await w.join(game.gameId);
    expect(await joinReviews(referee, cast.clanId)).toEqual({ joined: true });
    expect(await joinReviews(plainReviews, cast.clanId)).toEqual({ joined: false });
    expect(await joinReviews(outsider, cast.clanId)).toEqual({ joined: false });
    const badMark = referee.got.length;
    referee.socket.emit('join_reviews', { clan_id: 'x' } as never);
    expect(await referee.errorWithin(2000, badMark)).toMatch(/^Invalid join_reviews payload/);

    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    await spectator.next((x) => x.event === 'game_state_update' && x.payload.game_state.team_states.some((t) => t.task_state === 'open'), 5000, 0);
    const marks = new Map([spectator, outsider, plainReviews, member, referee].map((w) => [w, w.got.length]));
    const sent = await submit(cast.member, game, game.team1, await png());
    expect(sent.status).toBe(201);
    const id = sent.body.submission.id as number;
    const isUpdate = (status: string) => (x: { event: string; payload: unknown }) =>
      x.event === 'submission_update' && (x.payload as { submission: Submission }).submission.id === id && (x.payload as { submission: Submission }).submission.status === status;
    const got = await member.next(isUpdate('pending'), 5000, marks.get(member));
    expect(got.payload).toEqual({ submission: sent.body.submission });
    expect(v.parse(SubmissionSchema, (got.payload as { submission: unknown }).submission).status).toBe('pending');
    await referee.next(isUpdate('pending'), 5000, marks.get(referee));
    await spectator.next((x) => x.event === 'new_log_entry' && x.payload.log_entry.message === PROOF_LOG.sent('Red Team', sent.body.submission.square_index), 5000, marks.get(spectator));
    await spectator.next((x) => x.event === 'game_state_update' && x.payload.game_state.team_states.some((t) => t.task_state === 'submitted'), 5000, marks.get(spectator));

    let m = [member.got.length, referee.got.length];
    expect((await review(admin, cast, id, { decision: 'deny', reason: 'Try again.' })).status).toBe(200);
    await member.next(isUpdate('denied'), 5000, m[0]);
    await referee.next(isUpdate('denied'), 5000, m[1]);
    m = [member.got.length, referee.got.length];
    expect((await undo(admin, cast, id)).status).toBe(200);
    await member.next(isUpdate('pending'), 5000, m[0]);
    await referee.next(isUpdate('pending'), 5000, m[1]);
    m = [member.got.length, referee.got.length];
    expect(await act(leader, 'revert_roll', game, game.team1, cast.ign.ownerA)).toBeNull();
    await referee.next(isUpdate('withdrawn'), 5000, m[1]);
    await member.next(isUpdate('withdrawn'), 5000, m[0]);

    // The demoted Admin's socket leaves the managers room at once.
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/members/${adminId}/role`, { role: 'Member' })).status).toBe(200);
    const memberMark = member.got.length;
    const watcherOwner = await watcher('owner-reviews', cast.owner);
    expect(await joinReviews(watcherOwner, cast.clanId)).toEqual({ joined: true });
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const refMark = referee.got.length;
    const next = await submit(cast.member, game, game.team1, await png());
    expect(next.status).toBe(201);
    await watcherOwner.next((x) => x.event === 'submission_update' && (x.payload as { submission: Submission }).submission.id === next.body.submission.id, 5000, 0);
    await member.next((x) => x.event === 'submission_update' && (x.payload as { submission: Submission }).submission.id === next.body.submission.id, 5000, memberMark);
    expect(referee.count('submission_update', refMark)).toBe(0);
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/members/${adminId}/role`, { role: 'Admin' })).status).toBe(200);

    // Promoted again, the referee joins again; after leaving the clan the room is left at once.
    const nextId = next.body.submission.id as number;
    const isNext = (status: string) => (x: { event: string; payload: unknown }) =>
      x.event === 'submission_update' && (x.payload as { submission: Submission }).submission.id === nextId && (x.payload as { submission: Submission }).submission.status === status;
    const joinMark = referee.got.length;
    expect(await joinReviews(referee, cast.clanId)).toEqual({ joined: true });
    expect((await review(cast.owner, cast, nextId, { decision: 'approve' })).status).toBe(200);
    await referee.next(isNext('approved'), 5000, joinMark);
    expect((await admin.del(`/api/clan/${cast.clanId}/members/${adminId}`)).status).toBe(200);
    const leftMark = referee.got.length;
    const ownerMark = watcherOwner.got.length;
    expect((await undo(cast.owner, cast, nextId)).status).toBe(200);
    await watcherOwner.next(isNext('pending'), 5000, ownerMark);
    expect(referee.count('submission_update', leftMark)).toBe(0);
    expect((await cast.owner.post(`/api/clan/${cast.clanId}/members`, { user_id: adminId, role: 'Admin' })).status).toBe(200);

    for (const w of [spectator, outsider, plainReviews]) expect(w.count('submission_update')).toBe(0);
  });

  it('every bad input is a 4xx, never a 500', async () => {
    const game = await newGame(cast, { proof: true });
    const base = `/api/clan/${cast.clanId}/events/${game.eventId}/game`;
    const paths = [
      ['POST', `${base}/abc/submissions`], ['POST', `${base}/99999999999/submissions`], ['GET', `${base}/0/submissions`],
      ['PUT', `${game.path}/submissions/abc/review`], ['DELETE', `${game.path}/submissions/-1/review`], ['PUT', `${base}/abc/rules`],
      ['GET', `/api/clan/abc/submissions`], ['PUT', `/api/clan/${cast.clanId}/submissions/99999999999/review`],
    ] as const;
    for (const [method, url] of paths) {
      const r = await admin.call(method, url, method === 'GET' ? undefined : '{"decision":');
      expect(r.status, `${method} ${url}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${method} ${url}`).toBeLessThan(500);
      expect(typeof r.body.error).toBe('string');
    }
    const raw = await admin.call('POST', `${game.path}/submissions`, 'not multipart', { 'content-type': 'multipart/form-data; boundary=zzz' });
    expect(raw.status).toBe(400);
  });
});

describe('task proof with the image store on a local S3 stand-in', () => {
  let s3: { endpoint: string; stop: () => Promise<void> };
  let server: TestServer | undefined;
  let cast: Cast;
  const open: Watcher[] = [];
  const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-proof-s3-'));

  beforeAll(async () => {
    s3 = await startS3StandIn('proof-images');
    const { startServer } = await import('../support/server');
    server = await startServer({
      SQLITE_FILE: path.join(dbDir, 'test.db'), S3_BUCKET: 'proof-images', S3_ENDPOINT: s3.endpoint, S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', UPLOAD_DIR: path.join(dbDir, 'unused'), ...FAST,
    });
    cast = await castOf(server.url, 's3');
    await fillPool(cast.owner, cast.clanId);
  });

  afterAll(async () => {
    for (const w of open) w.close();
    await server?.stop();
    await s3?.stop();
    fs.rmSync(dbDir, { recursive: true, force: true });
  });

  it('stores, serves and deletes the images in the bucket', async () => {
    const game = await newGame(cast, { proof: true });
    const leader = await connect(server!.url, 'leader-s3', cast.owner);
    open.push(leader);
    await leader.join(game.gameId);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const sent = await submit(cast.member, game, game.team1, await png());
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const image = await cast.member.call('GET', sent.body.submission.image_url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(fs.existsSync(path.join(dbDir, 'unused'))).toBe(false);
    const { S3Store } = await import('../../server/submissions/storage');
    const store = new S3Store({ bucket: 'proof-images', endpoint: s3.endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
    const sqlite = { SQLITE_FILE: path.join(dbDir, 'test.db') };
    const [row] = await directSql(sqlite, 'SELECT image_key, thumb_key FROM submissions WHERE id = ?', [sent.body.submission.id]);
    expect(await store.get(row.image_key)).not.toBeNull();
    expect(await store.get(row.thumb_key)).not.toBeNull();
    expect((await cast.owner.put(`${game.path}/reset`)).status).toBe(200);
    expect(await directSql(sqlite, 'SELECT id FROM submissions')).toEqual([]);
    expect(await store.get(row.image_key)).toBeNull();
    expect(await store.get(row.thumb_key)).toBeNull();
  });
});

describe('task proof across two server processes sharing PostgreSQL and Redis', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!redisUrl || !databaseUrl) {
    it.skip('skipped: set TEST_REDIS_URL and TEST_DATABASE_URL to run it', () => {});
    return;
  }
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-proof-two-'));
  const site = useTwoProcesses(redisUrl, { UPLOAD_DIR: uploads, ...FAST });
  let cast: Cast;
  const open: Watcher[] = [];

  beforeAll(async () => {
    cast = await castOf(site.a.url, 'proof-redis');
    await fillPool(cast.owner, cast.clanId);
  });

  afterAll(() => {
    for (const w of open) w.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  it('proof sent through one process reaches the members and managers rooms on the other, not its spectators; the gate holds on both', async () => {
    const game = await newGame(cast, { proof: true });
    const leaderA = await connect(site.a.url, 'leader@a', cast.owner);
    const memberB = await connect(site.b.url, 'member@b', cast.member);
    const spectatorB = await connect(site.b.url, 'spectator@b');
    const refereeB = await connect(site.b.url, 'referee@b', cast.owner);
    open.push(leaderA, memberB, spectatorB, refereeB);
    for (const w of [leaderA, memberB, spectatorB]) await w.join(game.gameId);
    expect(await joinReviews(refereeB, cast.clanId)).toEqual({ joined: true });
    expect(await act(leaderA, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const square = (await stateOf(cast, game, game.team1)).current_position;
    expect(await act(leaderA, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBe(PROOF_MESSAGES.rollGate(square, 'Red Team'));
    const onA = new ApiClient(site.a.url);
    onA.cookies = cast.member.cookies;
    const marks = [memberB.got.length, refereeB.got.length, spectatorB.got.length, leaderA.got.length];
    const sent = await submit(onA, game, game.team1, await png());
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const id = sent.body.submission.id as number;
    const isUpdate = (status: string) => (x: { event: string; payload: unknown }) =>
      x.event === 'submission_update' && (x.payload as { submission: Submission }).submission.id === id && (x.payload as { submission: Submission }).submission.status === status;
    await memberB.next(isUpdate('pending'), 5000, marks[0]);
    await refereeB.next(isUpdate('pending'), 5000, marks[1]);
    await spectatorB.next((x) => x.event === 'game_state_update' && x.payload.game_state.team_states.some((t) => t.task_state === 'submitted'), 5000, marks[2]);

    // A second referee on b reviews; the Leader on a may roll again.
    const adminB = new ApiClient(site.b.url);
    const adminId = (await adminB.onboard('proof-redis-admin', ['RedisRef'], { role: 'Member', clan_id: cast.clanId })).id;
    expect((await cast.owner.put(`/api/clan/${cast.clanId}/members/${adminId}/role`, { role: 'Admin' })).status).toBe(200);
    expect((await review(adminB, cast, id, { decision: 'approve' })).status).toBe(200);
    await memberB.next(isUpdate('approved'), 5000, marks[0]);
    await refereeB.next(isUpdate('approved'), 5000, marks[1]);
    await leaderA.next((x) => x.event === 'game_state_update' && x.payload.game_state.team_states.some((t) => t.task_state === 'approved'), 5000, marks[3]);
    expect(await act(leaderA, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    expect(spectatorB.count('submission_update')).toBe(0);
  });
});
