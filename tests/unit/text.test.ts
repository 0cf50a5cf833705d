import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { applyTextRule, cleanText, clanNameKey, controlCharsMessage, hasControlChars, removeInvisible, sanitizeForeignText } from '../../contract/text';
import { DevLoginBodySchema, IgnBodySchema } from '../../contract/user';
import { CLAN_NAME_EMPTY, CreateClanBodySchema, RENAME_EMPTY_OR_SAME, RenameClanBodySchema } from '../../contract/clan';
import { OWNER_NEEDS_NAME, ONBOARDING_IGN_ERROR, SetupBodySchema, clanSetupError, splitIgnList, onboardingIgns } from '../../contract/onboarding';
import { TEAM_NAME_REQUIRED, TEAM_NAME_TOO_LONG, TeamBodySchema } from '../../contract/team';
import { EVENT_NAME_TOO_LONG, EVENT_REQUIRED, EventBodySchema } from '../../contract/event';
import { TASK_DESCRIPTION_TOO_LONG, TASK_REQUIRED, TaskBodySchema } from '../../contract/task';
import { firstIssueMessage } from '../../contract/common';
import { parseTaskCsv } from '../../server/tasks/csv';
import { teamFormError } from '../../src/features/teams/teamForm';
import { eventFormError } from '../../src/features/events/eventForm';
import { validateTaskDraft } from '../../src/features/tasks/TasksTab';
import { PROFILE_TEXTS, validateClanCreate, validateIgnEdit } from '../../src/features/profile/profileActions';
import { validateRename } from '../../src/features/clan/ClanManagePage';

/**
 * The text rule of docs/server.md §8 on every typed-text schema of the
 * contract: NFC, control characters refused with the field named (line breaks only in multi-line
 * fields), zero-width and bidi controls removed before the length checks, and the NFKC clan key.
 */

