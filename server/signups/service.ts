import type { Db } from '../db/schema';
import { badRequest, conflict } from '../errors';
import { readCsvRows } from '../http/csvRows';
import { byName } from '../events/shared';
import { ignKey } from '../../contract/dink';
import { balanceTeams, type BalanceProposal, type BalanceSlot } from '../../contract/balance';
import { TEAM_COLOR_PRESETS } from '../../contract/team';
import { SCORE_CSV_MAX_ROWS, SCORE_MAX, SIGNUP_MESSAGES, type ScoreImportAnswer } from '../../contract/signupApi';
import { setScore } from './repository';

/** A free agent as balancing reads it: a sign-up whose IGN is on no team of the event and whose user is still in the clan. */
interface FreeAgent {
  id: number;
  score: number | null;
  wants_leader: boolean;
  osrs_ign_id: number;
}

/** The event's free agents (docs/server.md §16), by id. */
export async function freeAgents(db: Db, clanId: number, eventId: number): Promise<FreeAgent[]> {
  const rows = await db.selectFrom('signups')
    .select(['signups.id', 'signups.score', 'signups.wants_leader', 'signups.osrs_ign_id'])
    .where('signups.event_id', '=', eventId)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('team_members').select('team_members.id').whereRef('team_members.ign_id', '=', 'signups.osrs_ign_id').where('team_members.event_id', '=', eventId))))
    .where((eb) => eb.exists(eb.selectFrom('clan_memberships').select('clan_memberships.id').whereRef('clan_memberships.user_id', '=', 'signups.user_id').where('clan_memberships.clan_id', '=', clanId)))
    .orderBy('signups.id')
    .execute();
  return rows.map((r) => ({ id: r.id, score: r.score === null ? null : Number(r.score), wants_leader: Number(r.wants_leader) === 1, osrs_ign_id: r.osrs_ign_id }));
}

/**
 * The team slots of a balance over `count` teams (docs/server.md §16): the event's existing teams
 * first (oldest first), then new ones named 'Team 1', 'Team 2', ... skipping names the event
 * already has (case ignored). `count` 0 means the existing teams alone (400 when there are none).
 */
export async function balanceSlots(db: Db, eventId: number, count: number): Promise<BalanceSlot[]> {
  const teams = await db.selectFrom('teams').select(['id', 'name']).where('event_id', '=', eventId).orderBy('id').execute();
  if (count === 0) {
    if (teams.length === 0) throw badRequest(SIGNUP_MESSAGES.noTeams);
    return teams.map((t) => ({ team_id: t.id, name: t.name }));
  }
  const slots: BalanceSlot[] = teams.slice(0, count).map((t) => ({ team_id: t.id, name: t.name }));
  const taken = new Set(teams.map((t) => t.name.toLowerCase()));
  for (let k = 1; slots.length < count; k++) {
    const name = `Team ${k}`;
    if (!taken.has(name.toLowerCase())) slots.push({ team_id: null, name });
  }
  return slots;
}

/** The proposal for the event's free agents over `count` teams (see balanceSlots); 409 without free agents. */
export async function proposeTeams(db: Db, clanId: number, eventId: number, count: number): Promise<BalanceProposal> {
  const agents = await freeAgents(db, clanId, eventId);
  if (agents.length === 0) throw conflict(SIGNUP_MESSAGES.noFreeAgents);
  return balanceTeams(agents, await balanceSlots(db, eventId, count));
}

/**
 * A proposal in a canonical form for comparing two (key order fixed). The leaders are left out:
 * the manager may choose another member of a team as its Leader before applying (a team
 * balanced without anyone who would lead has none), and that choice does not make it stale.
 */
function canonical(p: BalanceProposal): string {
  return JSON.stringify({
    spread: p.spread,
    teams: p.teams.map((t) => [t.team_id, t.name, t.signup_ids, t.total_score]),
  });
}

/** True when two proposals are the same teams, members, totals and spread (leaders aside, see canonical). */
export function sameProposal(a: BalanceProposal, b: BalanceProposal): boolean {
  return canonical(a) === canonical(b);
}

/** True when every team's leader is null or one of that team's own sign-ups. */
export function leadersOnOwnTeams(p: BalanceProposal): boolean {
  return p.teams.every((t) => t.leader_signup_id === null || t.signup_ids.includes(t.leader_signup_id));
}

