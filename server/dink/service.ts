import crypto from 'node:crypto';
import { loadSharp } from '../images/sharp';
import * as v from 'valibot';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Db } from '../db/schema';
import type { Deps } from '../http/context';
import { nowIso } from '../time';
import { redisChannelKey } from '../redis';
import { findGame, storedOverrideTask, storedTaskState, updateGame } from '../games/repository';
import { awaited, claim, inGame, run } from '../games/play';
import { addEntry, lastStayImage, progressText, stayShares, submitTotal } from '../games/progress';
import { isTeamTotal, parseProgress, postWorth, startProgress, totalSummary, type TeamProgress } from '../../contract/progress';
import { STAND_IN_KEY_MARK } from '../submissions/repository';
import { processProofImage, type ProcessedImage } from '../submissions/images';
import { storedBytes } from '../submissions/service';
import { hasUploadRoom } from '../quotas/repository';
import { parseStoredRule } from '../tasks/repository';
import { notFound } from '../errors';
import { log } from '../observability/log';
import { countDinkPost } from '../observability/metrics';
import type { LogEntry } from '../../contract/gameApi';
import { SUBMITTABLE_STATES, hasTask } from '../../contract/submission';
import {
  DINK_DEDUPE_MS,
  DINK_HASH_PREFIX_LENGTH,
  DINK_MESSAGES,
  DINK_RATE_PER_MINUTE,
  ignKey,
  matchesAutoRule,
  readDinkPayload,
  type AutoRule,
  type DinkAccount,
  type DinkEvidence,
  type DinkLink,
  type DinkOutcome,
  type DinkPost,
  type DinkReading,
} from '../../contract/dink';
import { clearPinnedAccount, countAccountPost, eventTeamIgns, pinAccountHash, pinnedAccountHash, pinnedAccounts, recordPost, takeDigest, type DinkLinkRow } from './repository';
import { notifyProofWaiting } from '../push/service';

/** A fresh link token: 32 random bytes, base64url (43 characters; docs/server.md §13). */
export function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/**
 * The receiver's path token: the shape newToken makes (43 base64url characters). Anything else is
 * refused 404 DINK_MESSAGES.notFound before any lookup (POST /api/dink/{token}, docs/server.md §13).
 */
export const TokenParamSchema = v.object({ token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, DINK_MESSAGES.notFound)) });

/** The link as answered to managers: `<origin>/api/dink/{token}`. */
export function linkOf(row: DinkLinkRow, origin: string): DinkLink {
  return { url: `${origin}/api/dink/${row.token}`, auto_approve: row.auto_approve === 1, created_at: row.created_at };
}

/** Per-token post counters of each app (its Deps): in Redis when REDIS_URL is set (one budget for every process), else in memory. */
const limiters = new WeakMap<Deps, RateLimiterAbstract>();

/**
 * Counts one post to a live token (docs/server.md §13: 60 a minute per token); false past the
 * limit. The key is a hash of the token (never the token itself). With Redis a Redis outage falls
 * back to this process's memory (insurance), so it never blocks posts.
 */
export async function takeRate(deps: Deps, token: string): Promise<boolean> {
  let limiter = limiters.get(deps);
  if (!limiter) {
    const keyPrefix = `${redisChannelKey(deps.config)}:dink`;
    const memory = new RateLimiterMemory({ points: DINK_RATE_PER_MINUTE, duration: 60, keyPrefix });
    limiter = deps.redis ? new RateLimiterRedis({ storeClient: deps.redis, points: DINK_RATE_PER_MINUTE, duration: 60, keyPrefix, insuranceLimiter: memory }) : memory;
    limiters.set(deps, limiter);
  }
  try {
    await limiter.consume(crypto.createHash('sha256').update(token).digest('hex').slice(0, 32));
    return true;
  } catch (err) {
    if (err instanceof RateLimiterRes) return false;
    log.error({ err }, '[dink] rate limiter failed');
    return true;
  }
}

