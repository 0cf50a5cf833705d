import type { Deps } from '../http/context';
import type { Db } from '../db/schema';
import { log } from '../observability/log';
import { onTeamArrival, recordWomProgress, teamOnWomSquare, teamsOnWomSquares, type TeamArrival, type WomTeam } from '../games/progress';
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

/**
 * A call answered 429, 5xx or not at all is put back up to `times` times before its IGN counts as an
 * error this round: after its Retry-After, at most `maxWaitMs`, or without one after `waitMs` (ms).
 */
const RETRY = { times: 3, waitMs: 30_000, maxWaitMs: 120_000 } as const;
/** How often every process looks for teams on Wise Old Man squares whose checks have not started (a missed arrival, a game started with teams on one), in ms. */
const SWEEP_MS = 10_000;
/**
 * Most teams whose checks one batch starts (an arrival's batch or the sweep's): bounds the
 * statements' sizes (wom_queue rows of a batch: its teams' IGNs).
 */
const ARRIVALS_PER_BATCH = 100;
/**
 * The least time from one batch's start to the next's while the next is not full (ms): a batch
 * costs a few statements whatever its size, so under many rolls onto Wise Old Man squares a batch
 * holds up to a quarter second's arrivals instead of the handful that came during the last one's
 * statements (which cost PostgreSQL about 0.17 cores more at 200 rolls a second, measured). A first
 * arrival after a quiet spell starts at once; a check's first call waits on the budget anyway.
 */
const BATCH_GAP_MS = 250;

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

/** The team `wanted` found for a call, for its `run` just after. */
const wantedTeams = new WeakMap<object, WomTeam>();

/**
 * One IGN of a team's round (docs/server.md §17): dropped when the team has left that stay or the
 * game is not in progress; else Wise Old Man's update (`POST /players/{ign}`), and when that
 * answers anything but 200 its read (`GET`, another share of the budget). A 429, 5xx or no answer
 * on the read puts the call back (Retry-After, else 30 s) up to RETRY.times times; a 404 (a player
 * it does not know) or a last failure is the IGN's error (counted 0; its baseline kept).
 */
