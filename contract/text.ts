import * as v from 'valibot';

// ---------------------------------------------------------------------------------------------
// The text rule (docs/server.md §8), written once for every text a user types:
// IGNs, the dev sign-in name, clan, team and event names, task descriptions (and later notes and
// reasons). Client forms and server routes parse with the same contract schemas, so both apply it.
// ---------------------------------------------------------------------------------------------

/** A typed-text field as messages name it: the human label and the JSON field name. */
export interface TextField {
  /** Human label, e.g. 'Clan name'. */
  label: string;
  /** JSON field name, e.g. 'clan_name'. */
  field: string;
  /** True for multi-line text (task descriptions, notes, reasons): line breaks \n and \r are kept. */
  multiline?: boolean;
}

/** C0 (U+0000-U+001F, tab included), DEL (U+007F) and C1 (U+0080-U+009F) control characters. */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
/** The same, except the line breaks LF (U+000A) and CR (U+000D) of multi-line fields. */
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0009\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/**
 * Zero-width characters (U+200B-U+200D, U+2060, U+FEFF, U+180E) and bidi controls (U+061C,
 * U+200E, U+200F, U+202A-U+202E, U+2066-U+2069): invisible, so removed before length and
 * uniqueness checks. Note that this also removes ZWJ inside emoji sequences and ZWNJ in scripts
 * that use it; the docs prefers names that look alike to compare alike.
 */
const INVISIBLE = /[\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/g;

/** The 400 text for a control character in `f`: '{label} ({field}) must not contain control characters.' */
export function controlCharsMessage(f: TextField): string {
  return `${f.label} (${f.field}) must not contain control characters.`;
}

/** True when `text` holds a control character refused in `f` (C0, DEL, C1; line breaks allowed only when multi-line). */
export function hasControlChars(text: string, multiline = false): boolean {
  return (multiline ? CONTROL_EXCEPT_LINE_BREAKS : CONTROL).test(text);
}

/** `text` without zero-width and bidi-control characters (see INVISIBLE above). */
export function removeInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

/**
 * The cleaning half of the text rule, without the control-character check: zero-width and
 * bidi-control characters removed, NFC, trimmed. For splitting typed lists on the client
 * (splitIgnList); the schemas use applyTextRule.
 */
export function cleanText(text: string): string {
  return removeInvisible(text).normalize('NFC').trim();
}

/** Outcome of the text rule: the cleaned text, or the 400 message naming the field. */
export type TextRuleResult = { ok: true; value: string } | { ok: false; message: string };

/**
 * The text rule of docs/server.md §8 on one typed value: refuses control characters
 * (C0 incl. tab, DEL, C1; \n and \r only in multi-line fields) with controlCharsMessage(f), then
 * removes zero-width and bidi-control characters, NFC-normalises (after the removal, so the result
 * is always NFC) and trims. Length checks come after it, on what is left (a name of only U+200B is
 * empty). Pure; shared by the valibot action `typedText` and the CSV reader.
 */
export function applyTextRule(text: string, f: TextField): TextRuleResult {
  if (hasControlChars(text, f.multiline)) return { ok: false, message: controlCharsMessage(f) };
  return { ok: true, value: cleanText(text) };
}

/**
 * The text rule as one valibot transformation for a pipe after `v.string(...)`: outputs the
 * cleaned text (see applyTextRule) or fails with controlCharsMessage(f), so the field's existing
 * length checks follow it: `v.pipe(v.string(msg), typedText(f), v.minLength(1, msg), v.maxLength(n, msg))`.
 */
function typedText(f: TextField) {
  return v.rawTransform<string, string>(({ dataset, addIssue, NEVER }) => {
    const result = applyTextRule(dataset.value, f);
    if (!result.ok) {
      addIssue({ message: result.message });
      return NEVER;
    }
    return result.value;
  });
}

/** The messages and limits of one typed-text field, besides its name (see typedTextSchema). */
export interface TypedTextSpec extends TextField {
  /** Message for a value that is not a string; also for an empty one unless `empty` is given. */
  required: string;
  /** Message when nothing is left after the rule (default `required`). */
  empty?: string;
  /** Fewest characters after the rule (default 1). */
  min?: number;
  /** Most characters after the rule (UTF-16 code units, as `String.length`). */
  max: number;
  /** Message past `max`. */
  tooLong: string;
}

/**
 * A typed-text schema: string (else `required`) → the text rule (typedText) → at least `min`
 * characters (else `empty`) → at most `max` (else `tooLong`). Output: the cleaned text.
 */
export function typedTextSchema(s: TypedTextSpec) {
  return v.pipe(
    v.string(s.required),
    typedText(s),
    v.minLength(s.min ?? 1, s.empty ?? s.required),
    v.maxLength(s.max, s.tooLong),
  );
}

/**
 * Text that comes from outside and is stored but cannot be refused (e.g. a Discord username):
 * control characters dropped rather than refused, zero-width and bidi controls removed, NFC,
 * trimmed. Never use it for text a user types here: that is refused with a 400 (applyTextRule).
 */
export function sanitizeForeignText(text: string): string {
  return cleanText(text.replace(/[\u0000-\u001F\u007F-\u009F]/g, ''));
}

/**
 * The uniqueness key of a clan name (docs/server.md §4, §8: unique case-insensitively
 * after NFKC): zero-width and bidi controls removed, NFKC, case-folded (upper then lower case, so
 * 'ß' and 'SS' meet, as Unicode's NFKC_Casefold does), NFKC again, whitespace runs made one space
 * (HTML shows them as one) and trimmed. 'Ｉｒｏｎ Dragons', 'IRON DRAGONS' and 'Iron\u200B Dragons'
 * all give 'iron dragons'. Used by every insert, rename and lookup of `clans.name_key`, and by
 * migration 004, which recomputes the stored keys: a change here needs a new migration.
 */
export function clanNameKey(name: string): string {
  const folded = removeInvisible(name).normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
  return folded.replace(/\s+/g, ' ').trim();
}