/** A post that passed the 404/429/400/413 checks, ready to be judged. */
export interface DinkReceipt {
  link: DinkLinkRow;
  clanId: number;
  /** The raw `payload_json` text and its parsed value. */
  payloadText: string;
  payload: unknown;
  /** The screenshot's bytes (PNG or JPEG by its bytes), or null. */
  file: Buffer | null;
}

/** What a judged post changed: the game, the submission made and the log entries, for the broadcast. */
interface DinkChange {
  gameId: number;
  submissionId: number | null;
  log: LogEntry[];
}

/** Who a post is for and where their team stands, when it may count. */
interface Counted {
  game: { id: number; clan_id: number };
  member: { teamId: number; userId: number; ign: string };
  team: { id: number; current_position: number; square_since: string; name: string; color: string; progress: string | null };
  square: { task_description: string; task_difficulty: string | null };
  evidence: DinkEvidence;
  /** The task's rule the post matched (a team total when `team_total` is set). */
  rule: AutoRule;
}

/**
 * The event's game (one per event) and its status, the post's player on a team of it, and that
 * team's square, judged in the contract's order after `duplicate` (docs/server.md §13):
 * not_running, unknown_player, suspicious, no_task, no_match; else the post counts. A malformed
 * post (playerName missing or not usable text, a type that is not one of DINK_TYPES, its fields
 * missing) is 'no_match' right after not_running (never a submission).
 * Pins the first account hash seen for the IGN. With `lock`, the game row is locked first (inside
 * the transaction that makes the submission).
 */
async function assess(db: Db, eventId: number, reading: DinkReading, at: string, lock: { dialect: Deps['dialect'] } | null): Promise<Exclude<DinkOutcome, 'duplicate' | 'submitted' | 'approved'> | Counted> {
  const found = await db.selectFrom('games').select(['id', 'clan_id', 'event_id', 'status']).where('event_id', '=', eventId).executeTakeFirst();
  if (!found) return 'not_running';
  const game = lock ? await findGame(db, { clanId: found.clan_id, eventId, gameId: found.id }, lock) : found;
  if (game.status !== 'in-progress') return 'not_running';
  // A malformed post (no usable playerName, an unknown type, its fields missing) is recorded
  // 'no_match' and never becomes a submission (docs/server.md §13).
  if (reading.player === null || reading.evidence === null) return 'no_match';
  const key = ignKey(reading.player);
  const members = await db.selectFrom('team_members')
    .innerJoin('igns', 'igns.id', 'team_members.ign_id')
    .innerJoin('team_states', (j) => j.onRef('team_states.team_id', '=', 'team_members.team_id').on('team_states.game_id', '=', game.id))
    .select(['team_members.team_id', 'igns.user_id', 'igns.ign'])
    .where('team_members.event_id', '=', eventId)
    .orderBy('team_members.id')
    .execute();
  const member = members.find((m) => ignKey(m.ign) === key);
  if (!member) return 'unknown_player';
  if (reading.account_hash !== null) {
    if ((await pinAccountHash(db, eventId, key, reading.account_hash)) !== reading.account_hash) return 'suspicious';
  } else if ((await pinnedAccountHash(db, eventId, key)) !== null) {
    // A post without a hash for an IGN whose hash is pinned cannot prove it is that account.
    return 'suspicious';
  }
  const team = await db.selectFrom('team_states')
    .innerJoin('teams', 'teams.id', 'team_states.team_id')
    .select(['team_states.id', 'team_states.current_position', 'team_states.task_state', 'team_states.square_since', 'team_states.task_override', 'team_states.progress', 'teams.name', 'teams.color'])
    .where('team_states.game_id', '=', game.id)
    .where('team_states.team_id', '=', member.team_id)
    .executeTakeFirstOrThrow();
  const onBoard = await db.selectFrom('board_squares').select(['task_id', 'task_description', 'task_difficulty'])
    .where('game_id', '=', game.id).where('square_index', '=', team.current_position).executeTakeFirst();
  // A substitute from relief (docs/server.md §15) is the team's task on this square: its rule
  // judges the post and the submission is for it.
  const override = storedOverrideTask(team.task_override);
  const square = override && onBoard ? { task_id: override.task_id, task_description: override.description, task_difficulty: override.difficulty } : onBoard;
  // What happened before the team reached the square never counts for it.
  if (!square || !hasTask(square) || !SUBMITTABLE_STATES.includes(storedTaskState(team.task_state)) || at < team.square_since) return 'no_task';
  const taskRow = square.task_id === null ? null : await db.selectFrom('tasks').select('auto_rule').where('id', '=', square.task_id).executeTakeFirst();
  const rule = parseStoredRule(taskRow?.auto_rule ?? null);
  if (!rule || !reading.evidence || !matchesAutoRule(rule, reading.evidence)) return 'no_match';
  return {
    game: { id: game.id, clan_id: game.clan_id },
    member: { teamId: member.team_id, userId: member.user_id, ign: member.ign },
    team,
    square,
    evidence: reading.evidence,
    rule,
  };
}

