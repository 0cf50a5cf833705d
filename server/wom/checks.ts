import type { Deps } from '../http/context';
import type { Db } from '../db/schema';
import { log } from '../observability/log';
import { onTeamArrival, recordWomProgress, teamOnWomSquare, teamsOnWomSquares, type WomTeam } from '../games/progress';
import { SIGNUP_MESSAGES } from '../../contract/signupApi';
import type { AutoRule } from '../../contract/dink';
import type { ProgressError, ProgressShare } from '../../contract/progress';
import { OSRS_NAME } from './client';
import { queueWomCalls, registerWomKind, type WomOutcome } from './queue';

// ---------------------------------------------------------------------------------------------
// Wise Old Man team totals (docs/server.md §17 'Wise Old Man checks'): a round of calls (one per
// IGN) when a team arrives on a Wise Old Man square, every WOM_CHECK_MINUTES after it, and when a
// member asks; each IGN's numbers at arrival (baseline) and at the last check, the sum of the
// gains handed to recordWomProgress (server/games/progress.ts).
// ---------------------------------------------------------------------------------------------

/** How often a call answered 429 (or not at all) is put back before its IGN counts as an error this round. */
const RETRIES = 3;
/** Wait before a retry without Retry-After, and the longest Retry-After honoured, in ms. */
const RETRY_MS = 30_000;
const RETRY_MAX_MS = 120_000;
/** How often every process looks for teams on Wise Old Man squares whose checks have not started (a missed arrival, a game started with teams on one), in ms. */
const SWEEP_MS = 10_000;

/** One IGN's call of one round of a team's checks on one stay. */
interface PlayerCall {
  gameId: number;
  teamId: number;
  squareSince: string;
  ign: string;
  round: number;
}

/** The queue's subject of a team's calls. */
const subjectOf = (gameId: number, teamId: number) => `team:${gameId}:${teamId}`;

/** Metric name → number, as wom_baselines keeps them. */
type Numbers = Record<string, number>;

const num = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0);

/**
 * The numbers a rule measures from Wise Old Man's player details (`latestSnapshot.data`): XP
 * `skills[name].experience`, KC `bosses[name].kills` or `activities[name].score`, EHB/EHP
 * `computed.ehb|ehp.value` (keyed by the type). Wise Old Man's -1 (unranked) and anything
 * missing read 0. Null when the answer has no snapshot at all.
 */
function numbersOf(rule: Pick<AutoRule, 'type' | 'names'>, details: unknown): Numbers | null {
  const data = (details as { latestSnapshot?: { data?: Record<string, Record<string, Record<string, unknown>> | undefined> } | null } | null)?.latestSnapshot?.data;
  if (!data || typeof data !== 'object') return null;
  if (rule.type === 'EHB' || rule.type === 'EHP') {
    const key = rule.type.toLowerCase();
    return { [key]: num(data.computed?.[key]?.value) };
  }
  const out: Numbers = {};
  for (const name of rule.names) {
    const metric = name.toLowerCase();
    out[metric] = rule.type === 'XP' ? num(data.skills?.[metric]?.experience) : num(data.bosses?.[metric]?.kills ?? data.activities?.[metric]?.score);
  }
  return out;
}

/**
 * One IGN's gain (docs/server.md §17): the sum over the rule's metrics of current − baseline,
 * never below 0; EHB and EHP rounded down to whole hours; 0 without a baseline or a check.
 */
function gainOf(rule: Pick<AutoRule, 'type'>, baseline: Numbers | null, current: Numbers | null): number {
  if (!baseline || !current) return 0;
  let sum = 0;
  for (const [metric, now] of Object.entries(current)) sum += now - (baseline[metric] ?? now);
  sum = Math.max(0, sum);
  return rule.type === 'EHB' || rule.type === 'EHP' ? Math.floor(sum) : Math.round(sum);
}

