import * as v from 'valibot';
import { isWomRuleType, progressUnit, type AutoRule, type DinkEvidence } from './dink';

// ---------------------------------------------------------------------------------------------
// Team totals: a team's progress on a square whose task's rule has a `team_total`
// (docs/server.md §17 'Progress and Dink totals'). The shape every team state carries, how it
// starts, what one Dink post adds, and the summary of a reached total. Shared by the server
// (server/games/progress.ts, server/dink/) and the bar on the client (src/features/play).
// ---------------------------------------------------------------------------------------------

/** One IGN's share of a total. */
const ProgressShareSchema = v.object({ ign: v.string(), amount: v.number() });

/** An IGN the last check could not count, with why (Wise Old Man totals). */
const ProgressErrorSchema = v.object({ ign: v.string(), error: v.string() });

/**
 * A team's `progress` on its square (docs/server.md §17): `have` of `need` in `unit` ('items',
 * 'kills', 'xp', 'hours' or 'posts'), `by` each IGN's share (largest first), `errors` the IGNs a
 * Wise Old Man check could not count, `updated_at` (ISO) when it last changed or was checked.
 */
export const TeamProgressSchema = v.object({
  have: v.number(),
  need: v.number(),
  unit: v.string(),
  by: v.array(ProgressShareSchema),
  errors: v.array(ProgressErrorSchema),
  updated_at: v.string(),
});
export type TeamProgress = v.InferOutput<typeof TeamProgressSchema>;
export type ProgressShare = v.InferOutput<typeof ProgressShareSchema>;
export type ProgressError = v.InferOutput<typeof ProgressErrorSchema>;

/** The part of a rule a team total reads. */
export type TotalRule = Pick<AutoRule, 'type' | 'names' | 'team_total' | 'distinct'>;

/** True when `rule` is a team total (a `team_total` set). */
export function isTeamTotal(rule: Pick<AutoRule, 'team_total'> | null | undefined): rule is AutoRule & { team_total: number } {
  return rule !== null && rule !== undefined && typeof rule.team_total === 'number';
}

/**
 * The progress a team starts with on a square whose task has `rule` (docs/server.md §17: 0 on
 * arrival and on a relief substitute), or null when the rule is not a team total (or none).
 */
export function startProgress(rule: AutoRule | null | undefined, at: string): TeamProgress | null {
  if (!isTeamTotal(rule)) return null;
  return { have: 0, need: rule.team_total, unit: progressUnit(rule), by: [], errors: [], updated_at: at };
}

/** The key under which rule names and post names compare (as contract/dink.ts matches them). */
function totalNameKey(name: string): string {
  return name.normalize('NFC').trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * What one matching Dink post is worth to a team total (docs/server.md §17): `amount` LOOT the
 * sum of the quantities of the matching items, every other type 1; with `distinct`, `names` the
 * keys of the rule's names the post names (each counts once per stay on the square: the caller
 * adds 1 for each not counted yet, and `amount` is then unused). A post that names none of the
 * rule's names is worth 0 with no names.
 */
export function postWorth(rule: TotalRule, evidence: DinkEvidence): { amount: number; names: string[] } {
  if (rule.type !== evidence.type) return { amount: 0, names: [] };
  const wanted = new Set(rule.names.map(totalNameKey));
  const hits = evidence.things.filter((t) => wanted.has(totalNameKey(t.name)));
  if (hits.length === 0) return { amount: 0, names: [] };
  const names = [...new Set(hits.map((t) => totalNameKey(t.name)))];
  const amount = rule.type === 'LOOT' ? hits.reduce((sum, t) => sum + t.quantity, 0) : 1;
  return { amount, names };
}

/** Shares summed per IGN, largest first, then by IGN (so every process lists them alike). */
export function sharesOf(entries: readonly ProgressShare[]): ProgressShare[] {
  const sums = new Map<string, number>();
  for (const e of entries) sums.set(e.ign, (sums.get(e.ign) ?? 0) + e.amount);
  return [...sums].map(([ign, amount]) => ({ ign, amount }))
    .sort((a, b) => b.amount - a.amount || a.ign.localeCompare(b.ign, 'en'));
}

