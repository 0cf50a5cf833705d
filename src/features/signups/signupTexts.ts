import type { ClanEvent, EventBodyInput } from '../../../contract/event';
import type { Signup } from '../../../contract/signup';
import type { ScoreImportAnswer, WomMetric, WomProgress } from '../../../contract/signupApi';
import { formatLocalDateTime, utcInputToIso } from '../events/eventForm';

/** The texts of the Sign-ups view (docs/client.md §13). */
export const SIGNUP_TEXTS = {
  none: 'No one has signed up yet.',
  /** The free agents when nobody has signed up (not 'everyone is on a team'). */
  noSignupsYet: 'No free agents: nobody has signed up yet.',
  noFreeAgents: 'No free agents: everyone who signed up is on a team.',
  noLeader: (team: string) => `${team} has no Leader: nobody on it said they would lead. Choose one of its members as Leader before you apply.`,
  leaderLabel: (team: string) => `Leader of ${team}`,
  noLeaderOption: 'No Leader',
  chooseIgn: 'Choose one of your IGNs.',
  chooseFile: 'Choose a .csv file.',
  badScore: 'Enter a number from 0 to 1,000,000, or leave it empty.',
  signedUp: (ign: string) => `Signed up as ${ign}.`,
  withdrawn: (ign: string) => `The sign-up of ${ign} was withdrawn.`,
  withdrawQuestion: (ign: string) => `Withdraw the sign-up of ${ign}? If it is on a team, it leaves the team too.`,
  scoreSaved: (ign: string, score: number | null) => (score === null ? `Score of ${ign} cleared.` : `Score of ${ign} set to ${score}.`),
  imported: (a: ScoreImportAnswer) =>
    [`Scores updated: ${a.updated_count}.`, ...a.errors.slice(0, 20).map((e) => `Row ${e.row} (${e.ign}): ${e.message}`)].join('\n'),
  womStarted: (total: number) => `Fetching ${total} ${total === 1 ? 'score' : 'scores'} from Wise Old Man in the background (20 a minute). The progress below follows it.`,
  womProgress: (p: WomProgress) => `Wise Old Man: ${p.done} of ${p.total} looked up, ${p.errors.length} ${p.errors.length === 1 ? 'error' : 'errors'}.`,
  csvHelp: 'A CSV file with a header row naming ign and score, one sign-up per row (at most 1 MiB).',
  womHelp: "Each signed-up IGN is looked up on Wise Old Man; a player it does not know keeps the score they have.",
  spreadNote: '(the largest team total minus the smallest). Nothing changes until you apply.',
  openTitle: 'Open Sign-ups',
  closeTitle: 'Close Sign-ups',
  opened: 'Sign-ups are open.',
  closed: 'Sign-ups are closed.',
  openQuestion: 'Open sign-ups for this event? Clan members can then sign up; the Discord webhook, if set, announces it.',
  closeQuestion: 'Close sign-ups for this event? Members can no longer sign up or withdraw.',
} as const;

/** How each Wise Old Man metric is offered. */
export const WOM_METRIC_LABELS: Record<WomMetric, string> = {
  ehb: 'EHB (efficient hours bossed)',
  ehp: 'EHP (efficient hours played)',
  'ehb+ehp': 'EHB + EHP',
  overall_level: 'Total level',
};

/** A sign-up's score cell: the number and where it came from, or a dash. */
export function scoreText(s: Pick<Signup, 'score' | 'score_source'>): string {
  if (s.score === null) return '—';
  const source = s.score_source === 'wom' ? 'Wise Old Man' : s.score_source === 'csv' ? 'CSV' : 'manual';
  return `${s.score} (${source})`;
}

/** The status line: open (with the close time, local) or closed. */
export function signupsStatusText(event: Pick<ClanEvent, 'signups_open' | 'signups_close_at'>, accepting: boolean): string {
  if (!accepting) return 'Sign-ups are closed.';
  return event.signups_close_at ? `Sign-ups are open until ${formatLocalDateTime(event.signups_close_at)}.` : 'Sign-ups are open.';
}

/**
 * The event edit that opens or closes sign-ups, keeping everything else as it is; opening sets
 * the close time from `closeAt` (a `datetime-local` value read as UTC, as the event form's times;
 * '' for none).
 */
export function toggleBody(event: ClanEvent, closeAt = ''): EventBodyInput {
  const body: EventBodyInput = {
    name: event.name,
    type: event.type as EventBodyInput['type'],
    start_datetime: event.start_datetime,
    end_datetime: event.end_datetime,
    signups_open: !event.signups_open,
  };
  return event.signups_open ? body : { ...body, signups_close_at: closeAt.trim() ? utcInputToIso(closeAt) : null };
}