/** Records one IGN's numbers on the stay: the first ones become its baseline, later ones its current; an error never touches them. */
async function saveNumbers(db: Db, p: PlayerCall, result: { numbers: Numbers } | { error: string }): Promise<void> {
  const now = new Date().toISOString();
  const key = { game_id: p.gameId, team_id: p.teamId, square_since: p.squareSince, ign: p.ign };
  const row = await db.selectFrom('wom_baselines').select(['baseline']).where('game_id', '=', p.gameId).where('team_id', '=', p.teamId)
    .where('square_since', '=', p.squareSince).where('ign', '=', p.ign).executeTakeFirst();
  if ('error' in result) {
    if (row) await db.updateTable('wom_baselines').set({ error: result.error, updated_at: now }).where('game_id', '=', p.gameId).where('team_id', '=', p.teamId)
      .where('square_since', '=', p.squareSince).where('ign', '=', p.ign).execute();
    else await db.insertInto('wom_baselines').values({ ...key, baseline: null, current: null, error: result.error, updated_at: now })
      .onConflict((oc) => oc.columns(['game_id', 'team_id', 'square_since', 'ign']).doUpdateSet({ error: result.error, updated_at: now })).execute();
    return;
  }
  const text = JSON.stringify(result.numbers);
  if (row?.baseline) {
    await db.updateTable('wom_baselines').set({ current: text, error: null, updated_at: now }).where('game_id', '=', p.gameId).where('team_id', '=', p.teamId)
      .where('square_since', '=', p.squareSince).where('ign', '=', p.ign).execute();
  } else if (row) {
    await db.updateTable('wom_baselines').set({ baseline: text, current: text, error: null, updated_at: now }).where('game_id', '=', p.gameId).where('team_id', '=', p.teamId)
      .where('square_since', '=', p.squareSince).where('ign', '=', p.ign).execute();
  } else {
    await db.insertInto('wom_baselines').values({ ...key, baseline: text, current: text, error: null, updated_at: now })
      .onConflict((oc) => oc.columns(['game_id', 'team_id', 'square_since', 'ign']).doUpdateSet({ current: text, error: null, updated_at: now })).execute();
  }
}

/** The error text of a call that did not give numbers. */
function failure(status: number | 'offline' | 'notJson'): string {
  if (status === 404) return SIGNUP_MESSAGES.womUnknown;
  if (status === 'offline') return SIGNUP_MESSAGES.womFailed('nothing (no connection or timed out)');
  if (status === 'notJson') return SIGNUP_MESSAGES.womFailed('with something that is not JSON');
  return SIGNUP_MESSAGES.womFailed(status);
}

/**
 * One IGN of a team's round (docs/server.md §17): dropped when the team has left that stay or the
 * game is not in progress; else Wise Old Man's update (`POST /players/{ign}`), and when that
 * answers anything but 200 its read (`GET`, another share of the budget). A 429, 5xx or no answer
 * on the read puts the call back (Retry-After, else 30 s) up to RETRIES times; a 404 (a player
 * it does not know) or a last failure is the IGN's error (counted 0; its baseline kept).
 */
registerWomKind<PlayerCall>('progress', {
  async wanted(deps, job) {
    const team = await teamOnWomSquare(deps.db, job.payload.gameId, job.payload.teamId);
    return team !== null && team.squareSince === job.payload.squareSince;
  },
  async run(deps, job, ask): Promise<WomOutcome> {
    const p = job.payload;
    const team = await teamOnWomSquare(deps.db, p.gameId, p.teamId);
    if (!team || team.squareSince !== p.squareSince) return { done: true };
    let answer = await ask('POST', p.ign, 'team totals');
    if (answer.kind !== 'ok') answer = await ask('GET', p.ign, 'team totals');
    if (answer.kind === 'ok') {
      const numbers = numbersOf(team.rule, answer.body);
      await saveNumbers(deps.db, p, numbers ? { numbers } : { error: SIGNUP_MESSAGES.womNoValue });
      return { done: true };
    }
    const transient = answer.kind === 'offline' || (answer.kind === 'status' && (answer.status === 429 || answer.status >= 500));
    if (transient && job.attempts < RETRIES) {
      const after = answer.kind === 'status' ? answer.retryAfterMs : null;
      return { retryInMs: Math.min(after ?? RETRY_MS, RETRY_MAX_MS) };
    }
    await saveNumbers(deps.db, p, { error: failure(answer.kind === 'status' ? answer.status : answer.kind) });
    return { done: true };
  },
  async finished(deps, job) {
    await endRoundIfLast(deps, job.payload);
  },
});

