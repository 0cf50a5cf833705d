import type { Generated, Kysely, Transaction } from 'kysely';
import type { GameSettings } from '../../contract/game/settings';

/** Row types of every table; one migration set creates them for SQLite and PostgreSQL. */
interface UsersTable {
  id: Generated<number>;
  username: string;
  avatar_url: string | null;
  created_at: string;
  last_login: string | null;
}
interface DiscordIdentitiesTable {
  id: Generated<number>;
  user_id: number;
  discord_id: string;
  username: string;
  avatar: string | null;
  updated_at: string;
}
interface SessionsTable {
  /** sha-256 hex of the cookie's session id, so a leaked table cannot be replayed. */
  id: string;
  user_id: number;
  /** JSON object of session data keys (docs/server.md §2: session_keys). */
  data: string;
  created_at: string;
  expires_at: string;
}
interface IgnsTable {
  id: Generated<number>;
  user_id: number;
  ign: string;
  created_at: string;
}
interface ClansTable {
  id: Generated<number>;
  name: string;
  name_key: string;
  created_at: string;
  /** 'open', 'request' or 'invite' (docs/server.md §18; migration 021_join_requests). */
  join_policy: Generated<string>;
  /** 1 when the clan is in GET /api/clans, 0 when not. */
  listed: Generated<number>;
}
/** A request to join a clan (docs/server.md §18; migration 021_join_requests); a withdrawn one is deleted. */
interface JoinRequestsTable {
  id: Generated<number>;
  clan_id: number;
  user_id: number;
  status: 'pending' | 'approved' | 'denied';
  reason: string | null;
  created_at: string;
  decided_at: string | null;
  decided_by: number | null;
}
interface ClanMembershipsTable {
  id: Generated<number>;
  clan_id: number;
  user_id: number;
  role: string;
  joined_at: string;
}
/** An invite to a clan (docs/server.md §18 "Invites"; migration 022_invites). */
interface InvitesTable {
  id: Generated<number>;
  clan_id: number;
  /** Random base64url, unique: the invite's link is `/invite/{code}`. */
  code: string;
  max_uses: number;
  /** Accepts so far; never above max_uses. */
  uses: Generated<number>;
  expires_at: string;
  created_at: string;
  created_by: number | null;
  /** Set by a revoke; a revoked invite answers as unknown. */
  revoked_at: string | null;
}
/** One entry of a clan's History (docs/server.md §18 "History"; migration 023_audit). */
interface AuditEntriesTable {
  id: Generated<number>;
  clan_id: number;
  /** ISO time of the change. */
  at: string;
  /** The manager who made it; null once their account is gone. */
  actor_user_id: number | null;
  /** One of contract/audit.ts AUDIT_ACTIONS. */
  action: string;
  /** The thing changed, in words. */
  target: string;
  /** What changed, in words; never a secret. */
  detail: string;
}
/** A kicked member of a clan (docs/server.md §8). */
interface ClanRemovalsTable {
  clan_id: number;
  user_id: number;
  removed_at: string;
}
interface EventsTable {
  id: Generated<number>;
  clan_id: number;
  name: string;
  type: string;
  start_datetime: string;
  end_datetime: string | null;
  created_at: string;
  /** 1 while sign-ups are open (docs/server.md §16; migration 012_signups). */
  signups_open: Generated<number>;
  /** When sign-ups close (ISO time), or null. */
  signups_close_at: string | null;
  /** 1 once 'Sign-ups closed' was queued for the current close (migration 013_signup_scores). */
  signups_close_announced: Generated<number>;
}
interface TeamsTable {
  id: Generated<number>;
  event_id: number;
  name: string;
  color: string;
  created_at: string;
  /** The team's Discord role id (17-20 digits) or null (migration 025_discord_more). */
  discord_role_id: Generated<string | null>;
}
interface TeamMembersTable {
  id: Generated<number>;
  team_id: number;
  event_id: number;
  ign_id: number;
  role: string;
  created_at: string;
}
interface TasksTable {
  id: Generated<number>;
  clan_id: number;
  description: string;
  difficulty: string;
  /** JSON text of the auto rule {type, names, min, team_total, distinct} (the last two since team totals, read with defaults when absent), or null (docs/server.md §13, §17; migration 010_dink). */
  auto_rule: Generated<string | null>;
  created_at: string;
}
/** A game row: its settings columns are the contract's GameSettings. */
export interface GamesTable extends GameSettings {
  id: Generated<number>;
  event_id: number;
  clan_id: number;
  status: string;
  /** JSON text: [{type, start, end}]. */
  board_connections: string;
  /** JSON text: [{name, color}] or null. */
  winners: string | null;
  /** Grows by one with every applied change; guards concurrent rolls (docs/server.md §5). */
  version: number;
  /** 1 when a roll waits for an approved proof (docs/server.md §9), else 0. */
  proof_required: Generated<number>;
  /** The round's dice seed, lowercase hex (secret until the game is finished; docs/game-rules.md §9). */
  dice_seed: Generated<string>;
  /** Lowercase hex SHA-256 of the seed bytes. */
  dice_commitment: Generated<string>;
  /** 1 at creation, + 1 at every reset (the round of BOARD_SEED's seed rule). */
  dice_round: Generated<number>;
  /** Hours on a square before relief may be asked for, null when off (docs/server.md §15; migration 011_relief). */
  relief_after_hours: number | null;
  /** Substitute tasks a team may get in this game (0..10, default 2). */
  relief_max_per_team: Generated<number>;
  created_at: string;
  updated_at: string;
}
interface BoardSquaresTable {
  id: Generated<number>;
  game_id: number;
  square_index: number;
  task_id: number | null;
  task_description: string;
  task_difficulty: string | null;
}
interface TeamStatesTable {
  id: Generated<number>;
  game_id: number;
  team_id: number;
  current_position: number;
  revert_count: number;
  /** JSON text of a list of squares. */
  position_history: string;
  /** contract/submission.ts TaskState (docs/server.md §9). */
  task_state: Generated<string>;
  /** ISO time the team arrived on its square. */
  square_since: Generated<string>;
  /** Substitute tasks the team got so far in this game (docs/server.md §15; migration 011_relief). */
  relief_count: Generated<number>;
  /** JSON `{description, difficulty}` of the substitute task for the team's current square, or null. */
  task_override: string | null;
  /** JSON of the team's `progress` on its square (contract/progress.ts TeamProgress), null without a team total (docs/server.md §17; migration 019_team_progress). */
  progress: Generated<string | null>;
}
/**
 * What a team total counted on one stay of a team on a square (game, team, square_since):
 * `post:{digest}` rows for counted Dink posts, `name:{key}` rows for names a distinct rule counted
 * (docs/server.md §17; migration 019_team_progress).
 */
