import type { RouteModule } from './app';
import { clanRoutes } from './clans/routes';

/**
 * Resource routers mounted under /api beside auth and users, one per resource folder
 * (clans, events, teams, tasks, games). Each later issue adds its own line here.
 */
export const ROUTE_MODULES: RouteModule[] = [
  clanRoutes,
];