/** The stand-in image of a Dink submission sent without a screenshot (a plain dark 640x360 PNG and its thumbnail), made once. */
let placeholder: Promise<ProcessedImage> | null = null;
function placeholderImage(): Promise<ProcessedImage> {
  placeholder ??= (async () => {
    const sharp = await loadSharp();
    const image = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#2b2d31' } }).png().toBuffer();
    const thumb = await sharp(image).resize(320, 180).webp({ quality: 75 }).toBuffer();
    return { image, imageType: 'image/png', thumb, thumbType: 'image/webp' };
  })();
  return placeholder;
}

/**
 * Judges a post (docs/server.md §13) and records it: duplicate (the same JSON and image bytes taken
 * within 10 minutes), then assess's outcomes; a post that counts becomes a submission of the
 * member's team as if the member had sent it (`source: 'dink'`, its evidence, the screenshot as
 * its image, or a plain stand-in when it had none), the team's state `submitted`; with the link's
 * auto_approve and a screenshot it is approved at once instead (reviewer null, `auto`, the team's
 * state `approved`, log DINK_MESSAGES.autoApproved, a Discord review announcement). A post that
 * counts but whose image would take the clan past its upload quota is `over_quota` and stores
 * nothing (docs/server.md §18 "Quotas"). The judging is
 * repeated on the locked game row inside the transaction. Every post is counted in the metrics,
 * kept in the recent list and sent live to the clan's managers.
 */
export async function judgePost(deps: Deps, receipt: DinkReceipt): Promise<DinkPost> {
  const { db, dialect } = deps;
  const eventId = receipt.link.event_id;
  const reading = readDinkPayload(receipt.payload);
  const at = nowIso();
  let outcome: DinkOutcome;
  let change: DinkChange | null = null;
  const digest = crypto.createHash('sha256').update(receipt.payloadText).update('\u0000').update(receipt.file ?? Buffer.alloc(0)).digest('hex');
  if (!(await takeDigest(db, eventId, digest, DINK_DEDUPE_MS))) {
    outcome = 'duplicate';
  } else {
    const first = await assess(db, eventId, reading, at, null);
    if (typeof first === 'string') {
      outcome = first;
    } else if (isTeamTotal(first.rule)) {
      const made = await countTowardsTotal(deps, receipt, reading, digest, at);
      outcome = made.outcome;
      change = made.change;
    } else {
      const made = await makeSubmission(deps, receipt, reading, at);
      outcome = made.outcome;
      change = made.change;
    }
  }
  countDinkPost(outcome);
  // The pin's post count (docs/server.md §13 'Pinned accounts'): every post taken (not a
  // duplicate) under the IGN with its pinned hash.
  if (outcome !== 'duplicate' && reading.player !== null && reading.account_hash !== null) {
    await countAccountPost(db, eventId, ignKey(reading.player), reading.account_hash);
  }
  const post = await recordPost(db, eventId, { at, player_name: reading.player_name, type: reading.type, summary: reading.summary, outcome });
  if (change) {
    try {
      await deps.broadcaster.gameChanged(change.gameId, 'progress', change.log);
      if (change.submissionId !== null) await deps.broadcaster.submissionChanged(change.submissionId);
    } catch (err) {
      log.error({ err, game_id: change.gameId }, '[dink] broadcast failed');
    }
  }
  // Proof from the game waiting for a referee: 'Proof waiting' to the clan's managers (docs/server.md §20).
  if (outcome === 'submitted') await notifyProofWaiting(deps, receipt.clanId, null);
  await deps.broadcaster.dinkPosted(receipt.clanId, eventId, post);
  return post;
}

