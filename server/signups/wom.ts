import crypto from 'node:crypto';
import type { Deps } from '../http/context';
import { SCORE_MAX, SIGNUP_MESSAGES, type WomMetric } from '../../contract/signupApi';
import { recordWomLookup, setScore, startWomFetch, womRunCurrent } from './repository';
import { OSRS_NAME } from '../wom/client';
import { queueWomCalls, registerWomKind, type WomOutcome } from '../wom/queue';

/** How often a look-up answered 429 is put back before it counts as an error. */
const RETRIES_AFTER_429 = 3;
/** Longest Retry-After honoured, in ms. */
const RETRY_AFTER_MAX_MS = 120_000;

/** What Wise Old Man's player details hold that a score is made of. */
interface WomPlayer {
  ehb?: unknown;
  ehp?: unknown;
  latestSnapshot?: { data?: { skills?: { overall?: { level?: unknown } } } } | null;
}

/** The score of `metric` from a player's details, or null when Wise Old Man has no usable value. */
function scoreOf(player: WomPlayer, metric: WomMetric): number | null {
  const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : null);
  const ehb = num(player.ehb);
  const ehp = num(player.ehp);
  let value: number | null;
  if (metric === 'ehb') value = ehb;
  else if (metric === 'ehp') value = ehp;
  else if (metric === 'ehb+ehp') value = ehb === null || ehp === null ? null : ehb + ehp;
  else value = num(player.latestSnapshot?.data?.skills?.overall?.level);
  if (value === null || value < 0) return null;
  return Math.min(value, SCORE_MAX);
}

/** A look-up waiting in the Wise Old Man queue (server/wom/queue.ts): one sign-up of one fetch (a run). */
interface Lookup {
  eventId: number;
  runId: string;
  metric: WomMetric;
  signupId: number;
  ign: string;
}

/** Records a finished look-up: its score on the sign-up (source 'wom') or its error in the fetch's progress. */
async function record(deps: Deps, p: Lookup, result: { score: number } | { error: string }): Promise<WomOutcome> {
  if ('score' in result) await setScore(deps.db, p.signupId, result.score, 'wom');
  await recordWomLookup(deps.db, p.eventId, p.runId, 'error' in result ? { ign: p.ign, error: result.error } : null);
  return { done: true };
}

/**
 * Sign-up scores in the one Wise Old Man queue (docs/server.md §16): a look-up of a replaced run
 * (or a deleted event) is dropped; else one `GET /players/{ign}`: a 404 is 'does not know', a 429
 * puts it back after Retry-After (60 s without one) up to RETRIES_AFTER_429 times, any other
 * failure is an error in the progress and changes nothing.
 */
registerWomKind<Lookup>('signup', {
  wanted: (deps, job) => womRunCurrent(deps.db, job.payload.eventId, job.payload.runId),
  async run(deps, job, ask) {
    const p = job.payload;
    const answer = await ask('GET', p.ign, 'sign-up scores');
    if (answer.kind === 'offline') return record(deps, p, { error: SIGNUP_MESSAGES.womFailed('nothing (no connection or timed out)') });
    if (answer.kind === 'notJson') return record(deps, p, { error: SIGNUP_MESSAGES.womFailed('with something that is not JSON') });
    if (answer.kind === 'status') {
      if (answer.status === 429 && job.attempts < RETRIES_AFTER_429) return { retryInMs: Math.min(answer.retryAfterMs ?? 60_000, RETRY_AFTER_MAX_MS) };
      return record(deps, p, { error: answer.status === 404 ? SIGNUP_MESSAGES.womUnknown : SIGNUP_MESSAGES.womFailed(answer.status) });
    }
    const player = answer.body as WomPlayer | null;
    const score = player && typeof player === 'object' ? scoreOf(player, p.metric) : null;
    return record(deps, p, score === null ? { error: SIGNUP_MESSAGES.womNoValue } : { score });
  },
});

/**
 * Starts an event's Wise Old Man fetch (docs/server.md §16) and returns once it is queued: the
 * progress row is written now (total = the sign-ups given; a fetch already running for the event
 * is replaced and its look-ups still waiting are dropped), and an IGN that is not an OSRS name is
 * an error in it at once, Wise Old Man never asked. The other look-ups wait in the one Wise Old
 * Man queue (server/wom/queue.ts, database rows served by every process, the clans with calls
 * waiting taking turns within the shared budget); each score lands on its sign-up as it arrives
 * (`score_source` 'wom'); a player Wise Old Man does not know, or any other failure, is an error
 * in the progress and changes nothing.
 */
export async function startWomScores(deps: Deps, clanId: number, eventId: number, metric: WomMetric, signups: readonly { id: number; ign: string }[]): Promise<void> {
  const runId = crypto.randomUUID();
  await startWomFetch(deps.db, eventId, runId, metric, signups.length);
  const subject = `event:${eventId}`;
  await deps.db.deleteFrom('wom_queue').where('kind', '=', 'signup').where('subject', '=', subject).where('lease_until', 'is', null).execute();
  const calls = [];
  for (const s of signups) {
    if (OSRS_NAME.test(s.ign)) calls.push({ clanId, kind: 'signup', subject, payload: { eventId, runId, metric, signupId: s.id, ign: s.ign } satisfies Lookup });
    else if (!(await recordWomLookup(deps.db, eventId, runId, { ign: s.ign, error: SIGNUP_MESSAGES.womBadName }))) return;
  }
  await queueWomCalls(deps, deps.db, calls);
}