export interface ProgressEntriesTable {
  id: Generated<number>;
  game_id: number;
  team_id: number;
  square_since: string;
  entry_key: string;
  ign: string;
  /** bigint on PostgreSQL (read back as a string: Number() it). */
  amount: number | string;
  image_key: string | null;
  image_type: string | null;
  thumb_key: string | null;
  thumb_type: string | null;
  at: string;
  /** Bytes of the stored screenshot and thumbnail, for the clan upload quota (migration 024_quotas). */
  image_bytes: Generated<number>;
}
/** A proof submission (docs/server.md §9; migration 007_task_proof). */
export interface SubmissionsTable {
  id: Generated<number>;
  game_id: number;
  clan_id: number;
  team_id: number;
  square_index: number;
  /** The team's square_since when it was sent. */
  square_since: string;
  task_description: string;
  task_difficulty: string | null;
  submitted_by: number;
  submitted_ign: string;
  note: string;
  /** Storage keys and content types of the re-encoded image and its thumbnail. */
  image_key: string;
  image_type: string;
  thumb_key: string;
  thumb_type: string;
  status: string;
  reviewer_id: number | null;
  reason: string | null;
  created_at: string;
  reviewed_at: string | null;
  /** 'upload' or 'dink' (docs/server.md §13; migration 010_dink). */
  source: Generated<string>;
  /** What the Dink post said (contract/dink.ts DinkType and summary); null for uploads. */
  evidence_type: Generated<string | null>;
  evidence_summary: Generated<string | null>;
  /** 1 when approved automatically from Dink, else 0. */
  auto: Generated<number>;
  /** Bytes of the image and thumbnail this row stored, for the clan upload quota; 0 for none or a reused image (migration 024_quotas). */
  image_bytes: Generated<number>;
}
interface GameLogTable {
  id: Generated<number>;
  game_id: number;
  timestamp: string;
  team_name: string;
  team_color: string | null;
  message: string;
  /** k and the die on a roll's entry (docs/game-rules.md §9), else null. */
  roll_index: number | null;
  die: number | null;
}
/** A substitute drawn by relief in the current round (docs/server.md §15; migration 015_relief_draws). */
interface ReliefDrawsTable {
  id: Generated<number>;
  game_id: number;
  team_id: number;
  k: number;
  square_index: number;
  at: string;
  /** JSON array of the candidates' task ids, in the order drawn from (by id). */
  candidate_ids: string;
  task_id: number;
  description: string;
}
/** A roll or revert of the current round (docs/server.md §12; migration 008_dice_seed). */
export interface GameMovesTable {
  id: Generated<number>;
  game_id: number;
  at: string;
  team_id: number;
  kind: string;
  roll_index: number | null;
  die: number | null;
  from_square: number;
  landing: number | null;
  to_square: number;
  via: string | null;
}

