import { Navigate, useParams } from 'react-router-dom';
import * as v from 'valibot';
import { IdParamSchema } from '../../../contract/common';
import { isManagerRole } from '../../../contract/user';
import { selectUser } from '../../../machines/session.selectors';
import { SessionContext } from '../../base/session';
import { clanManagePath } from '../../base/paths';
import { Breadcrumb } from '../../ui/Breadcrumb';
import { DraftRoom } from './DraftRoom';

/**
 * /clans/{clanId}/events/{eventId}/draft, the captains' draft room (docs/client.md §14): for
 * members of the clan (the server refuses anyone else), with a breadcrumb back to the clan's
 * events; managers see the draft's controls. Bad ids go to the dashboard.
 */
export function DraftRoomPage() {
  const params = useParams();
  const user = SessionContext.useSelector(selectUser);
  const clan = v.safeParse(IdParamSchema, params.clanId);
  const event = v.safeParse(IdParamSchema, params.eventId);
  if (!clan.success || !event.success) return <Navigate to="/dashboard" replace />;
  const role = user?.clan_memberships_list.find((m) => m.clan_id === clan.output)?.role ?? null;
  return (
    <div className="page">
      <Breadcrumb previous={{ to: clanManagePath(clan.output, { tab: 'events', events: { view: 'list' } }), label: 'Events' }} current="Draft" />
      <DraftRoom key={`${clan.output}:${event.output}`} clanId={clan.output} eventId={event.output} viewer={{ userId: user?.id ?? 0, isManager: isManagerRole(role) }} />
    </div>
  );
}
