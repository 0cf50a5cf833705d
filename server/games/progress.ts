import type { Db } from '../db/schema';
import type { Deps } from '../http/context';
import { nowIso } from '../time';
import { log } from '../observability/log';
import { insertLog, listTeamStates, parseWinners, storedOverrideTask, storedTaskState } from './repository';
import { awaited, claim, inGame, run } from './play';
import { insertSubmission } from '../submissions/repository';
import { announceReview } from '../discord/outbox';
import { parseStoredRule } from '../tasks/repository';
import { isGameStatus, type GameStatus } from '../../contract/game';
import { PROOF_LOG, SUBMITTABLE_STATES } from '../../contract/submission';
import { DINK_MESSAGES, isWomRuleType, type AutoRule } from '../../contract/dink';
import { isTeamTotal, parseProgress, sharesOf, startProgress, totalSummary, type ProgressError, type ProgressShare, type TeamProgress } from '../../contract/progress';
import type { LogEntry } from '../../contract/gameApi';
import type { GameProgress } from '../../contract/socket';

// ---------------------------------------------------------------------------------------------
// Team totals (docs/server.md §17 'Progress and Dink totals'): the team state's `progress` as
// stored (team_states.progress), the arrival hook, the reached total's submission, and the API
// the Wise Old Man checks use (teamsOnWomSquares, recordWomProgress, onTeamArrival).
// ---------------------------------------------------------------------------------------------

/** A progress as team_states.progress stores it: JSON text, or null for none. */
export function progressText(progress: TeamProgress | null): string | null {
  return progress === null ? null : JSON.stringify(progress);
}

/** A team that has just arrived on a square with a team total: the stay is named by its square_since (ISO). */
export interface TeamArrival {
  gameId: number;
  teamId: number;
  squareSince: string;
}

type ArrivalListener = (arrival: TeamArrival) => void;
const arrivalListeners = new Set<ArrivalListener>();

/**
 * Subscribes `listener` to arrivals on team-total squares in this process: called after COMMIT of
 * a roll, revert or relief substitute whose team now has a `progress` (any team total; a Wise Old
 * Man listener checks the type with teamOnWomSquare). Returns the unsubscribe function. Only the
 * process that applied the change hears it, and a crash between COMMIT and the call loses it: a
 * listener that must not miss one (the Wise Old Man baselines) also sweeps teamsOnWomSquares
 * now and then, which also finds teams already on such squares when a game starts or resumes.
 * A listener that throws is logged and the others still run.
 */
export function onTeamArrival(listener: ArrivalListener): () => void {
  arrivalListeners.add(listener);
  return () => arrivalListeners.delete(listener);
}

/**
 * Tells the arrival listeners (onTeamArrival) about team `teamId` in the committed `progress`
 * (a roll's, revert's or relief's), when its state there carries a team total. Called by the
 * socket handlers after the broadcast.
 */
export function noteArrival(progress: GameProgress, teamId: number): void {
  const state = progress.team_states.find((t) => t.team_id === teamId);
  if (!state || !state.progress || arrivalListeners.size === 0) return;
  const arrival = { gameId: progress.id, teamId, squareSince: state.square_since };
  for (const listener of arrivalListeners) {
    try {
      listener(arrival);
    } catch (err) {
      log.error({ err, game_id: arrival.gameId, team_id: teamId }, '[progress] arrival listener failed');
    }
  }
}

/**
 * A team on a square whose task (the board's, or its relief substitute) has a Wise Old Man team
 * total (type XP, KC, EHB or EHP) in a game in progress: where it stands (`squareSince` names the
 * stay: pass it back to recordWomProgress), the rule, the progress as stored, and the team's
 * IGNs (as entered, in the order they were added).
 */
export interface WomTeam {
  gameId: number;
  clanId: number;
  eventId: number;
  teamId: number;
  squareSince: string;
  rule: AutoRule & { team_total: number };
  progress: TeamProgress;
  igns: string[];
}

/**
 * Which rule a team's current square follows: 'board' (the board square's task's), 'none' (a
 * relief substitute with no pool task), or the pool task id of its relief substitute.
 */
function ruleSource(taskOverride: string | null): 'board' | 'none' | number {
  const override = storedOverrideTask(taskOverride);
  if (!override) return 'board';
  return override.task_id ?? 'none';
}

/** The task rule of a team's current square: its relief substitute's when it has one, else the board square's task's. */
async function squareRule(db: Db, row: { task_override: string | null; auto_rule: string | null }): Promise<AutoRule | null> {
  const source = ruleSource(row.task_override);
  if (source === 'board') return parseStoredRule(row.auto_rule);
  if (source === 'none') return null;
  const task = await db.selectFrom('tasks').select('auto_rule').where('id', '=', source).executeTakeFirst();
  return parseStoredRule(task?.auto_rule ?? null);
}

