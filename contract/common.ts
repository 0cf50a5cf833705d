import * as v from 'valibot';

/** Every error answer of the API: `{"error": "<human readable message>"}` (docs/server.md, intro). */
export const ErrorBodySchema = v.object({ error: v.string() });

/** `{ok: true}` answers of deletes and status changes (docs/server.md §3). */
export const OkSchema = v.object({ ok: v.literal(true) });

/** Largest id a database integer column holds (2^31 - 1). */
export const ID_MAX = 2147483647;

/** A positive integer id in a URL path, 1..ID_MAX; refuses '12abc', '-1', '0', '1e3'. */
export const IdParamSchema = v.pipe(
  v.string(),
  v.regex(/^[1-9][0-9]{0,9}$/, 'Invalid id.'),
  v.transform(Number),
  v.maxValue(ID_MAX, 'Invalid id.'),
);

/** The refusal of a request body that is not a JSON object: an array, null or a bare value (docs/server.md §1). */
export const BODY_NOT_OBJECT = 'Request body must be a JSON object.';

/**
 * The schema of a JSON request body with these fields (docs/server.md §1): valibot's object
 * schema whose own refusal of a non-object is BODY_NOT_OBJECT.
 */
export function jsonBodySchema<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return v.object(entries, BODY_NOT_OBJECT);
}

/**
 * True for a JSON object: not null, an array or a primitive. valibot's `v.object` checks only
 * `typeof x === 'object'`, so without this an array body would pass as `{}` with every field absent.
 */
export function isJsonObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * First issue message of a failed valibot parse, for `{"error": ...}` answers and form errors.
 * Shape: issues array from `v.safeParse(...).issues`; returns '' for none.
 */
export function firstIssueMessage(issues: readonly { message: string }[] | undefined): string {
  return issues && issues.length > 0 ? issues[0].message : '';
}
