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

  // Results and history (docs/server.md §12).
  { method: 'get', path: '/api/public/game/{gameId}/history', tag: 'history', access: 'public', summary: "A game's story: teams, moves and reviews.", answer: named('GameHistory', GameHistorySchema) },
  {
    method: 'get', path: '/api/public/game/{gameId}/history.csv', tag: 'history', access: 'public', summary: "A game's moves as a CSV download.",
    answer: { contentType: 'text/csv', description: `One row per move under the header ${HISTORY_CSV_COLUMNS.join(',')}.`, schema: { type: 'string' } },
  },
];

/** Schemas nested in several answers, given their own component so each is written once. */
export const SHARED_ANSWER_SCHEMAS: readonly Named[] = [named('Game', GameSchema), named('PublicGame', PublicGameSchema), named('Submission', SubmissionSchema)];