/**
 * Ends round `p.round` of the team's checks once no call of it is left (over every process: the
 * one conditional update of wom_team_checks that moves the round on decides who ends it): sums the
 * gains (recordWomProgress saves, broadcasts, and approves when the total is reached) and queues
 * the next round WOM_CHECK_MINUTES later, while the team stays.
 */
async function endRoundIfLast(deps: Deps, p: PlayerCall): Promise<void> {
  const { db } = deps;
  // Any call of the team left belongs to this round (a later round is queued only once this one
  // ended), including one put back to be tried again later.
  const left = await db.selectFrom('wom_queue').select('id').where('subject', '=', subjectOf(p.gameId, p.teamId)).limit(1).executeTakeFirst();
  if (left) return;
  const now = new Date().toISOString();
  const moved = await db.updateTable('wom_team_checks').set({ round: p.round + 1, checked_at: now })
    .where('game_id', '=', p.gameId).where('team_id', '=', p.teamId).where('square_since', '=', p.squareSince).where('round', '=', p.round)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 0) return;
  const team = await teamOnWomSquare(db, p.gameId, p.teamId);
  if (!team || team.squareSince !== p.squareSince) return;
  const rows = await db.selectFrom('wom_baselines').selectAll().where('game_id', '=', p.gameId).where('team_id', '=', p.teamId)
    .where('square_since', '=', p.squareSince).execute();
  const byIgn = new Map(rows.map((r) => [r.ign.toLowerCase(), r]));
  const by: ProgressShare[] = [];
  const errors: ProgressError[] = [];
  for (const ign of team.igns) {
    const r = byIgn.get(ign.toLowerCase());
    const parse = (t: string | null | undefined) => (t ? (JSON.parse(t) as Numbers) : null);
    by.push({ ign, amount: gainOf(team.rule, parse(r?.baseline), parse(r?.current)) });
    if (r?.error) errors.push({ ign, error: r.error });
  }
  const outcome = await recordWomProgress(deps, { gameId: p.gameId, teamId: p.teamId, squareSince: p.squareSince, by, errors });
  if (outcome === 'saved') await queueRound(deps, team, p.round + 1, new Date(Date.now() + deps.config.wom.checkMs).toISOString());
}

/** Queues one call per IGN of the team for round `round`, due at `dueAt`; an IGN that is not an OSRS name is an error at once, never asked for. */
async function queueRound(deps: Deps, team: WomTeam, round: number, dueAt?: string): Promise<void> {
  const calls = [];
  for (const ign of team.igns) {
    const p: PlayerCall = { gameId: team.gameId, teamId: team.teamId, squareSince: team.squareSince, ign, round };
    if (OSRS_NAME.test(ign)) calls.push({ clanId: team.clanId, kind: 'progress', subject: subjectOf(team.gameId, team.teamId), payload: p, dueAt });
    else await saveNumbers(deps.db, p, { error: SIGNUP_MESSAGES.womBadName });
  }
  await queueWomCalls(deps, deps.db, calls);
  if (calls.length === 0) await endRoundIfLast(deps, { gameId: team.gameId, teamId: team.teamId, squareSince: team.squareSince, ign: '', round });
}

