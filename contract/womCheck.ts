import * as v from 'valibot';

/** How long a team waits between two accepted 'Check now' asks, in seconds (docs/server.md §17 'Wise Old Man checks'). */
export const CHECK_WAIT_S = 300;

/** Texts of the Wise Old Man checks (docs/server.md §17). */
export const WOM_CHECK_MESSAGES = {
  tooSoon: (n: number, m: number) => `Progress was checked ${n} s ago; try again in ${m} s.`,
  notOnTeam: 'Only members of this team (or a manager) can ask for a check.',
  notWom: "This team's task is not a Wise Old Man total in a game in progress.",
  teamNotFound: 'Team not found.',
} as const;

/**
 * POST .../teams/{teamId}/progress/check answer (202): when the ask was accepted (ISO) and how many
 * seconds until the next one is (`retry_after`, the 5-minute wait).
 */
export const WomCheckAnswerSchema = v.object({ asked_at: v.string(), retry_after: v.number() });
export type WomCheckAnswer = v.InferOutput<typeof WomCheckAnswerSchema>;

/** Seconds left of the wait after an ask accepted at `askedAt` (ms), at `now` (ms): 0 when it is over. */
export function checkWaitLeft(askedAt: number, now: number): number {
  return Math.max(0, Math.ceil(CHECK_WAIT_S - (now - askedAt) / 1000));
}
