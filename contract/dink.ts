import * as v from 'valibot';
import { applyTextRule, hasControlChars, removeInvisible } from './text';

// ---------------------------------------------------------------------------------------------
// Dink: proof straight from the game (docs/server.md §13). The event's Dink
// link, the recent posts list, the auto rule a task may carry, and the pure rules that read a
// Dink post (the RuneLite plugin's `payload_json`) and match it against a task's rule. Shared by
// the server (server/dink/), the task API and CSV import (server/tasks/) and the client's panels.
// ---------------------------------------------------------------------------------------------

/** The Dink notification types a task's auto rule may name (docs/server.md §13). */
export const DINK_TYPES = [
  'LOOT',
  'COLLECTION',
  'KILL_COUNT',
  'LEVEL',
  'QUEST',
  'CLUE',
  'PET',
  'COMBAT_ACHIEVEMENT',
  'ACHIEVEMENT_DIARY',
  'SLAYER',
] as const;
export type DinkType = (typeof DINK_TYPES)[number];

/** True when `s` is one of DINK_TYPES. */
function isDinkType(s: string): s is DinkType {
  return (DINK_TYPES as readonly string[]).includes(s);
}

/**
 * A post's outcome, in the order they are judged after the 204 (docs/server.md §13); `counted`: it
 * matched a team-total rule and was added to the team's total without reaching it (docs/server.md §17);
 * `over_quota`: it would have counted, but its image would take the clan past its upload quota, so
 * nothing was stored (docs/server.md §18 "Quotas").
 */
export const DINK_OUTCOMES = ['duplicate', 'not_running', 'unknown_player', 'suspicious', 'no_task', 'no_match', 'over_quota', 'counted', 'submitted', 'approved'] as const;
export type DinkOutcome = (typeof DINK_OUTCOMES)[number];

/**
 * The Wise Old Man types a task's auto rule may name: team totals only (docs/server.md §17 Rules).
 * XP: experience gained in skill metrics; KC: kills or score gained in boss or activity metrics;
 * EHB and EHP: efficient hours gained (no names).
 */
export const WOM_RULE_TYPES = ['XP', 'KC', 'EHB', 'EHP'] as const;
export type WomRuleType = (typeof WOM_RULE_TYPES)[number];

/** Every type an auto rule may carry: the Dink types, then the Wise Old Man ones. */
export const AUTO_RULE_TYPES = [...DINK_TYPES, ...WOM_RULE_TYPES] as const;
export type AutoRuleType = (typeof AUTO_RULE_TYPES)[number];

/** True when `type` is measured by Wise Old Man (XP, KC, EHB, EHP) rather than by Dink posts. */
export function isWomRuleType(type: string): type is WomRuleType {
  return (WOM_RULE_TYPES as readonly string[]).includes(type);
}

/** Most names one auto rule may list. */
const AUTO_RULE_NAMES_MAX = 50;
/** Longest name in an auto rule (characters after the text rule). */
const AUTO_RULE_NAME_MAX = 100;
/** Largest `min` (a quantity, kill count or level). */
const AUTO_RULE_MIN_MAX = 2147483647;
/** Largest `team_total` (docs/server.md §17 Rules). */
const AUTO_RULE_TEAM_TOTAL_MAX = 1_000_000_000;

