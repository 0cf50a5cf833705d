import * as v from 'valibot';
import { OkSchema } from '../../contract/common';
import { AuthStatusSchema, DevLoginBodySchema, IgnAnswerSchema, IgnBodySchema, LogoutBodySchema, UserSchema } from '../../contract/user';
import { SetupAnswerSchema, SetupBodySchema } from '../../contract/onboarding';
import {
  AddClanMemberBodySchema,
  AvailableMembersAnswerSchema,
  ChangeRoleBodySchema,
  ClanListSchema,
  ClanMembersAnswerSchema,
  CreateClanAnswerSchema,
  CreateClanBodySchema,
  MemberChangeAnswerSchema,
  RenameClanAnswerSchema,
  RenameClanBodySchema,
} from '../../contract/clan';
import { EventBodySchema, EventDeletedAnswerSchema, EventListAnswerSchema, EventSavedAnswerSchema } from '../../contract/event';
import {
  AddTeamMemberBodySchema,
  TeamAnswerSchema,
  TeamBodySchema,
  TeamDeletedAnswerSchema,
  TeamListAnswerSchema,
  TeamMemberAnswerSchema,
  TeamMemberRemovedAnswerSchema,
  TeamMembersAnswerSchema,
  UpdateTeamMemberBodySchema,
} from '../../contract/team';
import {
  CsvUploadAnswerSchema,
  TaskAnswerSchema,
  TaskBodySchema,
  TaskDeletedAnswerSchema,
  TaskListAnswerSchema,
  TaskPageAnswerSchema,
  TaskPageQuerySchema,
  TasksClearedAnswerSchema,
} from '../../contract/task';
import {
  AssignBodySchema,
  AvailableTasksAnswerSchema,
  BoardBodySchema,
  GameAnswerSchema,
  GameCreatedAnswerSchema,
  GameRandomizedAnswerSchema,
  GameSchema,
  OkMessageAnswerSchema,
  PublicGameAnswerSchema,
  PublicGameSchema,
  ReorderBodySchema,
  SquaresAnswerSchema,
  StatusAnswerSchema,
  StatusBodySchema,
  SwapBodySchema,
} from '../../contract/gameApi';
import { GameSettingsSchema } from '../../contract/game/settings';
import { ClanLiveGamesAnswerSchema, ForecastAnswerSchema, LobbyAnswerSchema, SpectateAnswerSchema } from '../../contract/lobby';
import {
  ReviewBodySchema,
  RulesAnswerSchema,
  RulesBodySchema,
  SUBMISSION_STATUSES,
  SubmissionAnswerSchema,
  SubmissionListSchema,
  SubmissionSchema,
} from '../../contract/submission';
import { GameHistorySchema, HISTORY_CSV_COLUMNS } from '../../contract/history';
import { DiscordAnswerSchema, DiscordSettingsBodySchema } from '../../contract/discord';
import { DinkAccountsAnswerSchema, DinkLinkAnswerSchema, DinkRecentAnswerSchema, DinkSettingsBodySchema } from '../../contract/dink';
import {
  ApplyAnswerSchema,
  ApplyBodySchema,
  BalanceAnswerSchema,
  BalanceBodySchema,
  ScoreBodySchema,
  ScoreImportAnswerSchema,
  SignupAnswerSchema,
  SignupBodySchema,
  SignupListSchema,
  WomBodySchema,
  WomProgressSchema,
} from '../../contract/signupApi';
import { DraftAnswerSchema, DraftRoomAnswerSchema, StartDraftBodySchema } from '../../contract/draft';

/**
 * The HTTP API as one table (docs/server.md §14): every route the app serves, with the contract
 * schemas (contract/) its body is checked with and its answer is read with by the client
 * (src/api/). server/openapi/document.ts turns it into the OpenAPI 3.1 document at
 * GET /api/openapi.json; tests/server/openapi.api.test.ts fails when the app has a route this
 * table lacks (or the other way round) and when a real answer does not fit its schema here.
 */

/** Who may call a route; the server checks it itself (401 signed out, 403 otherwise). */
export type Access =
  | 'public' // no sign-in
  | 'signed-in' // any signed-in user
  | 'member' // a member of the path's clan (any role)
  | 'manager' // an Owner or Admin of the path's clan
  | 'owner' // the Owner of the path's clan
  | 'operator'; // /metrics: loopback callers or `Authorization: Bearer {METRICS_TOKEN}`, else 404