/** The submission of a post that counts: images stored first, then one transaction that judges again on the locked game. */
async function makeSubmission(deps: Deps, receipt: DinkReceipt, reading: DinkReading, at: string): Promise<{ outcome: DinkOutcome; change: DinkChange | null }> {
  const { db, dialect, images } = deps;
  let image: ProcessedImage | null = null;
  if (receipt.file) {
    // A screenshot that does not decode counts as none: the post waits for a person.
    image = await processProofImage(receipt.file).catch(() => null);
  }
  const screenshot = image !== null;
  const stored = image ?? (await placeholderImage());
  // The clan's upload quota (docs/server.md §18 "Quotas"): a post that would take the clan past it
  // is recorded over_quota and stores nothing.
  const bytes = storedBytes(stored);
  if (!(await hasUploadRoom(db, deps.config, receipt.clanId, bytes))) return { outcome: 'over_quota', change: null };
  const stem = `proofs/dink/${receipt.link.event_id}/${crypto.randomBytes(12).toString('hex')}`;
  // A stand-in's keys say so: the submission then reads `screenshot: false`.
  const mark = screenshot ? '' : STAND_IN_KEY_MARK;
  const keys = { image: `${stem}${mark}.${stored.imageType.split('/')[1] ?? 'bin'}`, thumb: `${stem}${mark}.thumb.webp` };
  await images.put(keys.image, stored.image, stored.imageType);
  await images.put(keys.thumb, stored.thumb, stored.thumbType);
  try {
    const result = await db.transaction().execute(async (trx) => {
      const counted = await assess(trx, receipt.link.event_id, reading, at, { dialect });
      if (typeof counted === 'string') return { outcome: counted as DinkOutcome, change: null };
      const auto = receipt.link.auto_approve === 1 && screenshot;
      const { game, member, team, square, evidence } = counted;
      // One way to make an automatic submission (games/progress.ts submitTotal), for a single post
      // as for a reached team total: the same row, task state, log line and review announcement.
      const made = await submitTotal(trx, game,
        { stateId: team.id, teamId: member.teamId, name: team.name, color: team.color, position: team.current_position, squareSince: team.square_since },
        square,
        { source: 'dink', approve: auto, by: { userId: member.userId, ign: member.ign }, evidence, image: { key: keys.image, type: stored.imageType, thumbKey: keys.thumb, thumbType: stored.thumbType, bytes } });
      await updateGame(trx, game.id, {});
      return { outcome: (auto ? 'approved' : 'submitted') as DinkOutcome, change: { gameId: game.id, submissionId: made.submissionId, log: [made.entry] } };
    });
    if (!result.change) await images.delete([keys.image, keys.thumb]).catch(() => {});
    return result;
  } catch (err) {
    await images.delete([keys.image, keys.thumb]).catch(() => {});
    throw err;
  }
}

/** Thrown inside a team-total change to undo it and answer the post's outcome (nothing was added). */
class TotalOutcome extends Error {
  override name = 'TotalOutcome';
  constructor(readonly outcome: DinkOutcome) {
    super(outcome);
  }
}

