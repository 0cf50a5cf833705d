import { BOARD_SIZES, isBoardSize } from './board';
import { autoSplit } from './split';
import { countsToSettings, DEFAULT_SETTINGS, RELIEF_LIMITS, SETTINGS_MESSAGES, TASK_COUNT_FIELDS, validateSettings, type GameSettings } from './settings';

/**
 * The game settings form as typed (docs/game-rules.md §4): pure helpers over the
 * draft, shared by the eventGame chart and the settings form.
 */

/** One field of the game settings form. */
export type SettingsField = keyof GameSettings;

/** The settings form as typed: one string per field ('' = empty). */
export type SettingsDraft = Record<SettingsField, string>;

/** Every field of the form, in form order. */
const SETTINGS_FIELDS: readonly SettingsField[] = [
  'board_size',
  'num_snakes',
  'num_ladders',
  'max_reverts_allowed',
  ...TASK_COUNT_FIELDS,
];

/** The form's strings for a settings object. */
export function draftFromSettings(settings: Readonly<GameSettings>): SettingsDraft {
  const draft = {} as SettingsDraft;
  for (const field of SETTINGS_FIELDS) draft[field] = String(settings[field]);
  return draft;
}

/**
 * The draft after typing `value` into `field`. Choosing a board size (one of BOARD_SIZES) also
 * fills the five task counts with autoSplit of that size (docs/game-rules.md §13).
 */
export function changeSettingsDraft(draft: SettingsDraft, field: SettingsField, value: string): SettingsDraft {
  const next = { ...draft, [field]: value };
  const size = Number(value);
  if (field === 'board_size' && value.trim() !== '' && isBoardSize(size)) {
    const counts = countsToSettings(autoSplit(size));
    for (const f of TASK_COUNT_FIELDS) next[f] = String(counts[f]);
  }
  return next;
}

/** The settings of a draft, or null while any field is empty or not a number. */
export function parseSettingsDraft(draft: SettingsDraft): GameSettings | null {
  const settings = {} as GameSettings;
  for (const field of SETTINGS_FIELDS) {
    const text = (draft[field] ?? '').trim();
    const n = Number(text);
    if (text === '' || !Number.isFinite(n)) return null;
    settings[field] = n;
  }
  return settings;
}

/** Result of checkSettingsDraft. */
export interface SettingsCheck {
  /** The first broken rule's message (documented text), or null when the draft may be sent. */
  error: string | null;
  /** The field the error is about ('counts' for the task total), or null. */
  field: SettingsField | 'counts' | null;
  /** Sum of the task counts typed so far (empty counts as 0). */
  totalTasks: number;
  /** Task tiles of the board: board_size - 2, or null while the size is not one of BOARD_SIZES. */
  taskTiles: number | null;
  /** The total exceeds the task tiles: the note turns to error styling. */
  exceeded: boolean;
}

/**
 * The rules of the settings form (docs/game-rules.md §4): every field required
 * ('All fields are required.'), then contract validateSettings (board size, snakes, ladders,
 * reverts, negative counts, total vs board_size - 2, feasibility), with the field it concerns.
 */
export function checkSettingsDraft(draft: SettingsDraft): SettingsCheck {
  const size = Number(draft.board_size);
  const taskTiles = draft.board_size.trim() !== '' && isBoardSize(size) ? size - 2 : null;
  const totalTasks = TASK_COUNT_FIELDS.reduce((sum, f) => sum + (Number.isFinite(Number(draft[f])) ? Number(draft[f]) : 0), 0);
  const exceeded = taskTiles !== null && totalTasks > taskTiles;
  const settings = parseSettingsDraft(draft);
  if (settings === null) {
    const blank = SETTINGS_FIELDS.find((f) => parseSettingsDraft({ ...DEFAULT_DRAFT, [f]: draft[f] }) === null) ?? null;
    return { error: SETTINGS_MESSAGES.required, field: blank, totalTasks, taskTiles, exceeded };
  }
  const error = validateSettings(settings);
  return { error, field: error === null ? null : fieldOfMessage(error), totalTasks, taskTiles, exceeded };
}

const DEFAULT_DRAFT: SettingsDraft = draftFromSettings(DEFAULT_SETTINGS);

function fieldOfMessage(message: string): SettingsField | 'counts' | null {
  if (message === SETTINGS_MESSAGES.boardSize) return 'board_size';
  if (message === SETTINGS_MESSAGES.snakes) return 'num_snakes';
  if (message === SETTINGS_MESSAGES.ladders) return 'num_ladders';
  if (message === SETTINGS_MESSAGES.reverts) return 'max_reverts_allowed';
  if (message.startsWith('A board of')) return 'num_snakes';
  return 'counts';
}

/** The board sizes the form offers (docs/client.md §12). */
export const FORM_BOARD_SIZES = BOARD_SIZES;

/** The relief fields of the settings form as typed (docs/game-rules.md §15): hours ('' = off) and substitutes per team. */
export interface ReliefDraft {
  afterHours: string;
  maxPerTeam: string;
}

/** The relief settings a game holds (or the defaults: off, 2 per team). */
export interface ReliefSettings {
  relief_after_hours: number | null;
  relief_max_per_team: number;
}

/** The form's messages for the relief fields (the server's limits, docs/server.md §15). */
export const RELIEF_DRAFT_MESSAGES = {
  afterHours: `Hours before a new task may be asked for must be empty (relief off) or a whole number from ${RELIEF_LIMITS.minHours} to ${RELIEF_LIMITS.maxHours}.`,
  maxPerTeam: `New tasks per team must be a whole number from 0 to ${RELIEF_LIMITS.maxPerTeam}.`,
} as const;

/** The relief fields' strings for a game's settings (absent: the defaults, relief off). */
export function reliefDraftOf(settings: Partial<ReliefSettings> | null): ReliefDraft {
  const hours = settings?.relief_after_hours ?? null;
  return { afterHours: hours === null ? '' : String(hours), maxPerTeam: String(settings?.relief_max_per_team ?? RELIEF_LIMITS.defaultPerTeam) };
}

/** The relief settings of the fields, or the first broken rule's message (and its field). */
export function checkReliefDraft(draft: ReliefDraft): { ok: true; settings: ReliefSettings } | { ok: false; error: string; field: keyof ReliefDraft } {
  const hoursText = draft.afterHours.trim();
  const hours = Number(hoursText);
  if (hoursText !== '' && !(/^\d+$/.test(hoursText) && hours >= RELIEF_LIMITS.minHours && hours <= RELIEF_LIMITS.maxHours)) {
    return { ok: false, error: RELIEF_DRAFT_MESSAGES.afterHours, field: 'afterHours' };
  }
  const maxText = draft.maxPerTeam.trim();
  const max = Number(maxText);
  if (!/^\d+$/.test(maxText) || max > RELIEF_LIMITS.maxPerTeam) return { ok: false, error: RELIEF_DRAFT_MESSAGES.maxPerTeam, field: 'maxPerTeam' };
  return { ok: true, settings: { relief_after_hours: hoursText === '' ? null : hours, relief_max_per_team: max } };
}