/** An event's Discord webhook and its delivery state (docs/server.md §10; migration 009_discord). */
export interface DiscordWebhooksTable {
  id: Generated<number>;
  event_id: number;
  webhook_url: string;
  announce_status: number;
  announce_rolls: number;
  announce_reviews: number;
  announce_results: number;
  state: string;
  last_error: string | null;
  failures: Generated<number>;
  next_attempt_at: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  created_at: string;
  updated_at: string;
  /** 1 when announcements about one team ping its Discord role (migration 025_discord_more). */
  ping_teams: Generated<number>;
}
/** One announcement waiting to be posted (docs/server.md §10). */
export interface DiscordOutboxTable {
  id: Generated<number>;
  webhook_id: number;
  game_id: number | null;
  kind: string;
  /** JSON text of the announcement (server/discord/embeds.ts Announcement). */
  payload: string;
  created_at: string;
}
/** A Wise Old Man score fetch of an event (docs/server.md §16; migration 013_signup_scores). */
export interface WomFetchesTable {
  event_id: number;
  /** The run that owns the row; a newer fetch replaces it and the older run stops. */
  run_id: string;
  metric: string;
  total: number;
  /** Finished look-ups, errors included. */
  done: number;
  /** JSON array of {ign, error}. */
  errors: string;
  started_at: string;
  updated_at: string;
}

/** A member's sign-up for an event (docs/server.md §16; migration 012_signups). */
export interface SignupsTable {
  id: Generated<number>;
  event_id: number;
  user_id: number;
  osrs_ign_id: number;
  /** 1 for 'I would lead a team'. */
  wants_leader: number;
  note: string;
  /** The balancing score, a finite number 0..1,000,000, or null. */
  score: number | null;
  score_source: 'manual' | 'csv' | 'wom' | null;
  /** The team it was placed on; null for a free agent. */
  team_id: number | null;
  created_at: string;
  /** When the sign-up last changed (score, team): a balancing proposal is stale after it. */
  updated_at: string;
}
/** An event's Dink link (docs/server.md §13; migration 010_dink). */
interface DinkLinksTable {
  id: Generated<number>;
  event_id: number;
  /** The token of /api/dink/{token}: 32 random bytes, base64url. */
  token: string;
  auto_approve: number;
  created_at: string;
}
/** The pinned dinkAccountHash of an IGN (contract/dink.ts ignKey) in an event. */
interface DinkAccountsTable {
  id: Generated<number>;
  event_id: number;
  ign_key: string;
  account_hash: string;
  created_at: string;
  /** Posts received under the IGN with this hash since the pin (migration 017). */
  posts: Generated<number>;
}
/** One received Dink post with its outcome. */
interface DinkPostsTable {
  id: Generated<number>;
  event_id: number;
  at: string;
  player_name: string;
  type: string;
  summary: string;
  outcome: string;
}
/** SHA-256 hex of a taken post (JSON and image bytes) and when it was taken: the 10-minute dedupe. */
interface DinkDigestsTable {
  id: Generated<number>;
  event_id: number;
  digest: string;
  at: string;
}

/** A call to Wise Old Man waiting its turn (docs/server.md §17 'Wise Old Man checks'; migration 020_wom_queue). */
export interface WomQueueTable {
  id: Generated<number>;
  clan_id: number;
  kind: string;
  subject: string;
  payload: string;
  due_at: string;
  attempts: Generated<number>;
  lease_until: string | null;
  created_at: string;
}
/** One IGN's numbers on one stay of a team on a Wise Old Man square (JSON {metric: value}; migration 020_wom_queue). */
export interface WomBaselinesTable {
  game_id: number;
  team_id: number;
  square_since: string;
  ign: string;
  baseline: string | null;
  current: string | null;
  error: string | null;
  updated_at: string;
}
/** The Wise Old Man checks of a team on its square (migration 020_wom_queue). */
export interface WomTeamChecksTable {
  game_id: number;
  team_id: number;
  square_since: string;
  round: Generated<number>;
  asked_at: string | null;
  checked_at: string | null;
}