/**
 * A post that matches a team-total rule (docs/server.md §17 'Progress and Dink totals'): its
 * screenshot stored first, then one game change (play.ts inGame: the game claimed, version + 1,
 * retried on a lost race) that judges the post again and adds it to the team's stay on the
 * square: LOOT the matching quantities, other types 1; with `distinct` 1 per rule name not
 * counted yet on this stay. The unique keys of progress_entries (the post's digest, each distinct
 * name) make a post or name count once whichever process takes it. A post that adds 0 changes
 * nothing (rolled back) and is `counted`. Else the team's progress is summed again from the stay's
 * entries and saved; when `have` reaches `need` the team's one submission is made (submitTotal:
 * source 'dink', evidence the total and each share, the last screenshot among the counted posts,
 * a stand-in without one), approved at once with auto-approve on and a screenshot, else pending;
 * the outcome is then `approved` or `submitted`, else `counted`.
 */
async function countTowardsTotal(deps: Deps, receipt: DinkReceipt, reading: DinkReading, digest: string, at: string): Promise<{ outcome: DinkOutcome; change: DinkChange | null }> {
  const { db, dialect, images } = deps;
  const eventId = receipt.link.event_id;
  const game = await db.selectFrom('games').select('id').where('event_id', '=', eventId).executeTakeFirst();
  if (!game) return { outcome: 'not_running', change: null };
  const shot = receipt.file ? await processProofImage(receipt.file).catch(() => null) : null;
  // A screenshot past the clan's upload quota: the post is not counted and stores nothing (docs/server.md §18 "Quotas").
  if (shot && !(await hasUploadRoom(db, deps.config, receipt.clanId, storedBytes(shot)))) return { outcome: 'over_quota', change: null };
  const stem = `proofs/dink/${eventId}/${crypto.randomBytes(12).toString('hex')}`;
  const image = shot && { key: `${stem}.${shot.imageType.split('/')[1] ?? 'bin'}`, type: shot.imageType, thumbKey: `${stem}.thumb.webp`, thumbType: shot.thumbType, bytes: storedBytes(shot) };
  if (shot && image) {
    await images.put(image.key, shot.image, shot.imageType);
    await images.put(image.thumbKey, shot.thumb, shot.thumbType);
  }
  // Stand-in images written for a submission whose transaction was then undone.
  const written: string[] = [];
  try {
    const result = await inGame(db, dialect, { sync: false }, function* () {
      yield* claim(db, dialect, game.id, null, nowIso());
      const counted = yield* awaited((trx) => assess(trx, eventId, reading, at, null));
      if (typeof counted === 'string') throw new TotalOutcome(counted);
      const { rule, member, team, square, evidence } = counted;
      if (!isTeamTotal(rule)) throw new TotalOutcome('no_match');
      const worth = postWorth(rule, evidence);
      const stay = { game_id: counted.game.id, team_id: member.teamId, square_since: team.square_since };
      const now = nowIso();
      let added = 0;
      if (rule.distinct) {
        for (const name of worth.names) {
          if (yield* awaited((trx) => addEntry(trx, stay, { key: `name:${name}`, ign: member.ign, amount: 0, at: now }))) added += 1;
        }
        yield* awaited((trx) => addEntry(trx, stay, { key: `post:${digest}`, ign: member.ign, amount: added, at: now, image }));
      } else if (yield* awaited((trx) => addEntry(trx, stay, { key: `post:${digest}`, ign: member.ign, amount: worth.amount, at: now, image }))) {
        added = worth.amount;
      }
      if (added === 0) throw new TotalOutcome('counted');
      const by = yield* awaited((trx) => stayShares(trx, stay));
      // The target and unit are the rule's as it is now: a manager who changed the task's total
      // while the team stands on it is followed, not the one stored when the team arrived.
      const current = startProgress(rule, team.square_since);
      const stored = parseProgress(team.progress) ?? current;
      if (!stored || !current) throw new TotalOutcome('no_match');
      const progress: TeamProgress = { ...stored, need: current.need, unit: current.unit, have: by.reduce((sum, s) => sum + s.amount, 0), by, updated_at: now };
      yield* run(db.updateTable('team_states').set({ progress: progressText(progress) }).where('id', '=', team.id).compile());
      if (progress.have < progress.need) return { outcome: 'counted' as DinkOutcome, change: { gameId: counted.game.id, submissionId: null, log: [] as LogEntry[] } };
      let last = yield* awaited((trx) => lastStayImage(trx, stay));
      const screenshot = last !== null;
      if (!last) {
        const standIn = yield* awaited(() => placeholderImage());
        const base = `proofs/dink/${eventId}/${crypto.randomBytes(12).toString('hex')}${STAND_IN_KEY_MARK}`;
        // The stand-in is new in the store: its bytes count for the clan (a reused screenshot's do not).
        const keys = { key: `${base}.png`, type: standIn.imageType, thumbKey: `${base}.thumb.webp`, thumbType: standIn.thumbType, bytes: storedBytes(standIn) };
        last = keys;
        written.push(keys.key, keys.thumbKey);
        yield* awaited(async () => {
          await images.put(keys.key, standIn.image, standIn.imageType);
          await images.put(keys.thumbKey, standIn.thumb, standIn.thumbType);
        });
      }
      const approve = receipt.link.auto_approve === 1 && screenshot;
      const made = yield* awaited((trx) => submitTotal(trx, counted.game,
        { stateId: team.id, teamId: member.teamId, name: team.name, color: team.color, position: team.current_position, squareSince: team.square_since },
        square,
        { source: 'dink', approve, by: { userId: member.userId, ign: member.ign }, evidence: { type: rule.type, summary: totalSummary(rule, progress) }, image: last }));
      return { outcome: (approve ? 'approved' : 'submitted') as DinkOutcome, change: { gameId: counted.game.id, submissionId: made.submissionId, log: [made.entry] } };
    });
    return result;
  } catch (err) {
    if (image) await images.delete([image.key, image.thumbKey]).catch(() => {});
    if (written.length > 0) await images.delete(written).catch(() => {});
    if (err instanceof TotalOutcome) return { outcome: err.outcome, change: null };
    throw err;
  }
}