/** Which teams teamsOnWomSquares answers: all, one game's, one team's, those of a list; with `unchecked`, only those whose current stay has no checks yet. */
export interface WomTeamFilter {
  gameId?: number;
  teamId?: number;
  /** Only these teams of these games (a batch of arrivals). */
  teams?: readonly { gameId: number; teamId: number }[];
  /** Only teams whose wom_team_checks row is missing or names another stay (the sweep's). */
  unchecked?: boolean;
}

/**
 * Every team on a Wise Old Man team-total square in a game in progress (WomTeam), by game then
 * team, narrowed by `filter`. For the Wise Old Man side's sweeps and checks (docs/server.md §17
 * 'Wise Old Man checks'). One query reads the teams with their IGNs (a row per member); one more,
 * only when some team stands on a relief substitute, reads those substitutes' rules together: the
 * sweep of every process every 10 s costs the same two queries however many teams there are.
 */
export async function teamsOnWomSquares(db: Db, filter: WomTeamFilter = {}): Promise<WomTeam[]> {
  let q = db.selectFrom('team_states')
    .innerJoin('games', 'games.id', 'team_states.game_id')
    .leftJoin('board_squares', (j) => j.onRef('board_squares.game_id', '=', 'team_states.game_id').onRef('board_squares.square_index', '=', 'team_states.current_position'))
    .leftJoin('tasks', 'tasks.id', 'board_squares.task_id')
    .leftJoin('team_members', (j) => j.onRef('team_members.team_id', '=', 'team_states.team_id').onRef('team_members.event_id', '=', 'games.event_id'))
    .leftJoin('igns', 'igns.id', 'team_members.ign_id')
    .leftJoin('wom_team_checks', (j) => j.onRef('wom_team_checks.game_id', '=', 'team_states.game_id').onRef('wom_team_checks.team_id', '=', 'team_states.team_id'))
    .select([
      'games.id as game_id', 'games.clan_id', 'games.event_id', 'team_states.team_id', 'team_states.square_since', 'team_states.progress',
      'team_states.task_override', 'tasks.auto_rule', 'igns.ign',
    ])
    .where('games.status', '=', 'in-progress')
    .where('team_states.progress', 'is not', null);
  if (filter.gameId !== undefined) q = q.where('games.id', '=', filter.gameId);
  if (filter.teamId !== undefined) q = q.where('team_states.team_id', '=', filter.teamId);
  if (filter.teams !== undefined) {
    if (filter.teams.length === 0) return [];
    // Narrowed by both id lists in SQL (their indexes), then to the exact pairs below.
    q = q.where('games.id', 'in', [...new Set(filter.teams.map((t) => t.gameId))]).where('team_states.team_id', 'in', [...new Set(filter.teams.map((t) => t.teamId))]);
  }
  if (filter.unchecked) {
    q = q.where((eb) => eb.or([eb('wom_team_checks.square_since', 'is', null), eb('wom_team_checks.square_since', '<>', eb.ref('team_states.square_since'))]));
  }
  const wanted = filter.teams && new Set(filter.teams.map((t) => `${t.gameId}:${t.teamId}`));
  const rows = (await q.orderBy('games.id').orderBy('team_states.team_id').orderBy('team_members.id').execute())
    .filter((r) => !wanted || wanted.has(`${r.game_id}:${r.team_id}`));
  const substitutes = [...new Set(rows.map((r) => ruleSource(r.task_override)).filter((s): s is number => typeof s === 'number'))];
  const substituteRules = new Map<number, string | null>();
  if (substitutes.length > 0) {
    for (const t of await db.selectFrom('tasks').select(['id', 'auto_rule']).where('id', 'in', substitutes).execute()) substituteRules.set(t.id, t.auto_rule);
  }
  const out: WomTeam[] = [];
  let last: (typeof rows)[number] | null = null;
  let team: WomTeam | null = null;
  for (const r of rows) {
    if (!last || last.game_id !== r.game_id || last.team_id !== r.team_id) {
      last = r;
      const source = ruleSource(r.task_override);
      const rule = parseStoredRule(source === 'board' ? r.auto_rule : source === 'none' ? null : substituteRules.get(source) ?? null);
      const progress = parseProgress(r.progress);
      team = progress && isTeamTotal(rule) && isWomRuleType(rule.type)
        ? { gameId: r.game_id, clanId: r.clan_id, eventId: r.event_id, teamId: r.team_id, squareSince: r.square_since, rule, progress, igns: [] }
        : null;
      if (team) out.push(team);
    }
    if (team && r.ign !== null) team.igns.push(r.ign);
  }
  return out;
}