/**
 * Starts the checks of a team on its stay (the baseline round, due now), once over every process:
 * the team's wom_team_checks row is moved to the new stay (or made) by one conditional write, and
 * only the writer queues. True when this call started them.
 */
export async function startChecks(deps: Deps, team: WomTeam): Promise<boolean> {
  const { db } = deps;
  const moved = await db.updateTable('wom_team_checks').set({ square_since: team.squareSince, round: 0, checked_at: null })
    .where('game_id', '=', team.gameId).where('team_id', '=', team.teamId).where('square_since', '<>', team.squareSince)
    .executeTakeFirst();
  let started = Number(moved.numUpdatedRows) > 0;
  if (!started) {
    const made = await db.insertInto('wom_team_checks').values({ game_id: team.gameId, team_id: team.teamId, square_since: team.squareSince, round: 0, asked_at: null, checked_at: null })
      .onConflict((oc) => oc.columns(['game_id', 'team_id']).doNothing()).executeTakeFirst();
    started = Number(made.numInsertedOrUpdatedRows ?? 0) > 0;
  }
  if (!started) return false;
  // The previous stay's calls still waiting are no longer wanted (one in hand finishes and is ignored).
  await db.deleteFrom('wom_queue').where('subject', '=', subjectOf(team.gameId, team.teamId)).where('lease_until', 'is', null).execute();
  await queueRound(deps, team, 0);
  return true;
}

/**
 * A member's 'Check now' accepted (the 5-minute wait is the route's): the team's next round is due
 * now. A round already waiting for its time is brought forward; one under way is left to finish.
 */
export async function checkNow(deps: Deps, team: WomTeam): Promise<void> {
  if (await startChecks(deps, team)) return;
  const { db } = deps;
  const now = new Date().toISOString();
  const subject = subjectOf(team.gameId, team.teamId);
  const pulled = await db.updateTable('wom_queue').set({ due_at: now }).where('subject', '=', subject).where('kind', '=', 'progress').where('due_at', '>', now).executeTakeFirst();
  if (Number(pulled.numUpdatedRows) > 0) return;
  const waiting = await db.selectFrom('wom_queue').select('id').where('subject', '=', subject).limit(1).executeTakeFirst();
  if (waiting) return;
  const checks = await db.selectFrom('wom_team_checks').select('round').where('game_id', '=', team.gameId).where('team_id', '=', team.teamId).executeTakeFirst();
  await queueRound(deps, team, Number(checks?.round ?? 0));
}

/**
 * Starts the Wise Old Man checks of this process (docs/server.md §17): every arrival on a Wise Old
 * Man square this process applies starts its team's checks at once, and a sweep (now and every
 * SWEEP_MS) starts those of any team on such a square of a game in progress whose current stay has
 * none (an arrival another process missed by crashing, a game started or resumed with teams on
 * one). The sweep reads just those teams, in one go (teamsOnWomSquares `unchecked`), so a sweep
 * that finds nothing to start writes nothing. Returns the stop function.
 */
export function startWomChecks(deps: Deps): () => void {
  const start = (team: WomTeam | null) => (team ? startChecks(deps, team) : Promise.resolve(false));
  const unsubscribe = onTeamArrival((arrival) => {
    void teamOnWomSquare(deps.db, arrival.gameId, arrival.teamId)
      .then((team) => start(team && team.squareSince === arrival.squareSince ? team : null))
      .catch((err: unknown) => log.error({ err, game_id: arrival.gameId, team_id: arrival.teamId }, '[wom] starting checks failed'));
  });
  let stopped = false;
  const sweep = async () => {
    try {
      for (const team of await teamsOnWomSquares(deps.db, { unchecked: true })) {
        if (stopped) return;
        await start(team);
      }
    } catch (err) {
      log.error({ err }, '[wom] sweep for teams on Wise Old Man squares failed');
    }
  };
  void sweep();
  const timer = setInterval(() => void sweep(), SWEEP_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
    unsubscribe();
  };
}