/** 400 texts of an auto rule, each naming its field (task API and CSV rows). */
export const AUTO_RULE_MESSAGES = {
  notObject: 'auto_rule must be an object {type, names, min, team_total, distinct} or null.',
  type: `auto_rule.type must be one of ${AUTO_RULE_TYPES.join(', ')}.`,
  names: `auto_rule.names must be a list of 1 to ${AUTO_RULE_NAMES_MAX} names.`,
  name: `Each auto_rule name must be 1 to ${AUTO_RULE_NAME_MAX} characters without control characters.`,
  min: 'auto_rule.min must be a whole number of 1 or more, or null.',
  teamTotal: 'auto_rule.team_total must be a whole number from 1 to 1,000,000,000, or null.',
  distinct: 'auto_rule.distinct must be true or false.',
  /** Verbatim (docs/server.md §17 Rules): `team_total` together with `min`. */
  totalAndMin: 'A team total and a minimum cannot be combined.',
  /** Verbatim (docs/server.md §17 Rules): XP, KC, EHB or EHP without `team_total`. */
  needsTotal: 'This rule needs a team total.',
  /** A name that is not a Wise Old Man metric of the rule's kind (docs/server.md §17 Rules). */
  unknownMetric: (type: WomRuleType, name: string) =>
    type === 'XP'
      ? `auto_rule name '${name}' is not a Wise Old Man skill metric.`
      : type === 'KC'
        ? `auto_rule name '${name}' is not a Wise Old Man boss or activity metric.`
        : `auto_rule name '${name}' is not allowed: ${type} rules take no names.`,
} as const;

/** One name of a rule: the text rule (no control characters, NFC, trimmed), 1-100 characters. */
const RuleNameSchema = v.pipe(
  v.string(AUTO_RULE_MESSAGES.name),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const result = applyTextRule(dataset.value, { label: 'auto_rule name', field: 'auto_rule.names' });
    if (!result.ok || result.value.length === 0 || result.value.length > AUTO_RULE_NAME_MAX) {
      addIssue({ message: AUTO_RULE_MESSAGES.name });
      return NEVER;
    }
    return result.value;
  }),
);

/** A whole number in [1, max] or null (left out: null). */
const countOrNull = (max: number, message: string) =>
  v.optional(v.nullable(v.pipe(v.number(message), v.integer(message), v.minValue(1, message), v.maxValue(max, message))), null);

/**
 * A task's auto rule `{type, names, min, team_total, distinct}` (docs/server.md §13 and §17
 * Rules): the type (a Dink type, or XP, KC, EHB, EHP measured by Wise Old Man), the names that
 * count (compared ignoring case: item names for LOOT and COLLECTION, the boss for KILL_COUNT, the
 * skill for LEVEL, the quest, the clue tier, the pet, the combat task, "{area} {difficulty}" for
 * a diary, the monster for SLAYER; Wise Old Man metric names such as `fishing` or `zulrah` for XP
 * and KC, stored lower case; none for EHB and EHP), `min` (a quantity, kill count or level; null
 * for none), `team_total` (1..1,000,000,000 or null: the amount the team sums to) and `distinct`
 * (each name counts once). `type` is read case-insensitively; names are deduplicated ignoring
 * case. Checked in this order, the first failure being the 400: the fields, then
 * 'A team total and a minimum cannot be combined.', 'This rule needs a team total.', the names
 * list (1-50 names; none for EHB/EHP). Whether a Wise Old Man name is a real metric is checked
 * apart by `womMetricError` (the lists live server-side, see its comment).
 */
export const AutoRuleSchema = v.pipe(
  v.object(
    {
      type: v.pipe(v.string(AUTO_RULE_MESSAGES.type), v.trim(), v.toUpperCase(), v.picklist(AUTO_RULE_TYPES, AUTO_RULE_MESSAGES.type)),
      names: v.pipe(v.array(RuleNameSchema, AUTO_RULE_MESSAGES.names), v.transform(dedupeNames), v.maxLength(AUTO_RULE_NAMES_MAX, AUTO_RULE_MESSAGES.names)),
      min: countOrNull(AUTO_RULE_MIN_MAX, AUTO_RULE_MESSAGES.min),
      team_total: countOrNull(AUTO_RULE_TEAM_TOTAL_MAX, AUTO_RULE_MESSAGES.teamTotal),
      distinct: v.optional(v.boolean(AUTO_RULE_MESSAGES.distinct), false),
    },
    AUTO_RULE_MESSAGES.notObject,
  ),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const rule = dataset.value;
    if (rule.team_total !== null && rule.min !== null) {
      addIssue({ message: AUTO_RULE_MESSAGES.totalAndMin });
      return NEVER;
    }
    if (isWomRuleType(rule.type) && rule.team_total === null) {
      addIssue({ message: AUTO_RULE_MESSAGES.needsTotal });
      return NEVER;
    }
    // EHB and EHP take no names (a name given is refused by womMetricError, naming it).
    if (rule.names.length === 0 && rule.type !== 'EHB' && rule.type !== 'EHP') {
      addIssue({ message: AUTO_RULE_MESSAGES.names });
      return NEVER;
    }
    const names = rule.type === 'XP' || rule.type === 'KC' ? rule.names.map((n) => n.toLowerCase()) : rule.names;
    return { type: rule.type, names, min: rule.min, team_total: rule.team_total, distinct: rule.distinct };
  }),
);
export type AutoRule = v.InferOutput<typeof AutoRuleSchema>;