/**
 * The event's pinned Dink accounts (docs/server.md §13 'Pinned accounts'), one per IGN on a team of
 * the event whose key has a pin, sorted by IGN: `{ign_id, ign, account_hash_prefix (first 8
 * characters), pinned_at, posts}`. A pin whose IGN is no longer on a team is left out: it judges
 * nothing (unknown_player comes first) until the IGN is on a team again, and then it is listed.
 */
export async function accountsOf(db: Db, eventId: number): Promise<DinkAccount[]> {
  const pins = new Map((await pinnedAccounts(db, eventId)).map((p) => [p.ign_key, p]));
  const out: DinkAccount[] = [];
  const seen = new Set<string>();
  for (const m of await eventTeamIgns(db, eventId)) {
    const key = ignKey(m.ign);
    const pin = pins.get(key);
    if (!pin || seen.has(key)) continue;
    seen.add(key);
    out.push({ ign_id: m.ign_id, ign: m.ign, account_hash_prefix: pin.account_hash.slice(0, DINK_HASH_PREFIX_LENGTH), pinned_at: pin.created_at, posts: Number(pin.posts) });
  }
  return out.sort((a, b) => a.ign.localeCompare(b.ign, 'en', { sensitivity: 'base' }));
}

/**
 * Clears the pin of IGN `ignId` in the event (docs/server.md §13 'Pinned accounts'): the IGN's
 * next post with a hash pins that hash. Nothing to clear is not an error (two managers may
 * both press Clear). 404 DINK_MESSAGES.ignNotOnTeam when the IGN is not on a team of the event.
 */
export async function clearAccount(db: Db, eventId: number, ignId: number): Promise<void> {
  const member = (await eventTeamIgns(db, eventId)).find((m) => m.ign_id === ignId);
  if (!member) throw notFound(DINK_MESSAGES.ignNotOnTeam(ignId));
  await clearPinnedAccount(db, eventId, ignKey(member.ign));
}