/** The one team `teamId` of game `gameId` when it stands on a Wise Old Man team-total square of a game in progress, else null. */
export async function teamOnWomSquare(db: Db, gameId: number, teamId: number): Promise<WomTeam | null> {
  return (await teamsOnWomSquares(db, { gameId, teamId }))[0] ?? null;
}

/** Log line of a task approved from a Wise Old Man total (docs/server.md §17). */
const WOM_APPROVED_LOG = (summary: string) => `Approved automatically from Wise Old Man: ${summary}.`;

/** Where a reached total's submission comes from and how it is decided. */
export interface TotalSubmission {
  source: 'dink' | 'wom';
  /** Approved at once (reviewer null, auto) rather than left pending for a referee. */
  approve: boolean;
  /** The member it is made for (as if they had sent it). */
  by: { userId: number; ign: string };
  evidence: { type: string; summary: string };
  /**
   * The stored image and thumbnail; null for none (a Wise Old Man total: image_url and thumb_url
   * null). `bytes`: what this submission newly stored, for the upload quota (absent: 0, as for the
   * screenshot of a counted post, which its progress entry already counts).
   */
  image: { key: string; type: string; thumbKey: string; thumbType: string; bytes?: number } | null;
}

/**
 * Makes the one submission of a task that Dink or Wise Old Man met or sent for review: a reached
 * team total (docs/server.md §17), or a single Dink post on a task of one drop or one kill
 * (docs/server.md §13), inside the caller's
 * transaction (the game claimed): for the team's current task (`square`), `source` and evidence
 * as given; approved at once (status approved, reviewer null, `auto`, team task state
 * `approved`, log DINK_MESSAGES.autoApproved or WOM_APPROVED_LOG, a Discord review announcement)
 * or pending (team task state `submitted`, log PROOF_LOG.sent). Returns the submission id and the
 * log entry.
 */
export async function submitTotal(
  trx: Db,
  game: { id: number; clan_id: number },
  team: { stateId: number; teamId: number; name: string; color: string; position: number; squareSince: string },
  square: { task_description: string; task_difficulty: string | null },
  made: TotalSubmission,
): Promise<{ submissionId: number; entry: LogEntry }> {
  const now = nowIso();
  const submissionId = await insertSubmission(trx, {
    game_id: game.id,
    clan_id: game.clan_id,
    team_id: team.teamId,
    square_index: team.position,
    square_since: team.squareSince,
    task_description: square.task_description,
    task_difficulty: square.task_difficulty,
    submitted_by: made.by.userId,
    submitted_ign: made.by.ign,
    note: '',
    // No image: empty keys (the submission then answers image_url and thumb_url null).
    image_key: made.image?.key ?? '',
    image_type: made.image?.type ?? '',
    thumb_key: made.image?.thumbKey ?? '',
    thumb_type: made.image?.thumbType ?? '',
    image_bytes: made.image?.bytes ?? 0,
    created_at: now,
    source: made.source,
    evidence_type: made.evidence.type,
    evidence_summary: made.evidence.summary,
  });
  const teamRef = { name: team.name, color: team.color };
  let entry: LogEntry;
  if (made.approve) {
    await trx.updateTable('submissions').set({ status: 'approved', reviewer_id: null, reason: null, reviewed_at: now, auto: 1 }).where('id', '=', submissionId).execute();
    await trx.updateTable('team_states').set({ task_state: 'approved' }).where('id', '=', team.stateId).execute();
    const line = made.source === 'wom' ? WOM_APPROVED_LOG(made.evidence.summary) : DINK_MESSAGES.autoApproved(made.evidence.summary);
    entry = await insertLog(trx, game.id, line, teamRef);
    const reviewer = made.source === 'wom' ? 'Wise Old Man (automatic)' : 'Dink (automatic)';
    await announceReview(trx, game.id, { team: teamRef, square: team.position, task: square.task_description, decision: 'approved', reviewer, reason: null });
  } else {
    await trx.updateTable('team_states').set({ task_state: 'submitted' }).where('id', '=', team.stateId).execute();
    entry = await insertLog(trx, game.id, PROOF_LOG.sent(team.name, team.position), teamRef);
  }
  return { submissionId, entry };
}