registerWomKind<PlayerCall>('progress', {
  async wanted(deps, job) {
    const team = await teamOnWomSquare(deps.db, job.payload.gameId, job.payload.teamId);
    if (team === null || team.squareSince !== job.payload.squareSince) return false;
    wantedTeams.set(job, team);
    return true;
  },
  // The team left that stay: every call of the stay still waiting (its other IGNs, later rounds)
  // is unwanted too; a call of the team's next stay is not.
  unwantedAlike: (job, other) => other.squareSince === job.payload.squareSince,
  async run(deps, job, ask): Promise<WomOutcome> {
    const p = job.payload;
    // The worker runs a call right after `wanted` found its team on that stay (only the budget
    // was taken in between): its read is used rather than made again.
    const team = wantedTeams.get(job) ?? (await teamOnWomSquare(deps.db, p.gameId, p.teamId));
    wantedTeams.delete(job);
    if (!team || team.squareSince !== p.squareSince) return { done: true };
    let answer = await ask('POST', p.ign, 'team totals');
    if (answer.kind !== 'ok') answer = await ask('GET', p.ign, 'team totals');
    if (answer.kind === 'ok') {
      const numbers = numbersOf(team.rule, answer.body);
      await saveNumbers(deps.db, p, numbers ? { numbers } : { error: SIGNUP_MESSAGES.womNoValue });
      return { done: true };
    }
    const transient = answer.kind === 'offline' || (answer.kind === 'status' && (answer.status === 429 || answer.status >= 500));
    if (transient && job.attempts < RETRY.times) {
      const after = answer.kind === 'status' ? answer.retryAfterMs : null;
      return { retryInMs: Math.min(after ?? RETRY.waitMs, RETRY.maxWaitMs) };
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
  if (outcome === 'saved') await queueRounds(deps, [team], p.round + 1, new Date(Date.now() + deps.config.wom.checkMs).toISOString());
}

/**
 * Queues one call per IGN of each team for round `round`, due at `dueAt`, in one insert; an IGN
 * that is not an OSRS name is an error at once, never asked for, and a team left with no call ends
 * its round at once.
 */
async function queueRounds(deps: Deps, teams: readonly WomTeam[], round: number, dueAt?: string): Promise<void> {
  const calls = [];
  const callless: PlayerCall[] = [];
  for (const team of teams) {
    const before = calls.length;
    for (const ign of team.igns) {
      const p: PlayerCall = { gameId: team.gameId, teamId: team.teamId, squareSince: team.squareSince, ign, round };
      if (OSRS_NAME.test(ign)) calls.push({ clanId: team.clanId, kind: 'progress', subject: subjectOf(team.gameId, team.teamId), payload: p, dueAt });
      else await saveNumbers(deps.db, p, { error: SIGNUP_MESSAGES.womBadName });
    }
    if (calls.length === before) callless.push({ gameId: team.gameId, teamId: team.teamId, squareSince: team.squareSince, ign: '', round });
  }
  await queueWomCalls(deps, deps.db, calls);
  for (const p of callless) await endRoundIfLast(deps, p);
}

/**
 * Starts the checks of each team on its stay (the baseline round, due now), once over every
 * process, for a batch of teams in a few statements whatever its size: one upsert moves each
 * team's wom_team_checks row to the new stay (or makes it) only where it names another stay, and
 * answers the rows it wrote; only the writer of a row queues that team's round. Returns the teams
 * this call started. The teams must be distinct (game, team) pairs.
 */
async function startChecksOf(deps: Deps, teams: readonly WomTeam[]): Promise<WomTeam[]> {
  if (teams.length === 0) return [];
  const { db } = deps;
  const written = await db.insertInto('wom_team_checks')
    .values(teams.map((t) => ({ game_id: t.gameId, team_id: t.teamId, square_since: t.squareSince, round: 0, asked_at: null, checked_at: null })))
    .onConflict((oc) => oc.columns(['game_id', 'team_id'])
      .doUpdateSet((eb) => ({ square_since: eb.ref('excluded.square_since'), round: 0, checked_at: null }))
      .where('wom_team_checks.square_since', '<>', (eb) => eb.ref('excluded.square_since')))
    .returning(['game_id', 'team_id'])
    .execute();
  const keys = new Set(written.map((r) => `${r.game_id}:${r.team_id}`));
  const started = teams.filter((t) => keys.has(`${t.gameId}:${t.teamId}`));
  if (started.length === 0) return [];
  // The previous stays' calls still waiting are no longer wanted (one in hand finishes and is ignored).
  await db.deleteFrom('wom_queue').where('subject', 'in', started.map((t) => subjectOf(t.gameId, t.teamId))).where('lease_until', 'is', null).execute();
  await queueRounds(deps, started, 0);
  return started;
}

/** startChecksOf for one team: true when this call started its checks. */
export async function startChecks(deps: Deps, team: WomTeam): Promise<boolean> {
  return (await startChecksOf(deps, [team])).length > 0;
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
  await queueRounds(deps, [team], Number(checks?.round ?? 0));
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
  let stopped = false;
  // Arrivals are started in batches, one batch at a time per process: those that came while a
  // batch ran or in the gap after it (BATCH_GAP_MS; the latest per team) are the next one, read
  // in one query and started in a few statements (startChecksOf). Under many rolls onto Wise Old
  // Man squares, statements of their own per arrival took the CPU and the database connections
  // the rolls wait for. The backlog holds at most one arrival per team.
  const arrivals = new Map<string, TeamArrival>();
  let starting = false;
  let lastBatchAt = -Infinity;
  let gapTimer: NodeJS.Timeout | null = null;
  const pump = () => {
    if (stopped || starting || arrivals.size === 0) return;
    const wait = lastBatchAt + BATCH_GAP_MS - performance.now();
    if (wait > 0 && arrivals.size < ARRIVALS_PER_BATCH) {
      if (!gapTimer) {
        gapTimer = setTimeout(() => {
          gapTimer = null;
          pump();
        }, wait);
        gapTimer.unref();
      }
      return;
    }
    if (gapTimer) clearTimeout(gapTimer);
    gapTimer = null;
    lastBatchAt = performance.now();
    const batch = [...arrivals.values()].slice(0, ARRIVALS_PER_BATCH);
    for (const arrival of batch) arrivals.delete(subjectOf(arrival.gameId, arrival.teamId));
    starting = true;
    void teamsOnWomSquares(deps.db, { teams: batch })
      .then((teams) => {
        const since = new Map(batch.map((a) => [subjectOf(a.gameId, a.teamId), a.squareSince]));
        return startChecksOf(deps, teams.filter((t) => since.get(subjectOf(t.gameId, t.teamId)) === t.squareSince));
      })
      .catch((err: unknown) => log.error({ err, arrivals: batch.length }, '[wom] starting checks failed'))
      .finally(() => {
        starting = false;
        pump();
      });
  };
  const unsubscribe = onTeamArrival((arrival) => {
    const key = subjectOf(arrival.gameId, arrival.teamId);
    arrivals.delete(key);
    arrivals.set(key, arrival);
    pump();
  });
  const sweep = async () => {
    try {
      const teams = await teamsOnWomSquares(deps.db, { unchecked: true });
      for (let i = 0; i < teams.length && !stopped; i += ARRIVALS_PER_BATCH) await startChecksOf(deps, teams.slice(i, i + ARRIVALS_PER_BATCH));
    } catch (err) {
      log.error({ err }, '[wom] sweep for teams on Wise Old Man squares failed');
    }
  };
  void sweep();
  const timer = setInterval(() => void sweep(), SWEEP_MS);
  timer.unref();
  return () => {
    stopped = true;
    arrivals.clear();
    clearInterval(timer);
    if (gapTimer) clearTimeout(gapTimer);
    unsubscribe();
  };
}
