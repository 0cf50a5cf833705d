import * as v from 'valibot';
import { SubmissionSchema } from './submission';

/**
 * Data rights (docs/server.md §18 "Data rights"; docs/client.md §3): a user takes their data with
 * GET /api/user/me/export and leaves with DELETE /api/user/me. The texts and shapes here are
 * shared by the server's routes and the profile page.
 */

/** The name a deleted account's past submissions and reviews show instead of its username. */
export const DELETED_USER_NAME = 'Deleted user';

/** The refusals and the success of DELETE /api/user/me, as the profile page shows them too. */
export const DATA_RIGHTS_TEXTS = {
  /** 400: `confirm` is not the username, exactly as it is written. */
  confirm: 'Type your username to confirm.',
  /** 409 while the user is the only Owner of a clan. */
  soleOwner: (clan: string) => `Transfer ownership of ${clan} or disband it first.`,
  /** 409 while an IGN of the user is on a team of a game that is not finished. */
  playing: (ign: string, event: string) =>
    `Your IGN '${ign}' is on a team in ${event}, a game that is not finished. Delete your account once the game has finished.`,
  deleted: 'Your account was deleted.',
} as const;

/** DELETE /api/user/me body: the username typed again (any other value, or none, is the 400 'Type your username to confirm.'). */
export const DeleteAccountBodySchema = v.object(
  { confirm: v.string(DATA_RIGHTS_TEXTS.confirm) },
  DATA_RIGHTS_TEXTS.confirm,
);

/** DELETE /api/user/me answer. */
export const DeleteAccountAnswerSchema = v.object({ ok: v.literal(true) });

/**
 * GET /api/user/me/export answer (a JSON attachment): what the site holds about the user, times ISO.
 * - profile: the account and its Discord identity;
 * - igns, memberships (with the clan's name), join_requests (every one still stored, decided or not);
 * - signups: each with its event, clan, IGN and team (null when not placed);
 * - submissions: the proofs they sent, in the Submission shape (image and thumbnail as same-origin
 *   paths, never their bytes), each with its clan and event;
 * - log_entries: the game log lines that name one of their IGNs (as a whole word, any case) in the
 *   games their IGNs were on a team of, oldest first;
 * - dink_posts: the Dink posts received under one of their IGNs in the events their IGNs played.
 */
export const AccountExportSchema = v.object({
  exported_at: v.string(),
  profile: v.object({
    id: v.number(),
    username: v.string(),
    discord_id: v.string(),
    discord_username: v.string(),
    avatar_url: v.nullable(v.string()),
    created_at: v.string(),
    last_login: v.nullable(v.string()),
  }),
  igns: v.array(v.object({ id: v.number(), ign: v.string(), created_at: v.string() })),
  memberships: v.array(v.object({ clan_id: v.number(), clan_name: v.string(), role: v.string(), joined_at: v.string() })),
  join_requests: v.array(
    v.object({
      id: v.number(),
      clan_id: v.number(),
      clan_name: v.string(),
      status: v.string(),
      reason: v.nullable(v.string()),
      created_at: v.string(),
      decided_at: v.nullable(v.string()),
    }),
  ),
  signups: v.array(
    v.object({
      id: v.number(),
      event_id: v.number(),
      event_name: v.string(),
      clan_id: v.number(),
      clan_name: v.string(),
      ign: v.string(),
      wants_leader: v.boolean(),
      note: v.string(),
      score: v.nullable(v.number()),
      team_id: v.nullable(v.number()),
      team_name: v.nullable(v.string()),
      created_at: v.string(),
      updated_at: v.string(),
    }),
  ),
  submissions: v.array(v.object({ ...SubmissionSchema.entries, clan_id: v.number(), clan_name: v.string(), event_name: v.string() })),
  log_entries: v.array(
    v.object({
      id: v.number(),
      game_id: v.number(),
      event_name: v.string(),
      clan_name: v.string(),
      timestamp: v.string(),
      team_name: v.string(),
      message: v.string(),
    }),
  ),
  dink_posts: v.array(
    v.object({ id: v.number(), event_id: v.number(), event_name: v.string(), at: v.string(), player_name: v.string(), type: v.string(), summary: v.string(), outcome: v.string() }),
  ),
});
export type AccountExport = v.InferOutput<typeof AccountExportSchema>;

/** The attachment's file name for user `userId` on the UTC day of `at` (ISO): csl-data-{id}-{YYYY-MM-DD}.json. */
export function exportFileName(userId: number, at: string): string {
  return `csl-data-${userId}-${at.slice(0, 10)}.json`;
}

/**
 * True when `text` names `ign` as a whole word, in any case (OSRS names ignore case): the IGN is
 * neither preceded nor followed by a letter or digit. So 'Bo' is named in 'Bo rolled' but not in 'Bob'.
 */
export function namesIgn(text: string, ign: string): boolean {
  const hay = text.toLowerCase();
  const needle = ign.toLowerCase();
  if (!needle) return false;
  const word = /[\p{L}\p{N}]/u;
  for (let at = hay.indexOf(needle); at !== -1; at = hay.indexOf(needle, at + 1)) {
    const before = at === 0 ? '' : hay[at - 1];
    const after = hay[at + needle.length] ?? '';
    if (!word.test(before) && !word.test(after)) return true;
  }
  return false;
}