/** A whole number with thousands separators ('512,340'), the same on server and client. */
export function formatAmount(n: number): string {
  return Math.trunc(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The evidence summary of a reached Dink total (docs/server.md §17): the rule's names and the
 * total, then each player's share, for example "Zulrah's scales x500 (Ali Cat 300, Bobby Tank
 * 200)"; a distinct total names how many of its names were counted ('3 of Abyssal whip, Trident
 * x3 (...)' reads as "x3" of those names).
 */
export function totalSummary(rule: TotalRule, progress: Pick<TeamProgress, 'have' | 'by'>): string {
  if (isWomRuleType(rule.type)) return womSummary(rule, progress);
  const shares = progress.by.map((s) => `${s.ign} ${formatAmount(s.amount)}`).join(', ');
  const what = rule.names.length > 0 ? rule.names.join(', ') : rule.type;
  return `${what} x${formatAmount(progress.have)}${shares ? ` (${shares})` : ''}`;
}

/** A Wise Old Man metric as people read it: 'clue_scrolls_all' → 'Clue scrolls all'. */
function metricLabel(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The summary of a Wise Old Man total (docs/server.md §17): the metrics (or EHB/EHP), the gain
 * with its unit and each IGN's gain, e.g. 'Fishing +512,340 XP (Ali Cat +300,000, Bobby Tank +212,340)'.
 */
function womSummary(rule: TotalRule, progress: Pick<TeamProgress, 'have' | 'by'>): string {
  const what = rule.names.length > 0 ? rule.names.map(metricLabel).join(', ') : rule.type;
  const unit = rule.type === 'XP' ? 'XP' : rule.type === 'KC' ? 'kills' : 'hours';
  const shares = progress.by.map((s) => `${s.ign} +${formatAmount(s.amount)}`).join(', ');
  return `${what} +${formatAmount(progress.have)} ${unit}${shares ? ` (${shares})` : ''}`;
}

/**
 * The stored `progress` text (team_states.progress JSON) as a TeamProgress, or null when there is
 * none or it is unreadable.
 */
export function parseProgress(text: string | null | undefined): TeamProgress | null {
  if (text === null || text === undefined) return null;
  try {
    const parsed = v.safeParse(TeamProgressSchema, JSON.parse(text));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/** What a bar says (docs/client.md §9): `have` / `need` in the unit, e.g. '300 / 500 items', '1,234 / 500,000 xp'. */
export function progressCount(progress: Pick<TeamProgress, 'have' | 'need' | 'unit'>): string {
  return `${formatAmount(progress.have)} / ${formatAmount(progress.need)} ${progress.unit}`;
}

/**
 * A bar's accessible name, the same wherever the bar is drawn (Team Positions, the task card, the
 * board's square): '{team}: team total 300 / 500 items'.
 */
export function progressLabel(teamName: string, progress: Pick<TeamProgress, 'have' | 'need' | 'unit'>): string {
  return `${teamName}: team total ${progressCount(progress)}`;
}

/**
 * Whether 'Check now' applies to a team (docs/server.md §17 'Wise Old Man checks'): the task of its
 * square (`rule`, the square's auto rule; not a relief substitute, whose rule the game shape does
 * not carry) is a Wise Old Man total, the team holds progress, and the task still waits (neither
 * none nor approved). Whether the game is in progress is the caller's to add.
 */
export function isWomCheckable(
  team: { task_state: string; task_override?: object | null; progress?: TeamProgress | null },
  rule: Pick<AutoRule, 'type'> | null | undefined,
): boolean {
  return Boolean(team.progress) && !team.task_override && Boolean(rule) && isWomRuleType(rule!.type) && team.task_state !== 'none' && team.task_state !== 'approved';
}

/** How full the bar is, 0..1 (need 0 counts as full). */
export function progressShare(progress: Pick<TeamProgress, 'have' | 'need'>): number {
  if (progress.need <= 0) return 1;
  return Math.max(0, Math.min(1, progress.have / progress.need));
}
