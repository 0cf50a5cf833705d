import type { DraftState, Signup } from '../../../contract/signup';
import { PICK_SECONDS_MAX, PICK_SECONDS_MIN, DRAFT_CAPTAINS_MAX, DRAFT_CAPTAINS_MIN } from '../../../contract/draft';

/** The draft room's texts (docs/client.md §14). */
export const DRAFT_TEXTS = {
  title: "Captains' Draft",
  loading: 'Loading the draft...',
  none: 'No draft has been started for this event.',
  busy: { starting: 'Starting the draft...', controlling: 'Saving...', picking: 'Picking...' },
  yourTurn: 'Your pick!',
  auto: '(picked by the clock)',
  poolEmpty: 'Nobody is left to pick.',
  controls: 'Draft controls',
  control: { pause: 'Pause', resume: 'Resume', undo: 'Undo Last Pick', end: 'End Draft' },
  startTitle: 'Start a Draft',
  captainsLegend: `Captains (${DRAFT_CAPTAINS_MIN} to ${DRAFT_CAPTAINS_MAX}, in pick order)`,
  noSignups: 'No free agents have signed up for this event.',
  allPlaced: 'Every sign-up is on a team.',
  wantsLeader: 'would lead',
  secondsLabel: 'Seconds per pick',
  secondsRule: `Seconds per pick must be a whole number from ${PICK_SECONDS_MIN} to ${PICK_SECONDS_MAX}.`,
  start: 'Start Draft',
  teamOf: (captain: string) => `Team ${captain}`,
  captain: (ign: string) => `Captain: ${ign}`,
  pool: (n: number) => `Free agents (${n})`,
  pickLabel: (ign: string) => `Pick ${ign}`,
  unknownNames: 'Someone signed up after this page was loaded.',
  refreshNames: 'Refresh Names',
} as const;

/**
 * The sign-ups a new draft may take as captains (docs/server.md §16): on no team, and neither a
 * captain nor a pick of `draft`. The room's sign-ups are read once, so a draft that ended since
 * (its picks now on their teams) is taken out here rather than waiting for a reload.
 */
export function freeAgents(signups: readonly Signup[], draft: DraftState | null): Signup[] {
  const placed = new Set(draft ? [...draft.captains.map((c) => c.signup_id), ...draft.picks.map((p) => p.signup_id)] : []);
  return signups.filter((s) => s.team_id === null && !placed.has(s.id));
}

/** The IGN of sign-up `id`, or 'Sign-up #{id}' for one signed up after the room was loaded. */
export function nameOf(signups: readonly Signup[], id: number): string {
  return signups.find((s) => s.id === id)?.ign ?? `Sign-up #${id}`;
}

/** A score as listed: 'Score 1,234' or 'No score'. */
export function scoreText(score: number | null): string {
  return score === null ? 'No score' : `Score ${score.toLocaleString('en-US')}`;
}

/** Whose turn and how long is left, or that the draft is paused or over. */
export function draftStatusText(draft: DraftState, onClock: string | null, leftMs: number | null): string {
  if (draft.status === 'done') return `The draft is over: ${draft.picks.length} ${draft.picks.length === 1 ? 'pick' : 'picks'}.`;
  if (draft.status === 'paused') return `The draft is paused (round ${draft.round}).`;
  const seconds = leftMs === null ? null : Math.ceil(leftMs / 1000);
  return `Round ${draft.round}: ${onClock ?? 'nobody'} is on the clock${seconds === null ? '' : ` (${seconds} s left)`}.`;
}