/** `auto_rule` in a task body: a rule, or null for none. */
export const AutoRuleFieldSchema = v.nullable(AutoRuleSchema);

/** The rule as every task shape carries it (already checked). */
export const AutoRuleShapeSchema = v.nullable(
  v.object({
    type: v.picklist(AUTO_RULE_TYPES),
    names: v.array(v.string()),
    min: v.nullable(v.number()),
    team_total: v.optional(v.nullable(v.number()), null),
    distinct: v.optional(v.boolean(), false),
  }),
);

/**
 * Wise Old Man's metric names by rule kind (from @wise-old-man/utils: SKILLS for XP, BOSSES and
 * ACTIVITIES for KC). Passed in rather than imported here, because that package does not
 * tree-shake (its enums and API client come along) and contract/ is in every client chunk.
 */
export interface WomMetricLists {
  skills: readonly string[];
  killables: readonly string[];
}

/**
 * The 400 text for the first name of a checked rule that is not a Wise Old Man metric of its kind
 * (XP: a skill; KC: a boss or activity; EHB/EHP: no name at all), else null; null for Dink types
 * (docs/server.md §17 Rules). Names compare lower case.
 */
export function womMetricError(rule: Pick<AutoRule, 'type' | 'names'>, lists: WomMetricLists): string | null {
  if (!isWomRuleType(rule.type)) return null;
  const allowed = new Set<string>(rule.type === 'XP' ? lists.skills : rule.type === 'KC' ? lists.killables : []);
  const bad = rule.names.find((n) => !allowed.has(n.toLowerCase()));
  return bad === undefined ? null : AUTO_RULE_MESSAGES.unknownMetric(rule.type, bad);
}

/** What a team total counts in (docs/server.md §17 Rules), shown after `have` / `need`. */
export type ProgressUnit = 'items' | 'kills' | 'xp' | 'hours' | 'posts';

/**
 * The unit of a rule's team total (docs/server.md §17 Rules): LOOT 'items', KILL_COUNT and KC
 * 'kills', XP 'xp', EHB and EHP 'hours', every other Dink type 'posts'; with `distinct` (a Dink
 * type), 'items' for LOOT and COLLECTION, else 'posts'. `distinct` means nothing to the Wise Old
 * Man types (they sum gains), so their unit is their type's.
 */
export function progressUnit(rule: Pick<AutoRule, 'type' | 'distinct'>): ProgressUnit {
  switch (rule.type) {
    case 'XP':
      return 'xp';
    case 'KC':
      return 'kills';
    case 'EHB':
    case 'EHP':
      return 'hours';
    case 'LOOT':
    case 'COLLECTION':
      return rule.distinct || rule.type === 'LOOT' ? 'items' : 'posts';
    case 'KILL_COUNT':
      return rule.distinct ? 'posts' : 'kills';
    default:
      return 'posts';
  }
}