/** The team's state read under the game's claim for a progress change. */
async function heldTeam(trx: Db, gameId: number, teamId: number) {
  return trx.selectFrom('team_states')
    .innerJoin('teams', 'teams.id', 'team_states.team_id')
    .innerJoin('games', 'games.id', 'team_states.game_id')
    .leftJoin('board_squares', (j) => j.onRef('board_squares.game_id', '=', 'team_states.game_id').onRef('board_squares.square_index', '=', 'team_states.current_position'))
    .leftJoin('tasks', 'tasks.id', 'board_squares.task_id')
    .select([
      'team_states.id as state_id', 'team_states.team_id', 'team_states.current_position', 'team_states.task_state', 'team_states.square_since',
      'team_states.progress', 'team_states.task_override', 'teams.name', 'teams.color', 'games.clan_id', 'games.event_id', 'games.status',
      'games.winners', 'games.version', 'board_squares.task_description', 'board_squares.task_difficulty', 'tasks.auto_rule',
    ])
    .where('team_states.game_id', '=', gameId)
    .where('team_states.team_id', '=', teamId)
    .executeTakeFirst();
}

/** The member a Wise Old Man total's submission is made for: the team's Leader, else its first member. */
async function teamLead(trx: Db, eventId: number, teamId: number): Promise<{ userId: number; ign: string } | null> {
  const rows = await trx.selectFrom('team_members').innerJoin('igns', 'igns.id', 'team_members.ign_id')
    .select(['igns.user_id', 'igns.ign', 'team_members.role'])
    .where('team_members.event_id', '=', eventId).where('team_members.team_id', '=', teamId)
    .orderBy('team_members.id').execute();
  const lead = rows.find((r) => r.role === 'Leader') ?? rows[0];
  return lead ? { userId: lead.user_id, ign: lead.ign } : null;
}

/** Thrown inside the transaction when the team has left the stay being recorded: rolled back, nothing changes. */
class StayEnded extends Error {
  override name = 'StayEnded';
}

/** What recordWomProgress did: `moved` (nothing: the team left that stay, or the game is not in progress), `saved`, or `approved` (the total was reached and the task approved). */
export type WomRecorded = 'moved' | 'saved' | 'approved';

/**
 * Saves a Wise Old Man check of team `teamId` in game `gameId` on the stay `squareSince`
 * (docs/server.md §17): `by` each IGN's gain (whole numbers ≥ 0, already computed against the
 * baselines; EHB/EHP already rounded down) and `errors` the IGNs that could not be counted. In
 * one game change (play.ts inGame: the game claimed, its version + 1): `have` = the sum of `by`,
 * `by` summed per IGN largest first, `errors`, `updated_at` now. When `have` reaches `need` and the
 * team's task is `open` or `denied`, the task is approved at once (submitTotal: source 'wom',
 * evidence {type, summary}, no image, log 'Approved automatically from Wise Old Man: {summary}.'),
 * so the Leader may roll. After COMMIT the progress and log are broadcast like a roll
 * (Broadcaster.gameStateUpdate) and the submission to members and managers. Resolves 'moved'
 * without any change when the game is not in progress or the team is no longer on that stay.
 * Database errors are thrown; ActionRefused 'The game is busy.' after many lost races.
 */