/** A browser's push subscription of a user (docs/server.md §20; migration 026_push). */
interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  /** The push service URL (unique). */
  endpoint: string;
  /** base64url of the browser's P-256 public key (65 bytes) and auth secret (16 bytes). */
  p256dh: string;
  auth: string;
  created_at: string;
}
/** A user's notification switches, 1 on and 0 off; no row means all on (migration 026_push). */
interface PushSettingsTable {
  user_id: number;
  proof_decided: Generated<number>;
  may_roll: Generated<number>;
  proof_waiting: Generated<number>;
  draft_turn: Generated<number>;
}
/** The VAPID key pair made when the settings give none: one row, id 1 (migration 026_push). */
interface PushVapidTable {
  id: number;
  public_key: string;
  private_key: string;
  created_at: string;
}
/** One push waiting to be sent to one subscription (migration 026_push). */
interface PushQueueTable {
  id: Generated<number>;
  subscription_id: number;
  /** The JSON payload {title, body, url, tag}. */
  payload: string;
  attempts: Generated<number>;
  /** ISO time it may be sent (later after a 429 or 5xx). */
  next_at: string;
  /** ISO time a process took it to send; null while waiting. */
  claimed_at: string | null;
  created_at: string;
}
/** 'Proof waiting' coalescing of one manager and clan (migration 026_push). */
interface PushWaitingTable {
  user_id: number;
  clan_id: number;
  last_sent_at: string | null;
  /** When the next one is due; null while none is. */
  due_at: string | null;
}
/** One notification of a user as the dashboard shows it in the page (migration 027_notifications). */
interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  /** The push's title, body, url (a path of this site) and tag (a newer row of the same tag replaces it). */
  title: string;
  body: string;
  url: string;
  tag: string;
  created_at: string;
}

/** The whole database as Kysely sees it. */
export interface Database {
  users: UsersTable;
  discord_identities: DiscordIdentitiesTable;
  sessions: SessionsTable;
  igns: IgnsTable;
  clans: ClansTable;
  clan_memberships: ClanMembershipsTable;
  clan_removals: ClanRemovalsTable;
  invites: InvitesTable;
  audit_entries: AuditEntriesTable;
  join_requests: JoinRequestsTable;
  events: EventsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  tasks: TasksTable;
  games: GamesTable;
  board_squares: BoardSquaresTable;
  team_states: TeamStatesTable;
  progress_entries: ProgressEntriesTable;
  game_log: GameLogTable;
  game_moves: GameMovesTable;
  relief_draws: ReliefDrawsTable;
  submissions: SubmissionsTable;
  discord_webhooks: DiscordWebhooksTable;
  discord_outbox: DiscordOutboxTable;
  dink_links: DinkLinksTable;
  dink_accounts: DinkAccountsTable;
  dink_posts: DinkPostsTable;
  dink_digests: DinkDigestsTable;
  signups: SignupsTable;
  drafts: DraftsTable;
  draft_picks: DraftPicksTable;
  wom_fetches: WomFetchesTable;
  wom_queue: WomQueueTable;
  wom_baselines: WomBaselinesTable;
  wom_team_checks: WomTeamChecksTable;
  push_subscriptions: PushSubscriptionsTable;
  push_settings: PushSettingsTable;
  push_vapid: PushVapidTable;
  push_queue: PushQueueTable;
  push_waiting: PushWaitingTable;
  notifications: NotificationsTable;
  discord_guilds: DiscordGuildsTable;
  discord_link_codes: DiscordLinkCodesTable;
}

/** A Discord server linked to a clan (docs/server.md §19 "Slash commands"; migration 025_discord_more). */
interface DiscordGuildsTable {
  guild_id: string;
  clan_id: number;
  linked_by: number | null;
  linked_at: string;
}
/** A one-time code of `/snl link` (docs/server.md §19; migration 025_discord_more). */
interface DiscordLinkCodesTable {
  code: string;
  guild_id: string;
  expires_at: string;
  used_at: string | null;
}

/** An event's captains' draft (docs/server.md §16; migration 014_draft). */
interface DraftsTable {
  id: Generated<number>;
  event_id: number;
  status: 'running' | 'paused' | 'done';
  pick_seconds: number;
  /** JSON array of team ids: the first round's order. */
  team_order: string;
  /** JSON array of {team_id, signup_id}. */
  captains: string;
  /** When the clock runs out (ISO), null unless running. */
  deadline: string | null;
  /** Milliseconds left on the clock when paused, else null. */
  paused_remaining_ms: number | null;
  /** Raised by every change: the clock's conditional write compares it. */
  version: number;
  created_at: string;
  updated_at: string;
}
/** One pick of a captains' draft (docs/server.md §16; migration 014_draft). */
interface DraftPicksTable {
  id: Generated<number>;
  event_id: number;
  /** 0, 1, 2, ... in the order made; unique per event. */
  pick_no: number;
  team_id: number;
  signup_id: number;
  at: string;
  /** 1 when the clock picked. */
  auto: number;
}

/** A database handle or an open transaction; repositories take either (docs/architecture.md §5). */
export type Db = Kysely<Database> | Transaction<Database>;