/** One control character of each class the rule refuses. */
const CONTROLS: [string, string][] = [
  ['NUL', '\u0000'],
  ['BEL (C0)', '\u0007'],
  ['tab', '\t'],
  ['ESC (C0)', '\u001B'],
  ['DEL', '\u007F'],
  ['NEL (C1)', '\u0085'],
  ['CSI (C1)', '\u009B'],
];
const ZERO_WIDTH = ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u180E'];
const BIDI = ['\u061C', '\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];

const FUTURE = '2099-01-31T18:00:00.000Z';

/**
 * Every typed-text field: a body carrying `text` in it, the schema, the field's label and JSON
 * name, whether it is multi-line, its empty message and its limit with the too-long message.
 */
const FIELDS = [
  { name: 'IGN', schema: IgnBodySchema, body: (t: string) => ({ ign: t }), label: 'IGN', field: 'ign', multiline: false, empty: 'IGN cannot be empty.', max: 12, tooLong: 'IGN must be at most 12 characters.' },
  { name: 'setup IGN', schema: SetupBodySchema, body: (t: string) => ({ igns: ['Okay', t], clan_setup: { role: 'None' } }), label: 'IGN', field: 'igns', multiline: false, empty: ONBOARDING_IGN_ERROR, max: 12, tooLong: 'Each IGN must be 1 to 12 characters.' },
  { name: 'dev sign-in', schema: DevLoginBodySchema, body: (t: string) => ({ username: t }), label: 'Username', field: 'username', multiline: false, empty: 'Username is required.', max: 32, tooLong: 'Username must be at most 32 characters.' },
  { name: 'clan create', schema: CreateClanBodySchema, body: (t: string) => ({ clan_name: t }), label: 'Clan name', field: 'clan_name', multiline: false, empty: CLAN_NAME_EMPTY, max: 40, tooLong: 'Clan name must be at most 40 characters.' },
  { name: 'setup clan', schema: SetupBodySchema, body: (t: string) => ({ igns: ['Okay'], clan_setup: { role: 'Owner', clan_name: t } }), label: 'Clan name', field: 'clan_name', multiline: false, empty: OWNER_NEEDS_NAME, max: 40, tooLong: 'Clan name must be at most 40 characters.' },
  { name: 'clan rename', schema: RenameClanBodySchema, body: (t: string) => ({ new_name: t }), label: 'Clan name', field: 'new_name', multiline: false, empty: RENAME_EMPTY_OR_SAME, max: 40, tooLong: 'Clan name must be at most 40 characters.' },
  { name: 'team', schema: TeamBodySchema, body: (t: string) => ({ name: t, color: '#112233' }), label: 'Team name', field: 'name', multiline: false, empty: TEAM_NAME_REQUIRED, max: 50, tooLong: TEAM_NAME_TOO_LONG },
  { name: 'event', schema: EventBodySchema, body: (t: string) => ({ name: t, start_datetime: FUTURE }), label: 'Event name', field: 'name', multiline: false, empty: EVENT_REQUIRED, max: 100, tooLong: EVENT_NAME_TOO_LONG },
  { name: 'task', schema: TaskBodySchema, body: (t: string) => ({ description: t, difficulty: 'EASY' }), label: 'Description', field: 'description', multiline: true, empty: TASK_REQUIRED, max: 500, tooLong: TASK_DESCRIPTION_TOO_LONG },
] as const;

/** The first message of parsing `body` with `schema`, or null when it parses. */
function messageOf(schema: v.GenericSchema, body: unknown): string | null {
  const r = v.safeParse(schema, body);
  return r.success ? null : firstIssueMessage(r.issues);
}

/** The cleaned text of the field in the parse output. */
function textOf(f: (typeof FIELDS)[number], text: string): string {
  const out = v.parse(f.schema as v.GenericSchema, f.body(text)) as Record<string, any>;
  if (f.name === 'setup IGN') return out.igns[1];
  if (f.name === 'setup clan') return out.clan_setup.clan_name;
  return out[f.field];
}

describe('the text rule (contract/text.ts)', () => {
  it('names the field by label and JSON name', () => {
    expect(controlCharsMessage({ label: 'Clan name', field: 'clan_name' })).toBe('Clan name (clan_name) must not contain control characters.');
  });

  it('refuses C0 (tab included), DEL and C1; line breaks only in multi-line text', () => {
    for (const [, c] of CONTROLS) {
      expect(hasControlChars(`a${c}b`)).toBe(true);
      expect(hasControlChars(`a${c}b`, true)).toBe(true);
    }
    for (const br of ['\n', '\r', '\r\n']) {
      expect(hasControlChars(`a${br}b`)).toBe(true);
      expect(hasControlChars(`a${br}b`, true)).toBe(false);
    }
    // Neighbours of the ranges are ordinary text.
    expect(hasControlChars(' ~\u00A0\u00FFé')).toBe(false);
  });

  it('removes zero-width and bidi controls, NFC-normalises and trims', () => {
    for (const c of [...ZERO_WIDTH, ...BIDI]) expect(removeInvisible(`Iron${c} Dragons`)).toBe('Iron Dragons');
    expect(cleanText('  Cafe\u0301 \u200B')).toBe('Caf\u00E9');
    // NFC after the removal: a combining mark separated by U+200B still composes.
    expect(cleanText('e\u200B\u0301')).toBe('\u00E9');
    expect(applyTextRule('\u202Eevil\u202C', { label: 'X', field: 'x' })).toEqual({ ok: true, value: 'evil' });
    expect(applyTextRule('a\u0000b', { label: 'X', field: 'x' })).toEqual({ ok: false, message: 'X (x) must not contain control characters.' });
  });

  it('cleans foreign text instead of refusing it', () => {
    expect(sanitizeForeignText(' ne\u0000lly\u200B\u0085 ')).toBe('nelly');
  });
});

describe.each(FIELDS)('the text rule in the $name schema', (f) => {
  const refused = `${f.label} (${f.field}) must not contain control characters.`;

  it.each(CONTROLS)('refuses %s with the field named', (_, c) => {
    expect(messageOf(f.schema as v.GenericSchema, f.body(`Ab${c}c`))).toBe(refused);
    // Also alone and at the ends, where a trim would otherwise have hidden it.
    expect(messageOf(f.schema as v.GenericSchema, f.body(c))).toBe(refused);
  });

  it(f.multiline ? 'keeps line breaks' : 'refuses line breaks', () => {
    for (const br of ['\n', '\r', '\r\n']) {
      if (f.multiline) expect(textOf(f, `Line 1${br}Line 2`)).toBe(`Line 1${br}Line 2`);
      else expect(messageOf(f.schema as v.GenericSchema, f.body(`Ab${br}c`))).toBe(refused);
    }
  });

  it('NFC-normalises', () => {
    expect(textOf(f, 'Cafe\u0301')).toBe('Caf\u00E9');
  });

  it('removes zero-width and bidi controls before the length checks', () => {
    for (const c of [...ZERO_WIDTH, ...BIDI]) expect(textOf(f, `A${c}b`)).toBe('Ab');
    // A text of invisible characters only is empty: the field's own empty message.
    expect(messageOf(f.schema as v.GenericSchema, f.body('\u200B'))).toBe(f.empty);
    expect(messageOf(f.schema as v.GenericSchema, f.body(` \u200B\u202E\u2066 `))).toBe(f.empty);
    // The limit counts what is left: max characters plus invisible ones fit, one more does not.
    expect(textOf(f, 'x'.repeat(f.max) + '\u200B'.repeat(5))).toBe('x'.repeat(f.max));
    expect(messageOf(f.schema as v.GenericSchema, f.body('x'.repeat(f.max + 1)))).toBe(f.tooLong);
  });
});

describe('clan name key (docs/server.md §4, §8)', () => {
  it('is one key for full-width, upper-case and zero-width variants', () => {
    const key = clanNameKey('Iron Dragons');
    expect(key).toBe('iron dragons');
    for (const variant of ['\uFF29\uFF52\uFF4F\uFF4E Dragons', 'IRON DRAGONS', 'Iron\u200B Dragons', '\u202EIron Dragons\u202C', ' iron  dragons ', 'Iron\u00A0Dragons']) {
      expect(clanNameKey(variant), JSON.stringify(variant)).toBe(key);
    }
  });
  it('folds case beyond lower case and composes compatibly', () => {
    expect(clanNameKey('STRASSE')).toBe(clanNameKey('Straße'));
    expect(clanNameKey('\uFB01re')).toBe(clanNameKey('FIRE'));
    expect(clanNameKey('Cafe\u0301')).toBe(clanNameKey('CAFÉ'));
    expect(clanNameKey('Iron Dragons')).not.toBe(clanNameKey('Iron Dragon'));
  });
});

describe('IGN lists and CSV rows follow the rule', () => {
  it('splitIgnList cleans items, so invisible-only items drop out', () => {
    expect(splitIgnList('Zezima\u200B, \u200B ,Cafe\u0301,Zezima')).toEqual(['Zezima', 'Caf\u00E9']);
    expect(onboardingIgns('\u200B,\u2066')).toEqual({ error: ONBOARDING_IGN_ERROR });
  });

  it('a CSV description breaking the rule is a row error, the good rows stay', () => {
    const csv = 'description,difficulty\nGood one,EASY\nBad\u0000one,EASY\nC1\u0085here,HARD\n"Two\nlines",MEDIUM\n\u200B,EASY\nTab\there,EASY\nInvisible\u200B gone,ELITE\n';
    const { tasks, errors } = parseTaskCsv(csv);
    // "Two\nlines" spans lines 5 and 6, so the records after it start on lines 7, 8 and 9.
    expect(tasks.map((t) => [t.row, t.description])).toEqual([[2, 'Good one'], [5, 'Two\nlines'], [9, 'Invisible gone']]);
    const refused = 'Description (description) must not contain control characters.';
    expect(errors).toEqual([
      { row: 3, message: refused },
      { row: 4, message: refused },
      { row: 7, message: 'Description is required.' },
      { row: 8, message: refused },
    ]);
  });
});

describe('the client forms apply the same rule before sending', () => {
  const ctl = (label: string, field: string) => `${label} (${field}) must not contain control characters.`;

  it('team, event and task forms parse with the contract schemas', () => {
    expect(teamFormError({ name: '\u200B', color: '#000000' })).toBe(TEAM_NAME_REQUIRED);
    expect(teamFormError({ name: 'Red\u0000', color: '#000000' })).toBe(ctl('Team name', 'name'));
    expect(teamFormError({ name: 'Red', color: '#000000' })).toBeNull();
    const event = { name: 'Bingo', start: '2099-02-01T10:00', end: '', originalStart: null, originalStartIso: null, signupsOpen: false, signupsCloseAt: '' };
    expect(eventFormError(event, Date.now())).toBeNull();
    expect(eventFormError({ ...event, name: '\u202E' }, Date.now())).toBe(EVENT_REQUIRED);
    expect(eventFormError({ ...event, name: 'Bin\u0085go' }, Date.now())).toBe(ctl('Event name', 'name'));
    expect(eventFormError({ ...event, name: 'Bin\u0085go', start: '' }, Date.now())).toBe(EVENT_REQUIRED);
    expect(validateTaskDraft({ description: 'Two\nlines', difficulty: 'EASY' })).toBeNull();
    expect(validateTaskDraft({ description: '\u200B', difficulty: 'EASY' })).toBe(TASK_REQUIRED);
    expect(validateTaskDraft({ description: 'Tab\there', difficulty: 'EASY' })).toBe(ctl('Description', 'description'));
    expect(validateTaskDraft({ description: 'Fine', difficulty: '' })).toBe(TASK_REQUIRED);
  });

  it('IGN edit, clan create, rename and onboarding keep their own texts and refuse control characters', () => {
    expect(validateIgnEdit({ ign: '\u200B', current: 'Zezima' })).toBe(PROFILE_TEXTS.newIgnEmpty);
    expect(validateIgnEdit({ ign: 'Zez\u200Bima', current: 'Zezima' })).toBe(PROFILE_TEXTS.ignUnchanged);
    expect(validateIgnEdit({ ign: 'Zez\u0007', current: 'Zezima' })).toBe(ctl('IGN', 'ign'));
    expect(validateClanCreate({ name: '\u2066\u2069' })).toBe(PROFILE_TEXTS.clanNameEmpty);
    expect(validateClanCreate({ name: 'Iron\u0000' })).toBe(ctl('Clan name', 'clan_name'));
    expect(validateRename({ name: 'Iron\u200B Legion', current: 'Iron Legion' })).toBe(RENAME_EMPTY_OR_SAME);
    expect(validateRename({ name: 'New\u009B', current: 'Iron Legion' })).toBe(ctl('Clan name', 'new_name'));
    expect(validateRename({ name: 'New Name', current: 'Iron Legion' })).toBeNull();
    expect(clanSetupError({ role: 'Owner', clan_name: '\u200B' })).toBe(OWNER_NEEDS_NAME);
  });
});