/** `#rrggbb` of hue `h` (degrees) at 65 % saturation and 40 % lightness. */
function hslHex(h: number): string {
  const s = 0.65;
  const l = 0.4;
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255).toString(16).padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/**
 * `count` colours distinct from each other and from `used` (lower-case `#rrggbb`): the preset
 * swatches first, then hues spread by the golden angle.
 */
export function distinctColors(used: readonly string[], count: number): string[] {
  const taken = new Set(used.map((c) => c.toLowerCase()));
  const out: string[] = [];
  const candidates = [...TEAM_COLOR_PRESETS.map((p) => p.hex)];
  for (let k = 0; candidates.length < TEAM_COLOR_PRESETS.length + 400; k++) candidates.push(hslHex((k * 137.508) % 360));
  for (const c of candidates) {
    if (out.length === count) break;
    if (taken.has(c)) continue;
    taken.add(c);
    out.push(c);
  }
  return out;
}

/**
 * A plain decimal number: up to 7 digits, optionally a point and up to 6 more. Number() alone
 * would also take '0x10', '0b101', '1e3', '.5' and 'Infinity'.
 */
const PLAIN_DECIMAL = /^\d{1,7}(\.\d{1,6})?$/;

/** A score cell's value (already trimmed): a plain decimal number 0..SCORE_MAX, else null. */
function csvScore(text: string): number | null {
  if (!PLAIN_DECIMAL.test(text)) return null;
  const score = Number(text);
  return score <= SCORE_MAX ? score : null;
}

/**
 * Sets scores from CSV text `ign,score` (docs/server.md §16): a header naming `ign` and `score`
 * (any order, case ignored); at most SCORE_CSV_MAX_ROWS rows (400 past it); no NUL byte (400).
 * Each row names a signed-up IGN of the event (exactly, else the one IGN that compares equal with
 * case, space, `_` and `-` ignored) and a plain decimal score 0..1,000,000 (digits, optionally a
 * point and more digits: no sign, exponent, hex or binary); a bad row is an error
 * `{row, ign, message}` (row = its line, header = 1) and the good ones are set (`score_source`
 * 'csv'). Run inside a transaction: file-level errors change nothing.
 */
export async function importScores(db: Db, eventId: number, text: string): Promise<ScoreImportAnswer> {
  if (text.includes('\u0000')) throw badRequest(SIGNUP_MESSAGES.csvNul);
  const rows = readCsvRows(text);
  if (rows.length === 0) throw badRequest('The CSV file is empty.');
  if (rows.length - 1 > SCORE_CSV_MAX_ROWS) throw badRequest(SIGNUP_MESSAGES.csvTooManyRows);
  const header = rows[0].cells.map((h) => h.trim().toLowerCase());
  const ignCol = header.indexOf('ign');
  const scoreCol = header.indexOf('score');
  if (ignCol < 0 || scoreCol < 0) throw badRequest(SIGNUP_MESSAGES.csvHeader);
  if (rows.length === 1) throw badRequest(SIGNUP_MESSAGES.csvNoRows);

  const signups = await db.selectFrom('signups').innerJoin('igns', 'igns.id', 'signups.osrs_ign_id')
    .select(['signups.id', 'igns.ign']).where('signups.event_id', '=', eventId).execute();
  const exact = new Map(signups.map((s) => [s.ign, s.id]));
  const loose = new Map<string, number | null>();
  for (const s of signups.sort((a, b) => byName(a.ign, b.ign))) {
    const k = ignKey(s.ign);
    loose.set(k, loose.has(k) ? null : s.id);
  }

  const errors: ScoreImportAnswer['errors'] = [];
  const updates = new Map<number, number>();
  for (const { cells, line } of rows.slice(1)) {
    const ign = (cells[ignCol] ?? '').trim();
    const rawScore = (cells[scoreCol] ?? '').trim();
    const id = exact.get(ign) ?? loose.get(ignKey(ign)) ?? null;
    const score = csvScore(rawScore);
    if (id === null) errors.push({ row: line, ign: ign.slice(0, 40), message: SIGNUP_MESSAGES.csvUnknownIgn });
    else if (score === null) errors.push({ row: line, ign: ign.slice(0, 40), message: SIGNUP_MESSAGES.csvBadScore });
    else updates.set(id, score);
  }
  for (const [id, score] of updates) await setScore(db, id, score, 'csv');
  return { updated_count: updates.size, errors };
}