/** Names without repeats (ignoring case), first spelling kept. */
function dedupeNames(names: string[]): string[] {
  const seen = new Set<string>();
  return names.filter((name) => {
    const key = nameKey(name);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * An auto rule from the CSV's optional cells `auto_type`, `auto_names` (separated by `|`),
 * `auto_min`, `auto_total` and `auto_distinct` (docs/server.md §13 and §17 Rules): null when all
 * are blank, else the checked rule or the row's error text. `auto_distinct` is `true` or `false`
 * (any case; blank false). Metric names are checked apart (womMetricError).
 */
export function autoRuleFromCells(
  type: string,
  names: string,
  min: string,
  total = '',
  distinct = '',
): { ok: true; rule: AutoRule | null } | { ok: false; message: string } {
  const minText = min.trim();
  const totalText = total.trim();
  const distinctText = distinct.trim().toLowerCase();
  if (type.trim() === '' && names.trim() === '' && minText === '' && totalText === '' && distinctText === '') return { ok: true, rule: null };
  if (minText !== '' && !/^[0-9]+$/.test(minText)) return { ok: false, message: AUTO_RULE_MESSAGES.min };
  if (totalText !== '' && !/^[0-9]+$/.test(totalText)) return { ok: false, message: AUTO_RULE_MESSAGES.teamTotal };
  if (distinctText !== '' && distinctText !== 'true' && distinctText !== 'false') return { ok: false, message: AUTO_RULE_MESSAGES.distinct };
  const parsed = v.safeParse(AutoRuleSchema, {
    type,
    names: names.split('|').map((n) => n.trim()).filter((n) => n !== ''),
    min: minText === '' ? null : Number(minText),
    team_total: totalText === '' ? null : Number(totalText),
    distinct: distinctText === 'true',
  });
  return parsed.success ? { ok: true, rule: parsed.output } : { ok: false, message: parsed.issues[0].message };
}

// --------------------------------------------------------------------------------------------
// Link, settings and recent posts (managers; docs/server.md §13)
// --------------------------------------------------------------------------------------------

/** The event's Dink link: `url` is `<origin>/api/dink/{token}`; times ISO. */
const DinkLinkSchema = v.object({ url: v.string(), auto_approve: v.boolean(), created_at: v.string() });
export type DinkLink = v.InferOutput<typeof DinkLinkSchema>;

/** `{dink}`: POST (make or rotate), GET (null when none) and PUT answers. */
export const DinkLinkAnswerSchema = v.object({ dink: v.nullable(DinkLinkSchema) });
export type DinkLinkAnswer = v.InferOutput<typeof DinkLinkAnswerSchema>;

/** PUT .../dink body: `{auto_approve}`. */
export const DinkSettingsBodySchema = v.object(
  { auto_approve: v.boolean('auto_approve must be true or false.') },
  'Request body must be a JSON object with auto_approve.',
);
export type DinkSettingsBody = v.InferOutput<typeof DinkSettingsBodySchema>;

/** One received post: `player_name` and `type` as posted, `summary` of what it says, its outcome. */
const DinkPostSchema = v.object({
  at: v.string(),
  player_name: v.string(),
  type: v.string(),
  summary: v.string(),
  outcome: v.picklist(DINK_OUTCOMES),
});
export type DinkPost = v.InferOutput<typeof DinkPostSchema>;

/**
 * `dink_post` socket payload (docs/server.md §13): a post just judged for event `event_id`, sent
 * to the clan's managers room (`join_reviews`), so the Dink panel's recent list updates live.
 */
export interface DinkPostUpdate {
  event_id: number;
  post: DinkPost;
}

/** GET .../dink/recent answer: the last 200 posts, newest first. */
export const DinkRecentAnswerSchema = v.object({ posts: v.array(DinkPostSchema) });
export type DinkRecentAnswer = v.InferOutput<typeof DinkRecentAnswerSchema>;

/**
 * One IGN's pinned Dink account (docs/server.md §13 'Pinned accounts'): the IGN on a team of the
 * event (`ign_id` names it in DELETE .../dink/accounts/{ignId}), the first 8 characters of the
 * pinned `dinkAccountHash`, when it was pinned (ISO), and `posts`: the posts received under that
 * IGN with that hash since the pin (the pinning post included, duplicates not).
 */
const DinkAccountSchema = v.object({
  ign_id: v.number(),
  ign: v.string(),
  account_hash_prefix: v.string(),
  pinned_at: v.string(),
  posts: v.number(),
});
export type DinkAccount = v.InferOutput<typeof DinkAccountSchema>;

/** GET .../dink/accounts answer: the pins of IGNs on the event's teams, by IGN. */
export const DinkAccountsAnswerSchema = v.object({ accounts: v.array(DinkAccountSchema) });

/** How many characters of a pinned account hash managers see. */
export const DINK_HASH_PREFIX_LENGTH = 8;

/** Most posts GET .../dink/recent lists (and the server keeps per event). */
export const DINK_RECENT_MAX = 200;
/** Posts a minute one live token takes before 429. */
export const DINK_RATE_PER_MINUTE = 60;
/** Window in which the same post (same JSON and image bytes) is taken once, ms. */
export const DINK_DEDUPE_MS = 10 * 60 * 1000;

/** Where a submission came from: a member's upload or a Dink post. */
export const SUBMISSION_SOURCES = ['upload', 'dink', 'wom'] as const;
export type SubmissionSource = (typeof SUBMISSION_SOURCES)[number];

/** What a Dink post (or a Wise Old Man check: its rule's type) said, on a submission made from it (null for uploads). */
export const EvidenceSchema = v.nullable(v.object({ type: v.picklist(AUTO_RULE_TYPES), summary: v.string() }));
export type Evidence = v.InferOutput<typeof EvidenceSchema>;

/** Texts of the Dink routes and the log line of an automatic approval (docs/server.md §13). */
export const DINK_MESSAGES = {
  /** Verbatim (docs/server.md §13). */
  autoApproved: (summary: string) => `Approved automatically from Dink: ${summary}.`,
  noLink: 'This event has no Dink link. Make one first.',
  notFound: 'Not found.',
  rateLimited: 'Too many posts to this Dink link. Slow down.',
  noPayload: 'payload_json is required and must be JSON.',
  badFile: 'The file must be a PNG or JPEG image.',
  tooLarge: 'The file is too large: at most 8 MiB.',
  revoked: 'Dink link revoked.',
  /** 404 of DELETE .../dink/accounts/{ignId} for an IGN that is not on a team of the event. */
  ignNotOnTeam: (ignId: number) => `IGN ID ${ignId} is not on a team of this event.`,
} as const;

// --------------------------------------------------------------------------------------------
// Names: players and rule names
// --------------------------------------------------------------------------------------------

/**
 * The key under which OSRS compares player names: NFC, lower case, and space, `_`, `-` and the
 * no-break space the game client uses all alike (docs/server.md §13 'as the game does').
 * 'Iron_Man-1' and 'iron man 1' have the same key.
 */
export function ignKey(name: string): string {
  return name.normalize('NFC').trim().toLowerCase().replace(/[ _\-\u00A0]/g, ' ');
}

/** The key under which rule names and post names compare: NFC, case and surrounding/inner runs of space ignored. */
function nameKey(name: string): string {
  return name.normalize('NFC').trim().toLowerCase().replace(/\s+/g, ' ');
}

// --------------------------------------------------------------------------------------------
// Reading a post
// --------------------------------------------------------------------------------------------

/** One thing a post names with its quantity: an item and how many, a boss and its kill count, a skill and its level. */
interface DinkThing {
  name: string;
  quantity: number;
}

/** What a post of a known type says: its type, the named things, and a one-line summary for people. */
export interface DinkEvidence {
  type: DinkType;
  things: DinkThing[];
  summary: string;
}

/**
 * A Dink post read for judging: the player name and type as posted (for the recent list; '' when
 * missing), `player` the name when it is usable text (a non-empty string without control
 * characters, at most 64 characters), the account hash when there is one, and the evidence when
 * the type is known and its fields are there (else null: the post is recorded 'no_match').
 */
export interface DinkReading {
  player_name: string;
  player: string | null;
  type: string;
  account_hash: string | null;
  evidence: DinkEvidence | null;
  summary: string;
}

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
/** A name as Dink sends it: a non-empty string of at most 200 characters without control characters. */
const str = (x: unknown): string | null => (typeof x === 'string' && x.trim() !== '' && x.length <= 200 && !hasControlChars(x) ? x.trim() : null);
/** A whole number ≥ 0, also when Dink sends it as a string ('30' for slayerCompleted). */
const num = (x: unknown): number | null => {
  const n = typeof x === 'number' ? x : typeof x === 'string' && /^\s*[0-9]{1,12}\s*$/.test(x) ? Number(x) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
};
/** 'HARD' → 'Hard', 'grandmaster' → 'Grandmaster'. */
const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();

/** Items of LOOT and CLUE posts, `{name, quantity}` each; null when the list is missing or malformed. */
function items(x: unknown): DinkThing[] | null {
  if (!Array.isArray(x) || x.length > 1000) return null;
  const out: DinkThing[] = [];
  for (const item of x) {
    if (!isObject(item)) return null;
    const name = str(item.name);
    const quantity = num(item.quantity ?? 1);
    if (name === null || quantity === null) return null;
    out.push({ name, quantity });
  }
  return out;
}

/** 'Dragon warhammer x1, Bones x1' (at most 5 items, then 'and N more'). */
function itemList(list: DinkThing[]): string {
  const shown = list.slice(0, 5).map((i) => `${i.name} x${i.quantity}`);
  if (list.length > 5) shown.push(`and ${list.length - 5} more`);
  return shown.join(', ');
}

/** Evidence of one known type from its `extra`, or null when its fields are missing or malformed. */
function readExtra(type: DinkType, extra: Json): DinkEvidence | null {
  switch (type) {
    case 'LOOT': {
      const list = items(extra.items);
      const source = str(extra.source);
      if (!list || list.length === 0) return null;
      return { type, things: list, summary: source ? `${itemList(list)} from ${source}` : itemList(list) };
    }
    case 'COLLECTION': {
      const name = str(extra.itemName);
      if (!name) return null;
      return { type, things: [{ name, quantity: 1 }], summary: `Collection log: ${name}` };
    }
    case 'KILL_COUNT': {
      const boss = str(extra.boss);
      const count = num(extra.count);
      if (!boss || count === null) return null;
      return { type, things: [{ name: boss, quantity: count }], summary: `${boss} kill count ${count}` };
    }
    case 'LEVEL': {
      if (!isObject(extra.levelledSkills)) return null;
      const things: DinkThing[] = [];
      for (const [skill, level] of Object.entries(extra.levelledSkills)) {
        const name = str(skill);
        const n = num(level);
        if (!name || n === null) return null;
        things.push({ name, quantity: n });
      }
      if (things.length === 0) return null;
      return { type, things, summary: things.map((t) => `${t.name} level ${t.quantity}`).join(', ') };
    }
    case 'QUEST': {
      const quest = str(extra.questName);
      if (!quest) return null;
      return { type, things: [{ name: quest, quantity: 1 }], summary: `Quest complete: ${quest}` };
    }
    case 'CLUE': {
      const tier = str(extra.clueType);
      if (!tier) return null;
      const list = extra.items === undefined ? [] : items(extra.items);
      if (!list) return null;
      const loot = list.length > 0 ? `: ${itemList(list)}` : '';
      return { type, things: [{ name: tier, quantity: 1 }], summary: `${title(tier)} clue completed${loot}` };
    }
    case 'PET': {
      const pet = str(extra.petName);
      // Dink leaves petName out when the game did not name the pet: a pet, but nothing to match.
      return { type, things: pet ? [{ name: pet, quantity: 1 }] : [], summary: pet ? `Pet: ${pet}` : 'Pet (name not sent)' };
    }
    case 'COMBAT_ACHIEVEMENT': {
      const task = str(extra.task);
      const tier = str(extra.tier);
      if (!task) return null;
      return { type, things: [{ name: task, quantity: 1 }], summary: tier ? `${title(tier)} combat task: ${task}` : `Combat task: ${task}` };
    }
    case 'ACHIEVEMENT_DIARY': {
      const area = str(extra.area);
      const difficulty = str(extra.difficulty);
      if (!area || !difficulty) return null;
      const name = `${area} ${title(difficulty)}`;
      return { type, things: [{ name, quantity: 1 }], summary: `${name} diary` };
    }
    case 'SLAYER': {
      // `monster` is the task's monster; older Dink versions send only `slayerTask` ('Kalphite'
      // or '35 Kalphite'). `killCount` is how many were slain on the task.
      const monster = str(extra.monster) ?? str(typeof extra.slayerTask === 'string' ? extra.slayerTask.replace(/^\s*[0-9]+\s+/, '') : null);
      if (!monster) return null;
      const kills = num(extra.killCount) ?? (typeof extra.slayerTask === 'string' ? num(/^\s*([0-9]+)\s/.exec(extra.slayerTask)?.[1]) : null) ?? 1;
      return { type, things: [{ name: monster, quantity: kills }], summary: `Slayer task complete: ${kills} ${monster}` };
    }
  }
}

/**
 * `text` as the recent list shows it (docs/server.md §13): zero-width and bidi-control characters
 * removed (a U+202E in a name would turn the row's text around), control characters shown as
 * U+FFFD, cut to `max` characters. Applied when a post is stored and again when the list is read.
 */
export function shownPostText(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  return removeInvisible(text).replace(/[\u0000-\u001F\u007F-\u009F]/g, '\uFFFD').slice(0, max);
}

/**
 * Reads a parsed `payload_json` (docs/server.md §13). Never throws: anything that is not a
 * Dink post of a known type with its fields gives `evidence: null` (recorded 'no_match').
 */
export function readDinkPayload(payload: unknown): DinkReading {
  const body = isObject(payload) ? payload : {};
  const rawName = typeof body.playerName === 'string' ? body.playerName : '';
  const rawType = typeof body.type === 'string' ? body.type : '';
  const player = rawName.length <= 64 ? str(rawName) : null;
  const hash = typeof body.dinkAccountHash === 'string' && body.dinkAccountHash.length > 0 && body.dinkAccountHash.length <= 200 ? body.dinkAccountHash : null;
  const type = isDinkType(rawType) ? rawType : null;
  const evidence = type && isObject(body.extra) ? readExtra(type, body.extra) : null;
  const summary = evidence ? evidence.summary : type ? `${type} post without its details` : rawType ? `Unsupported post type ${shownPostText(rawType, 40)}` : 'Not a Dink post';
  return { player_name: shownPostText(rawName, 64), player, type: shownPostText(rawType, 40), account_hash: hash, evidence, summary: shownPostText(summary, 300) };
}

/**
 * True when `evidence` satisfies `rule` (docs/server.md §13): same type, one of the rule's names
 * named by the post (ignoring case), and with `min` the quantity reached: for LOOT the sum of the
 * matching items' quantities, otherwise the largest matching quantity (kill count, level, slayer
 * kills; 1 for the rest).
 */
export function matchesAutoRule(rule: AutoRule, evidence: DinkEvidence): boolean {
  if (rule.type !== evidence.type) return false;
  const wanted = new Set(rule.names.map(nameKey));
  const hits = evidence.things.filter((t) => wanted.has(nameKey(t.name)));
  if (hits.length === 0) return false;
  if (rule.min === null) return true;
  const quantity = rule.type === 'LOOT' ? hits.reduce((sum, t) => sum + t.quantity, 0) : Math.max(...hits.map((t) => t.quantity));
  return quantity >= rule.min;
}