export async function recordWomProgress(
  deps: Pick<Deps, 'db' | 'dialect' | 'broadcaster'>,
  input: { gameId: number; teamId: number; squareSince: string; by: readonly ProgressShare[]; errors: readonly ProgressError[] },
): Promise<WomRecorded> {
  const { db, dialect } = deps;
  let done: { progress: GameProgress; log: LogEntry[]; submissionId: number | null };
  try {
    done = await inGame(db, dialect, { sync: false }, function* () {
      const at = nowIso();
      yield* claim(db, dialect, input.gameId, null, at);
      const team = yield* awaited((trx) => heldTeam(trx, input.gameId, input.teamId));
      if (!team || team.status !== 'in-progress' || team.square_since !== input.squareSince) throw new StayEnded();
      const stored = parseProgress(team.progress);
      if (!stored) throw new StayEnded();
      const by = sharesOf(input.by.map((s) => ({ ign: s.ign, amount: Math.max(0, Math.floor(s.amount)) })));
      const have = by.reduce((sum, s) => sum + s.amount, 0);
      const rule = yield* awaited((trx) => squareRule(trx, team));
      // The target and unit follow the task's rule as it is now (a manager may change the total
      // while the team stands on the square), not the one stored on arrival.
      const current = startProgress(rule, team.square_since);
      const progress: TeamProgress = { ...stored, ...(current && { need: current.need, unit: current.unit }), have, by, errors: input.errors.map((e) => ({ ign: e.ign, error: e.error })), updated_at: at };
      yield* run(db.updateTable('team_states').set({ progress: progressText(progress) }).where('id', '=', team.state_id).compile());
      let submissionId: number | null = null;
      const log: LogEntry[] = [];
      const square = storedOverrideTask(team.task_override) ?? (team.task_description === null ? null : { description: team.task_description, difficulty: team.task_difficulty });
      if (have >= progress.need && SUBMITTABLE_STATES.includes(storedTaskState(team.task_state)) && rule && square) {
        const lead = yield* awaited((trx) => teamLead(trx, team.event_id, input.teamId));
        if (lead) {
          const made = yield* awaited((trx) => submitTotal(trx, { id: input.gameId, clan_id: team.clan_id },
            { stateId: team.state_id, teamId: input.teamId, name: team.name, color: team.color, position: team.current_position, squareSince: team.square_since },
            { task_description: square.description, task_difficulty: square.difficulty },
            { source: 'wom', approve: true, by: lead, evidence: { type: rule.type, summary: totalSummary(rule, progress) }, image: null }));
          submissionId = made.submissionId;
          log.push(made.entry);
        }
      }
      const status: GameStatus = isGameStatus(team.status) ? team.status : 'in-progress';
      const states = yield* awaited((trx) => listTeamStates(trx, input.gameId));
      // team.version was read after the claim: it is the version this change set.
      return { progress: { id: input.gameId, status, team_states: states, winners: parseWinners(team.winners), version: team.version, last_move: null }, log, submissionId };
    });
  } catch (err) {
    if (err instanceof StayEnded) return 'moved';
    throw err;
  }
  deps.broadcaster.gameStateUpdate(done.progress, done.log);
  if (done.submissionId !== null) await deps.broadcaster.submissionChanged(done.submissionId);
  return done.submissionId !== null ? 'approved' : 'saved';
}

/** One stay of a team on a square: what a team total counts over (progress_entries). */
export interface Stay {
  game_id: number;
  team_id: number;
  square_since: string;
}

/**
 * Adds an entry to a stay's count (progress_entries): `post:{digest}` for a counted post,
 * `name:{key}` for a name a distinct rule counted, with the screenshot's keys and stored bytes
 * (the upload quota counts them here). True when it was added, false when the stay
 * already had that key (the post or name counted before, by this process or another: the unique
 * key decides).
 */
export async function addEntry(
  trx: Db,
  stay: Stay,
  entry: { key: string; ign: string; amount: number; at: string; image?: { key: string; type: string; thumbKey: string; thumbType: string; bytes?: number } | null },
): Promise<boolean> {
  const row = await trx.insertInto('progress_entries')
    .values({
      ...stay, entry_key: entry.key, ign: entry.ign, amount: entry.amount, at: entry.at,
      image_key: entry.image?.key ?? null, image_type: entry.image?.type ?? null, thumb_key: entry.image?.thumbKey ?? null, thumb_type: entry.image?.thumbType ?? null,
      image_bytes: entry.image?.bytes ?? 0,
    })
    .onConflict((oc) => oc.columns(['game_id', 'team_id', 'square_since', 'entry_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Each IGN's share of a stay's counted posts (sharesOf: largest first). */
export async function stayShares(trx: Db, stay: Stay): Promise<ProgressShare[]> {
  const rows = await trx.selectFrom('progress_entries')
    .select((eb) => ['ign', eb.fn.sum<number | string>('amount').as('amount')])
    .where('game_id', '=', stay.game_id).where('team_id', '=', stay.team_id).where('square_since', '=', stay.square_since)
    .where('entry_key', 'like', 'post:%')
    .groupBy('ign')
    .execute();
  return sharesOf(rows.map((r) => ({ ign: r.ign, amount: Number(r.amount) })));
}

/** The screenshot of the last counted post of a stay that had one, or null. */
export async function lastStayImage(trx: Db, stay: Stay): Promise<{ key: string; type: string; thumbKey: string; thumbType: string } | null> {
  const row = await trx.selectFrom('progress_entries').select(['image_key', 'image_type', 'thumb_key', 'thumb_type'])
    .where('game_id', '=', stay.game_id).where('team_id', '=', stay.team_id).where('square_since', '=', stay.square_since)
    .where('image_key', 'is not', null)
    .orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!row || row.image_key === null || row.thumb_key === null) return null;
  return { key: row.image_key, type: row.image_type ?? 'image/png', thumbKey: row.thumb_key, thumbType: row.thumb_type ?? 'image/webp' };
}