/** A named schema: `name` becomes its entry under components.schemas. */
export interface Named {
  name: string;
  schema: v.GenericSchema;
}

/** An answer that is not JSON: its media type and what it holds. */
export interface RawAnswer {
  contentType: string;
  description: string;
  /** JSON Schema of the content (binary by default). */
  schema?: Record<string, unknown>;
}

/** A multipart/form-data body: each field's JSON Schema and which are required. */
export interface MultipartBody {
  multipart: Record<string, Record<string, unknown>>;
  required: string[];
}

/** One row of the table: one method on one path. */
export interface ApiRoute {
  method: 'get' | 'post' | 'put' | 'delete';
  /** The path as OpenAPI writes it, `{name}` for a path parameter (`:name` in Hono). */
  path: string;
  summary: string;
  /** The group the route is listed under (the resource folder of server/). */
  tag: string;
  access: Access;
  /** JSON body (a contract schema, converted as its input), or a multipart form. */
  body?: Named | MultipartBody;
  /** An optional body (POST /api/logout). */
  bodyOptional?: boolean;
  /** Query parameters: name → schema (converted as their input) and what they mean. */
  query?: Record<string, { schema: v.GenericSchema; description: string }>;
  /** The success status: 200 unless said. */
  status?: 200 | 201 | 202 | 204 | 302;
  /** The success answer: a contract schema (JSON) or a raw answer; none for a redirect or a 204. */
  answer?: Named | RawAnswer;
  /** Other answers than the success and the 4xx `{"error"}` (status → description, JSON schema optional). */
  also?: Record<string, { description: string; answer?: Named | RawAnswer }>;
}

/** Shorthand for a named contract schema. */
const named = (name: string, schema: v.GenericSchema): Named => ({ name, schema });

const Ok = named('Ok', OkSchema);
const OkMessage = named('OkMessageAnswer', OkMessageAnswerSchema);
/** An ETag answer's 304 (GET of a game: the same version as If-None-Match). */
const NOT_MODIFIED = { 304: { description: 'Not modified: the ETag given in If-None-Match is still current (no body).' } };

/** GET /healthz answer: the process runs. */
const HealthSchema = v.object({ status: v.literal('ok') });
/** GET /readyz answer: ready or not, and each check's result (database, Redis when set, migrations). */
const ReadinessSchema = v.object({ status: v.picklist(['ready', 'unready']), checks: v.record(v.string(), v.unknown()) });

/** Id path parameters, by name (documented as positive integers). */
const CLAN = '/api/clan/{clanId}';
const EVENT = `${CLAN}/events/{eventId}`;
const GAME = `${EVENT}/game`;
const GAME_ID = `${GAME}/{gameId}`;

/** GET /api/docs/{file}: the viewer's files (swagger-ui-dist) and its start-up script. */
export const DOCS_ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'docs-init.js', 'favicon-32x32.png'] as const;

