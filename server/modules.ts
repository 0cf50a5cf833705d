import type { RouteModule } from './app';
import { clanRoutes } from './clans/routes';
import { eventRoutes } from './events/routes';
import { teamRoutes } from './teams/routes';
import { taskRoutes } from './tasks/routes';
import { gameRoutes } from './games/routes';
import { lobbyRoutes } from './lobby/routes';
import { submissionRoutes } from './submissions/routes';
import { historyRoutes } from './history/routes';
import { discordRoutes } from './discord/routes';
import { discordInteractionRoutes } from './discord/interactionRoutes';
import { dinkRoutes } from './dink/routes';
import { signupRoutes } from './signups/routes';
import { draftRoutes } from './draft/routes';
import { womRoutes } from './wom/routes';
import { joinRoutes } from './joins/routes';
import { inviteRoutes } from './invites/routes';
import { quotaRoutes } from './quotas/routes';
import { auditRoutes } from './audit/routes';
import { pushRoutes } from './push/routes';
import { apiDocRoutes } from './openapi/routes';

/**
 * Resource routers mounted under /api beside auth and users, one per resource folder
 * (clans, events, teams, tasks, games, lobby, submissions, history, discord, dink, signups, draft, wom, joins, invites, quotas, audit, push), and the API document
 * with its page (openapi, docs/server.md §14).
 */
export const ROUTE_MODULES: RouteModule[] = [
  clanRoutes,
  eventRoutes,
  teamRoutes,
  taskRoutes,
  gameRoutes,
  lobbyRoutes,
  submissionRoutes,
  historyRoutes,
  discordRoutes,
  discordInteractionRoutes,
  dinkRoutes,
  signupRoutes,
  draftRoutes,
  womRoutes,
  joinRoutes,
  inviteRoutes,
  quotaRoutes,
  auditRoutes,
  pushRoutes,
  apiDocRoutes,
];
