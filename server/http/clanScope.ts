import type { Context } from 'hono';
import type { AppEnv } from './context';
import { requireUser } from './context';
import { valid } from './route';
import { requireAccess, type ClanAccessLevel } from '../clans/access';

/**
 * The signed-in user, the path's ids and clan, checked in this order: 401 signed out; 400
 * 'Invalid clan id.' etc. for the first bad id of the route's ids() (every path id, leading or
 * trailing, before the clan is looked up); 404 'Clan ID {id} not found.'; 403 for a non-member,
 * or a role below `access` (docs/server.md §4). Also the clan (id, name), the caller's role in it
 * and the server's deps (with `db`). The one scope of the clan's routes outside an event (members,
 * tasks, events, live games) and of the team routes; the event's own routes use eventScope
 * (http/gameScope.ts), which judges a trailing id after the access checks.
 */
export async function clanScope<P extends { clanId: number }>(c: Context<AppEnv, string, { out: { param: P } }>, access: ClanAccessLevel) {
  const user = requireUser(c);
  const path = valid(c, 'param');
  const deps = c.get('deps');
  const { clan, role } = await requireAccess(deps.db, path.clanId, user.id, access);
  return { ...path, user, clan, role, deps, db: deps.db };
}