/** Every route of the app, grouped as the server's folders are (docs/server.md §3 and the sections it names). */
export const API_ROUTES: readonly ApiRoute[] = [
  // Operations (at the site root: load balancers and Prometheus call them).
  { method: 'get', path: '/healthz', tag: 'operations', access: 'public', summary: 'Liveness: 200 while the process runs.', answer: named('Health', HealthSchema) },
  {
    method: 'get', path: '/readyz', tag: 'operations', access: 'public',
    summary: 'Readiness: 200 when the database (and Redis, when set) answer and migrations are done; 503 otherwise and from the start of shutdown.',
    answer: named('Readiness', ReadinessSchema),
    also: { 503: { description: 'Not ready (or shutting down): `{status: "unready", checks}`.', answer: named('Readiness', ReadinessSchema) } },
  },
  {
    method: 'get', path: '/metrics', tag: 'operations', access: 'operator',
    summary: 'Prometheus metrics (text exposition format); 404 unless called from loopback or with the METRICS_TOKEN bearer.',
    answer: { contentType: 'text/plain', description: 'Prometheus text exposition format 0.0.4.', schema: { type: 'string' } },
    also: { 404: { description: 'Any caller that is neither on loopback nor carries the METRICS_TOKEN bearer.' } },
  },
  // The API document itself.
  { method: 'get', path: '/api/openapi.json', tag: 'documentation', access: 'public', summary: 'This OpenAPI 3.1 document.', answer: { contentType: 'application/json', description: 'The OpenAPI document.', schema: { type: 'object' } } },
  { method: 'get', path: '/api/docs', tag: 'documentation', access: 'public', summary: 'A page showing this document (Swagger UI).', answer: { contentType: 'text/html', description: 'The page.', schema: { type: 'string' } } },
  {
    method: 'get', path: '/api/docs/{file}', tag: 'documentation', access: 'public', summary: "The page's viewer files (Swagger UI, served from this site).",
    answer: { contentType: '*/*', description: 'The file (CSS, JavaScript or PNG).' },
  },

  // Sign-in and the session (docs/server.md §2).
  { method: 'get', path: '/api/games/auth/status', tag: 'auth', access: 'public', summary: 'Whether this browser has a session, and which sign-ins the server offers.', answer: named('AuthStatus', AuthStatusSchema) },
  { method: 'post', path: '/api/logout', tag: 'auth', access: 'public', summary: 'Ends this session, or every session of the user with `{"everywhere": true}`.', body: named('LogoutBody', LogoutBodySchema), bodyOptional: true, answer: Ok },
  { method: 'post', path: '/api/auth/dev', tag: 'auth', access: 'public', summary: 'Development sign-in (404 when Discord is configured or NODE_ENV=production); sets the session cookie.', body: named('DevLoginBody', DevLoginBodySchema), answer: Ok },
  {
    method: 'get', path: '/api/auth/discord', tag: 'auth', access: 'public', status: 302, summary: "Starts Discord sign-in: redirects to Discord's authorize page.",
    query: { path: { schema: v.string(), description: 'The same-site page to return to (default /dashboard); anything else is a 400.' } },
  },
  {
    method: 'get', path: '/api/auth/discord/callback', tag: 'auth', access: 'public', status: 302, summary: "Discord's redirect back: signs in and redirects to /auth-callback.",
    query: { code: { schema: v.string(), description: "Discord's authorization code." }, state: { schema: v.string(), description: 'The state sent to Discord.' } },
  },

  // The signed-in user (docs/server.md §3, §4).
  { method: 'get', path: '/api/user/me', tag: 'users', access: 'signed-in', summary: 'The signed-in user with IGNs and clan memberships.', answer: named('User', UserSchema) },
  { method: 'post', path: '/api/user/setup', tag: 'users', access: 'signed-in', summary: 'Onboarding: links IGNs and creates, joins or skips a clan.', body: named('SetupBody', SetupBodySchema), answer: named('SetupAnswer', SetupAnswerSchema) },
  { method: 'post', path: '/api/user/igns', tag: 'users', access: 'signed-in', summary: 'Links an IGN.', body: named('IgnBody', IgnBodySchema), answer: named('IgnAnswer', IgnAnswerSchema) },
  { method: 'put', path: '/api/user/igns/{ignId}', tag: 'users', access: 'signed-in', summary: 'Renames a linked IGN.', body: named('IgnBody', IgnBodySchema), answer: named('IgnAnswer', IgnAnswerSchema) },
  { method: 'delete', path: '/api/user/igns/{ignId}', tag: 'users', access: 'signed-in', summary: 'Unlinks an IGN (409 while it is on a team of an unfinished game).', answer: Ok },
  { method: 'get', path: '/api/clans', tag: 'clans', access: 'signed-in', summary: 'Every clan (id and name), for joining one.', answer: named('ClanList', ClanListSchema) },
  { method: 'post', path: '/api/clans', tag: 'clans', access: 'signed-in', summary: 'Creates a clan owned by the caller.', body: named('CreateClanBody', CreateClanBodySchema), answer: named('CreateClanAnswer', CreateClanAnswerSchema) },

  // Clans and members.
  { method: 'get', path: `${CLAN}/members`, tag: 'clans', access: 'member', summary: "The clan's members by role.", answer: named('ClanMembersAnswer', ClanMembersAnswerSchema) },
  { method: 'get', path: `${CLAN}/available_members`, tag: 'clans', access: 'manager', summary: 'Users outside the clan who can be added.', answer: named('AvailableMembersAnswer', AvailableMembersAnswerSchema) },
  { method: 'post', path: `${CLAN}/members`, tag: 'clans', access: 'manager', summary: 'Adds a user to the clan with a role.', body: named('AddClanMemberBody', AddClanMemberBodySchema), answer: named('MemberChangeAnswer', MemberChangeAnswerSchema) },
  { method: 'put', path: `${CLAN}/members/{memberId}/role`, tag: 'clans', access: 'manager', summary: "Moves a member one step on the role ladder (Admin → Owner transfers ownership).", body: named('ChangeRoleBody', ChangeRoleBodySchema), answer: named('MemberChangeAnswer', MemberChangeAnswerSchema) },
  { method: 'delete', path: `${CLAN}/members/{memberId}`, tag: 'clans', access: 'member', summary: 'Leaves the clan (own id) or kicks a member (managers).', answer: Ok },
  { method: 'put', path: `${CLAN}/name`, tag: 'clans', access: 'owner', summary: 'Renames the clan.', body: named('RenameClanBody', RenameClanBodySchema), answer: named('RenameClanAnswer', RenameClanAnswerSchema) },
  { method: 'delete', path: CLAN, tag: 'clans', access: 'owner', summary: 'Disbands the clan with everything of it.', answer: Ok },

  // Events.
  {
    method: 'get', path: `${CLAN}/events`, tag: 'events', access: 'member', summary: "The clan's events by start.", answer: named('EventListAnswer', EventListAnswerSchema),
    query: { past: { schema: v.picklist(['true', 'false']), description: 'true: ended events only; false: the rest; absent: all.' } },
  },
  { method: 'post', path: `${CLAN}/events`, tag: 'events', access: 'manager', summary: 'Schedules an event.', body: named('EventBody', EventBodySchema), answer: named('EventSavedAnswer', EventSavedAnswerSchema) },
  { method: 'put', path: EVENT, tag: 'events', access: 'manager', summary: 'Changes an event.', body: named('EventBody', EventBodySchema), answer: named('EventSavedAnswer', EventSavedAnswerSchema) },
  { method: 'delete', path: EVENT, tag: 'events', access: 'manager', summary: 'Deletes an event with its teams and game.', answer: named('EventDeletedAnswer', EventDeletedAnswerSchema) },

  // Teams.
  { method: 'get', path: `${EVENT}/teams`, tag: 'teams', access: 'member', summary: "The event's teams, oldest first.", answer: named('TeamListAnswer', TeamListAnswerSchema) },
  { method: 'post', path: `${EVENT}/teams`, tag: 'teams', access: 'manager', summary: 'Creates a team.', body: named('TeamBody', TeamBodySchema), answer: named('TeamAnswer', TeamAnswerSchema) },
  { method: 'put', path: `${EVENT}/teams/{teamId}`, tag: 'teams', access: 'manager', summary: 'Renames or recolours a team.', body: named('TeamBody', TeamBodySchema), answer: named('TeamAnswer', TeamAnswerSchema) },
  { method: 'delete', path: `${EVENT}/teams/{teamId}`, tag: 'teams', access: 'manager', summary: 'Deletes a team with its members.', answer: named('TeamDeletedAnswer', TeamDeletedAnswerSchema) },
  { method: 'get', path: `${EVENT}/teams/{teamId}/members`, tag: 'teams', access: 'member', summary: "The team's members and the clan members who may join it.", answer: named('TeamMembersAnswer', TeamMembersAnswerSchema) },
  { method: 'post', path: `${EVENT}/teams/{teamId}/members`, tag: 'teams', access: 'manager', summary: 'Adds an IGN to the team as Member or Leader.', body: named('AddTeamMemberBody', AddTeamMemberBodySchema), answer: named('TeamMemberAnswer', TeamMemberAnswerSchema) },
  { method: 'put', path: `${EVENT}/teams/{teamId}/members/{memberId}`, tag: 'teams', access: 'manager', summary: "Changes a team member's role.", body: named('UpdateTeamMemberBody', UpdateTeamMemberBodySchema), answer: named('TeamMemberAnswer', TeamMemberAnswerSchema) },
  { method: 'delete', path: `${EVENT}/teams/{teamId}/members/{memberId}`, tag: 'teams', access: 'manager', summary: 'Removes a member from the team.', answer: named('TeamMemberRemovedAnswer', TeamMemberRemovedAnswerSchema) },

  // The task pool.
  {
    method: 'get', path: '/api/tasks', tag: 'tasks', access: 'signed-in', summary: "One page of every clan's tasks (managers of at least one clan).", answer: named('TaskPageAnswer', TaskPageAnswerSchema),
    query: {
      limit: { schema: TaskPageQuerySchema.entries.limit, description: 'Page size, default 100, at most 500 (larger gives 500).' },
      offset: { schema: TaskPageQuerySchema.entries.offset, description: 'Tasks to skip, default 0.' },
      q: { schema: TaskPageQuerySchema.entries.q, description: 'A case-insensitive substring of the description or the clan name.' },
    },
  },
  {
    method: 'post', path: `${CLAN}/tasks/upload_csv`, tag: 'tasks', access: 'manager', summary: 'Imports tasks from a CSV file (description,difficulty); 413 over 1 MiB; 503 with Retry-After after 10 s waiting for an upload slot.',
    body: { multipart: { file: { type: 'string', contentMediaType: 'text/csv', description: 'The CSV file, at most 1 MiB.' } }, required: ['file'] },
    answer: named('CsvUploadAnswer', CsvUploadAnswerSchema),
  },
  { method: 'get', path: `${CLAN}/tasks`, tag: 'tasks', access: 'member', summary: "The clan's task pool by tier, then description.", answer: named('TaskListAnswer', TaskListAnswerSchema) },
  { method: 'post', path: `${CLAN}/tasks`, tag: 'tasks', access: 'manager', summary: 'Adds a task (409 for a duplicate or a full pool of 5,000).', body: named('TaskBody', TaskBodySchema), answer: named('TaskAnswer', TaskAnswerSchema) },
  { method: 'delete', path: `${CLAN}/tasks`, tag: 'tasks', access: 'manager', summary: "Clears the clan's task pool.", answer: named('TasksClearedAnswer', TasksClearedAnswerSchema) },
  { method: 'put', path: `${CLAN}/tasks/{taskId}`, tag: 'tasks', access: 'manager', summary: 'Changes a task.', body: named('TaskBody', TaskBodySchema), answer: named('TaskAnswer', TaskAnswerSchema) },
  { method: 'delete', path: `${CLAN}/tasks/{taskId}`, tag: 'tasks', access: 'manager', summary: 'Deletes a task.', answer: named('TaskDeletedAnswer', TaskDeletedAnswerSchema) },

  // Games (docs/server.md §4, §5).
  { method: 'post', path: GAME, tag: 'games', access: 'manager', summary: "Creates the event's game with a generated board.", body: named('GameSettings', GameSettingsSchema), answer: named('GameCreatedAnswer', GameCreatedAnswerSchema) },
  { method: 'get', path: GAME_ID, tag: 'games', access: 'member', summary: "The game in the members' shape (ETag; 304 to a matching If-None-Match).", answer: named('GameAnswer', GameAnswerSchema), also: NOT_MODIFIED },
  { method: 'put', path: GAME_ID, tag: 'games', access: 'manager', summary: 'New settings: a new board, positions and status kept.', body: named('GameSettings', GameSettingsSchema), answer: named('GameRandomizedAnswer', GameRandomizedAnswerSchema) },
  { method: 'delete', path: GAME_ID, tag: 'games', access: 'manager', summary: 'Deletes the game with its proofs.', answer: OkMessage },
  { method: 'put', path: `${GAME_ID}/board`, tag: 'games', access: 'manager', summary: 'Sets the snakes and ladders by hand.', body: named('BoardBody', BoardBodySchema), answer: OkMessage },
  { method: 'put', path: `${GAME_ID}/status`, tag: 'games', access: 'manager', summary: 'Starts, pauses or resumes the game.', body: named('StatusBody', StatusBodySchema), answer: named('StatusAnswer', StatusAnswerSchema) },
  { method: 'put', path: `${GAME_ID}/reset`, tag: 'games', access: 'manager', summary: 'Puts every team back on square 1 and starts a new dice round.', answer: OkMessage },
  { method: 'put', path: `${GAME_ID}/rules`, tag: 'games', access: 'manager', summary: 'Turns the proof rule on or off.', body: named('RulesBody', RulesBodySchema), answer: named('RulesAnswer', RulesAnswerSchema) },
  { method: 'get', path: `${GAME_ID}/tasks`, tag: 'games', access: 'member', summary: "The board's squares with their tasks.", answer: named('SquaresAnswer', SquaresAnswerSchema) },
  { method: 'post', path: `${GAME_ID}/tasks/reorder`, tag: 'games', access: 'manager', summary: 'Saves a new order of the tasks on the board.', body: named('ReorderBody', ReorderBodySchema), answer: OkMessage },
  { method: 'post', path: `${GAME_ID}/tasks/swap`, tag: 'games', access: 'manager', summary: 'Swaps the tasks of two squares.', body: named('SwapBody', SwapBodySchema), answer: OkMessage },
  { method: 'put', path: `${GAME_ID}/tasks/{squareId}`, tag: 'games', access: 'manager', summary: 'Puts a pool task on a square.', body: named('AssignBody', AssignBodySchema), answer: OkMessage },
  { method: 'get', path: `${GAME_ID}/tasks/{squareId}/available`, tag: 'games', access: 'manager', summary: 'Pool tasks that may go on the square.', answer: named('AvailableTasksAnswer', AvailableTasksAnswerSchema) },

  // Lobby and spectating (docs/server.md §3).
  { method: 'get', path: '/api/games', tag: 'lobby', access: 'signed-in', summary: "The caller's games.", answer: named('LobbyAnswer', LobbyAnswerSchema) },
  { method: 'get', path: `${CLAN}/games/live`, tag: 'lobby', access: 'member', summary: "The clan's READY, in-progress and paused games.", answer: named('ClanLiveGamesAnswer', ClanLiveGamesAnswerSchema) },
  { method: 'get', path: '/api/games/spectate', tag: 'lobby', access: 'public', summary: 'Games anyone may watch, newest first.', answer: named('SpectateAnswer', SpectateAnswerSchema) },
  { method: 'get', path: '/api/public/game/{gameId}', tag: 'lobby', access: 'public', summary: 'A game in the public shape (ETag; 304 to a matching If-None-Match).', answer: named('PublicGameAnswer', PublicGameAnswerSchema), also: NOT_MODIFIED },
  { method: 'get', path: '/api/public/game/{gameId}/forecast', tag: 'lobby', access: 'public', summary: "Each team's chance to win and expected rolls to finish, from 10,000 simulated continuations (cached per version).", answer: named('ForecastAnswer', ForecastAnswerSchema) },

  // Task proof and review (docs/server.md §9).
  {
    method: 'post', path: `${GAME_ID}/submissions`, tag: 'submissions', access: 'member', status: 201, summary: "Submits a screenshot as proof of the team's task (8 MiB; 413 over; 503 with Retry-After after 10 s waiting for an upload slot).",
    body: {
      multipart: {
        team_id: { type: 'string', pattern: '^[1-9][0-9]{0,9}$', description: 'The team the proof is for.' },
        image: { type: 'string', contentMediaType: 'image/png', description: 'PNG, JPEG, WebP or GIF (by its bytes), at most 8 MiB.' },
        note: { type: 'string', maxLength: 500, description: 'An optional note.' },
      },
      required: ['team_id', 'image'],
    },
    answer: named('SubmissionAnswer', SubmissionAnswerSchema),
  },
  { method: 'get', path: `${GAME_ID}/submissions`, tag: 'submissions', access: 'member', summary: "The game's submissions, newest first.", answer: named('SubmissionList', SubmissionListSchema) },
  {
    method: 'get', path: `${CLAN}/submissions`, tag: 'submissions', access: 'manager', summary: "The clan's submissions of one status over all its games, oldest first.", answer: named('SubmissionList', SubmissionListSchema),
    query: { status: { schema: v.picklist(SUBMISSION_STATUSES), description: 'Default pending.' } },
  },
  { method: 'put', path: `${GAME_ID}/submissions/{id}/review`, tag: 'submissions', access: 'manager', summary: 'Approves or denies a pending submission.', body: named('ReviewBody', ReviewBodySchema), answer: named('SubmissionAnswer', SubmissionAnswerSchema) },
  { method: 'delete', path: `${GAME_ID}/submissions/{id}/review`, tag: 'submissions', access: 'manager', summary: 'Undoes a review (within 5 minutes, while the team has not moved).', answer: named('SubmissionAnswer', SubmissionAnswerSchema) },
  { method: 'put', path: `${CLAN}/submissions/{id}/review`, tag: 'submissions', access: 'manager', summary: 'Approves or denies a pending submission (short path).', body: named('ReviewBody', ReviewBodySchema), answer: named('SubmissionAnswer', SubmissionAnswerSchema) },
  { method: 'delete', path: `${CLAN}/submissions/{id}/review`, tag: 'submissions', access: 'manager', summary: 'Undoes a review (short path).', answer: named('SubmissionAnswer', SubmissionAnswerSchema) },
  { method: 'get', path: '/api/submissions/{id}/image', tag: 'submissions', access: 'member', summary: "A submission's screenshot (clan members).", answer: { contentType: 'image/*', description: 'The stored image.' } },
  { method: 'get', path: '/api/submissions/{id}/thumb', tag: 'submissions', access: 'member', summary: "A submission's thumbnail (clan members).", answer: { contentType: 'image/*', description: 'The stored thumbnail.' } },

  // Results and history (docs/server.md §12).
  { method: 'get', path: '/api/public/game/{gameId}/history', tag: 'history', access: 'public', summary: "A game's story: teams, moves and reviews.", answer: named('GameHistory', GameHistorySchema) },
  {
    method: 'get', path: '/api/public/game/{gameId}/history.csv', tag: 'history', access: 'public', summary: "A game's moves as a CSV download.",
    answer: { contentType: 'text/csv', description: `One row per move under the header ${HISTORY_CSV_COLUMNS.join(',')}.`, schema: { type: 'string' } },
  },

  // Discord announcements (docs/server.md §10).
  { method: 'get', path: `${EVENT}/discord`, tag: 'discord', access: 'manager', summary: "The event's Discord settings (the webhook masked), or null.", answer: named('DiscordAnswer', DiscordAnswerSchema) },
  { method: 'put', path: `${EVENT}/discord`, tag: 'discord', access: 'manager', summary: 'Sets the webhook and what it announces.', body: named('DiscordSettingsBody', DiscordSettingsBodySchema), answer: named('DiscordAnswer', DiscordAnswerSchema) },
  { method: 'delete', path: `${EVENT}/discord`, tag: 'discord', access: 'manager', summary: 'Removes the webhook and its queue.', answer: named('DiscordAnswer', DiscordAnswerSchema) },
  {
    method: 'post', path: `${EVENT}/discord/test`, tag: 'discord', access: 'manager', summary: 'Posts a test message (502 with Discord\'s answer when it refuses).', answer: Ok,
    also: { 502: { description: "Discord refused the test message: `{error}` with Discord's answer." } },
  },

  // Dink: proof straight from the game (docs/server.md §13).
  { method: 'post', path: `${EVENT}/dink`, tag: 'dink', access: 'manager', summary: "Makes the event's Dink link, or rotates it (the old URL answers 404 at once).", answer: named('DinkLinkAnswer', DinkLinkAnswerSchema) },
  { method: 'get', path: `${EVENT}/dink`, tag: 'dink', access: 'manager', summary: "The event's Dink link, or null.", answer: named('DinkLinkAnswer', DinkLinkAnswerSchema) },
  { method: 'put', path: `${EVENT}/dink`, tag: 'dink', access: 'manager', summary: 'Turns auto-approval of matching posts with a screenshot on or off.', body: named('DinkSettingsBody', DinkSettingsBodySchema), answer: named('DinkLinkAnswer', DinkLinkAnswerSchema) },
  { method: 'delete', path: `${EVENT}/dink`, tag: 'dink', access: 'manager', summary: 'Revokes the link (its URL answers 404 at once).', answer: named('DinkLinkAnswer', DinkLinkAnswerSchema) },
  { method: 'get', path: `${EVENT}/dink/recent`, tag: 'dink', access: 'manager', summary: 'The last 200 posts to the link with their outcomes, newest first.', answer: named('DinkRecentAnswer', DinkRecentAnswerSchema) },
  { method: 'get', path: `${EVENT}/dink/accounts`, tag: 'dink', access: 'manager', summary: "The Dink account hash pinned for each IGN on the event's teams (its first 8 characters), when it was pinned and how many posts came with it.", answer: named('DinkAccountsAnswer', DinkAccountsAnswerSchema) },
  { method: 'delete', path: `${EVENT}/dink/accounts/{ignId}`, tag: 'dink', access: 'manager', summary: "Clears the IGN's pinned Dink account: its next post with a hash pins that one (404 for an IGN not on a team of the event).", answer: Ok },
  // Sign-ups, free agents and balanced teams (docs/server.md §16).
  { method: 'get', path: `${EVENT}/signups`, tag: 'signups', access: 'member', summary: "The event's sign-ups, oldest first.", answer: named('SignupList', SignupListSchema) },
  { method: 'post', path: `${EVENT}/signups`, tag: 'signups', access: 'member', status: 201, summary: 'Signs up with one of your own IGNs while sign-ups are open (Member or above).', body: named('SignupBody', SignupBodySchema), answer: named('SignupAnswer', SignupAnswerSchema) },
  { method: 'delete', path: `${EVENT}/signups/{signupId}`, tag: 'signups', access: 'member', summary: 'Withdraws a sign-up (its owner while open, or a manager); a placed sign-up leaves its team.', answer: Ok },
  { method: 'put', path: `${EVENT}/signups/{signupId}`, tag: 'signups', access: 'manager', summary: "Sets a sign-up's score (0..1,000,000, or null).", body: named('ScoreBody', ScoreBodySchema), answer: named('SignupAnswer', SignupAnswerSchema) },
  {
    method: 'post', path: `${EVENT}/signups/scores`, tag: 'signups', access: 'manager', summary: 'Sets scores from a CSV file (ign,score); 413 over 1 MiB; 503 with Retry-After after 10 s waiting for an upload slot.',
    body: { multipart: { file: { type: 'string', contentMediaType: 'text/csv', description: 'CSV with a header naming ign and score.' } }, required: ['file'] },
    answer: named('ScoreImportAnswer', ScoreImportAnswerSchema),
  },
  { method: 'post', path: `${EVENT}/signups/scores/wom`, tag: 'signups', access: 'manager', status: 202, summary: "Fetches scores from Wise Old Man in the background, within its rate limit.", body: named('WomBody', WomBodySchema), answer: named('WomProgress', WomProgressSchema) },
  { method: 'get', path: `${EVENT}/signups/scores/wom`, tag: 'signups', access: 'manager', summary: 'The progress of the last Wise Old Man fetch.', answer: named('WomProgress', WomProgressSchema) },
  { method: 'post', path: `${EVENT}/teams/balance`, tag: 'signups', access: 'manager', summary: 'Proposes balanced teams of the free agents, changing nothing.', body: named('BalanceBody', BalanceBodySchema), answer: named('BalanceAnswer', BalanceAnswerSchema) },
  { method: 'post', path: `${EVENT}/teams/balance/apply`, tag: 'signups', access: 'manager', summary: 'Applies a proposal: creates the missing teams and places the sign-ups (409 when stale or in play).', body: named('ApplyBody', ApplyBodySchema), answer: named('ApplyAnswer', ApplyAnswerSchema) },

  {
    method: 'post', path: '/api/dink/{token}', tag: 'dink', access: 'public', status: 204,
    summary: "Dink's webhook: multipart payload_json (+ optional PNG or JPEG file, at most 8 MiB) or application/json; 204 whatever it matched, judged as docs/server.md §13 says; 503 with Retry-After after 10 s waiting for an upload slot.",
    body: {
      multipart: {
        payload_json: { type: 'string', contentMediaType: 'application/json', description: "Dink's JSON (type, playerName, dinkAccountHash, extra)." },
        file: { type: 'string', contentMediaType: 'image/png', description: 'The screenshot: PNG or JPEG by its bytes, at most 8 MiB.' },
      },
      required: ['payload_json'],
    },
  },

  // The captains' draft (docs/server.md §16); live over the socket (join_draft, draft_pick, draft_state).
  { method: 'get', path: `${EVENT}/draft`, tag: 'draft', access: 'member', summary: "The event's draft_state (null without a draft) and its sign-ups.", answer: named('DraftRoomAnswer', DraftRoomAnswerSchema) },
  {
    method: 'post', path: `${EVENT}/draft`, tag: 'draft', access: 'manager', body: named('StartDraftBody', StartDraftBodySchema), answer: named('DraftAnswer', DraftAnswerSchema),
    summary: "Starts the captains' draft (2..20 captains, pick_seconds 15..600, default 60); the captains' teams are made if needed, each captain their Leader.",
  },
  { method: 'post', path: `${EVENT}/draft/pause`, tag: 'draft', access: 'manager', summary: 'Stops the clock, keeping the time left.', answer: named('DraftAnswer', DraftAnswerSchema) },
  { method: 'post', path: `${EVENT}/draft/resume`, tag: 'draft', access: 'manager', summary: 'Runs the clock again with the time it had left.', answer: named('DraftAnswer', DraftAnswerSchema) },
  { method: 'post', path: `${EVENT}/draft/undo`, tag: 'draft', access: 'manager', summary: 'Takes back the last pick.', answer: named('DraftAnswer', DraftAnswerSchema) },
  { method: 'post', path: `${EVENT}/draft/end`, tag: 'draft', access: 'manager', summary: 'Ends the draft: every pick is placed on its team.', answer: named('DraftAnswer', DraftAnswerSchema) },
];

/** Schemas nested in several answers, given their own component so each is written once. */
export const SHARED_ANSWER_SCHEMAS: readonly Named[] = [named('Game', GameSchema), named('PublicGame', PublicGameSchema), named('Submission', SubmissionSchema)];
