import { splitIgnList } from '../../../contract/onboarding';
import { applyTextRule } from '../../../contract/text';
import { IGN_FIELD } from '../../../contract/user';
import { clanNameField } from '../../../contract/clan';
import type { ActionResult } from '../../../machines/confirmAction.machine';
import { errorText } from '../../../contract/errorText';
import { DATA_RIGHTS_TEXTS } from '../../../contract/dataRights';

/** Profile form texts (docs/game-rules.md §13). */
export const PROFILE_TEXTS = {
  ignEmpty: 'IGN field cannot be empty. Please enter a name.',
  noValidIgns: 'No valid IGNs found. Please enter names separated by commas.',
  newIgnEmpty: 'New IGN field cannot be empty. Please enter a name.',
  ignUnchanged: 'The new IGN is the same as the current one. No change was made.',
  clanNameEmpty: 'Clan name cannot be empty. Please enter a name.',
  loading: 'Loading profile data...',
} as const;

/** The Link New IGNs form: the comma-separated names. */
export interface IgnLinkDraft {
  text: string;
}

/** The Edit IGN form: the new value and the current one. */
export interface IgnEditDraft {
  ign: string;
  current: string;
}

/** The Create New Clan form. */
export interface ClanCreateDraft {
  name: string;
}

/**
 * Link IGNs rule (docs/game-rules.md §13): the field must not be empty, and splitting on
 * commas (trimmed, empty items dropped) must leave at least one name.
 */
export function validateIgnLink({ text }: IgnLinkDraft): string | null {
  if (!text.trim()) return PROFILE_TEXTS.ignEmpty;
  if (splitIgnList(text).length === 0) return PROFILE_TEXTS.noValidIgns;
  return null;
}

/**
 * Edit IGN rule (docs/game-rules.md §13): a new value after the text rule (control
 * characters refused as the server does), different from the current one.
 */
export function validateIgnEdit(draft: IgnEditDraft): string | null {
  const rule = applyTextRule(draft.ign, IGN_FIELD);
  if (!rule.ok) return rule.message;
  const next = rule.value;
  if (!next) return PROFILE_TEXTS.newIgnEmpty;
  if (next === draft.current) return PROFILE_TEXTS.ignUnchanged;
  return null;
}

/** Create clan rule (docs/game-rules.md §13): a name is required after the text rule. */
export function validateClanCreate(draft: ClanCreateDraft): string | null {
  const rule = applyTextRule(draft.name, clanNameField('clan_name'));
  if (!rule.ok) return rule.message;
  return rule.value ? null : PROFILE_TEXTS.clanNameEmpty;
}

/** The Delete account form: the username typed again, and the username it must equal. */
export interface DeleteAccountDraft {
  typed: string;
  username: string;
}

/**
 * Delete account rule (docs/client.md §3, docs/server.md §18): the username typed exactly as it is
 * written, else the server's own 400 text 'Type your username to confirm.'
 */
export function validateDeleteAccount(draft: DeleteAccountDraft): string | null {
  return draft.typed === draft.username ? null : DATA_RIGHTS_TEXTS.confirm;
}

/** The result lines of a multi-IGN link. */
export const linkLines = {
  linked: (ign: string) => `Linked ${ign}.`,
  failed: (ign: string, reason: string) => `Could not link ${ign}: ${reason}`,
};

/**
 * Links each IGN of `text` with its own call, one after another (docs/game-rules.md §13:
 * "Each IGN is posted separately; the result lists successes and per-IGN failures"). Resolves
 * with one line per IGN when at least one was linked (partial when some failed, so the result
 * is not shown as a success); rejects with the same lines when none was.
 */
export async function linkEach(text: string, link: (ign: string) => Promise<unknown>): Promise<ActionResult> {
  const lines: string[] = [];
  let linked = 0;
  for (const ign of splitIgnList(text)) {
    try {
      await link(ign);
      linked += 1;
      lines.push(linkLines.linked(ign));
    } catch (error) {
      lines.push(linkLines.failed(ign, errorText(error, 'Request failed.')));
    }
  }
  const message = lines.join('\n');
  if (linked === 0) throw new Error(message);
  return { message, partial: linked < lines.length };
}
