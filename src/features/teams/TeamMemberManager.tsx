import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import { teamMembersMachine } from '../../../machines/teamMembers.machine';
import * as sel from '../../../machines/teamMembers.selectors';
import { TEAM_ROLES, type Team, type TeamMember, type TeamRole } from '../../../contract/team';
import { ConfirmDialog, useConfirmAction, type Nothing } from '../../ui/ConfirmDialog';
import { FadingNotice, Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import type { TeamsEffects } from './teamsEffects';
import { IgnCombobox } from './IgnCombobox';
import { DataTable } from '../../ui/DataTable';

type MembersRef = ReturnType<typeof useActorRef<typeof teamMembersMachine>>;

/** The member a Remove acts on. */
interface MemberSubject {
  memberId: number;
  ign: string;
}

/**
 * The inline member manager of one team (docs/client.md §6,
 * §11): the team members table with a role picker per member (applied
 * optimistically, put back on failure) and a Remove button with its confirmation, and the add row
 * (in-game account, role, Add). 'This team currently has no members.' when empty.
 * `onCountChanged` gets the team size after every load, add and removal.
 */
export function TeamMemberManager({
  clanId,
  eventId,
  team,
  effects,
  onCountChanged,
}: {
  clanId: number;
  eventId: number;
  team: Team;
  effects: TeamsEffects;
  onCountChanged: (count: number) => void;
}) {
  const countListener = useRef(onCountChanged);
  countListener.current = onCountChanged;
  const logic = useMemo(
    () =>
      teamMembersMachine.provide({
        actors: {
          loadMembers: fromPromise(() => effects.fetchTeamMembers(clanId, eventId, team.id)),
          addMember: fromPromise(({ input }) => effects.addTeamMember(clanId, eventId, team.id, input)),
          changeRole: fromPromise(({ input }) => effects.updateTeamMemberRole(clanId, eventId, team.id, input.member, input.role)),
        },
        actions: { notifyCount: ({ context }) => countListener.current(context.members.length) },
      }),
    [clanId, eventId, team.id, effects],
  );
  const members = useActorRef(logic);
  const removal = useConfirmAction<Nothing, MemberSubject>({
    closed: { draft: {}, subject: { memberId: 0, ign: '' } },
    perform: async ({ subject }) => ({
      message: (await effects.removeTeamMember(clanId, eventId, team.id, { id: subject.memberId, osrs_ign: subject.ign })).message,
    }),
    onSucceeded: ({ subject }) => members.send({ type: 'member.removed', memberId: subject.memberId }),
  });
  const loading = useSelector(members, sel.selectMembersLoading);
  const failed = useSelector(members, sel.selectMembersFailed);
  const loadError = useSelector(members, sel.selectMembersLoadError);
  const removeIgn = useSelector(removal, (s) => s.context.subject.ign);
  return (
    <div className="member-manager" aria-label={`Members of ${team.name}`} role="region">
      {loading ? (
        <Spinner text="Loading members..." />
      ) : failed ? (
        <div className="row">
          <Notice tone="error">{loadError}</Notice>
          <button type="button" className="btn btn--small" onClick={() => members.send({ type: 'members.reload' })}>Retry</button>
        </div>
      ) : (
        <>
          <MemberNotice members={members} />
          <MemberTable members={members} onRemove={(m) => removal.send({ type: 'confirm.open', subject: { memberId: m.id, ign: m.osrs_ign } })} />
        </>
      )}
      <ConfirmDialog actor={removal} title="Remove Team Member" confirmLabel="Remove" processingText="Removing member..." danger>
        <p>
          Remove <strong>{removeIgn}</strong> from team <strong>{team.name}</strong>?
        </p>
      </ConfirmDialog>
    </div>
  );
}

function MemberNotice({ members }: { members: MembersRef }) {
  const notice = useSelector(members, sel.selectNotice);
  const fading = useSelector(members, sel.selectNoticeFading);
  return <FadingNotice message={notice} fading={fading} testId="member-notice" />;
}

function MemberTable({ members, onRemove }: { members: MembersRef; onRemove: (m: TeamMember) => void }) {
  const list = useSelector(members, sel.selectMembers);
  const roleSaving = useSelector(members, sel.selectRoleSaving);
  return (
    <DataTable className="table member-table cards-sm" columns={['In-game name', 'Role', 'Action']} sections>
      <tbody>
        {list.length === 0 ? (
          <tr>
            <td colSpan={3} className="table__empty">This team currently has no members.</td>
          </tr>
        ) : (
          list.map((m) => (
            <tr key={m.id}>
              <th scope="row">{m.osrs_ign}</th>
              <td data-label="Role">
                <select
                  className="input input--small"
                  aria-label={`Role of ${m.osrs_ign}`}
                  value={m.role}
                  disabled={roleSaving}
                  onChange={(e) => members.send({ type: 'roleChange.request', memberId: m.id, role: e.target.value as TeamRole })}
                >
                  {TEAM_ROLES.map((r) => (
                    <option key={r} value={r}>{r}</option>
                  ))}
                </select>
              </td>
              <td data-label="Action">
                <button type="button" className="btn btn--small btn--danger" aria-label={`Remove ${m.osrs_ign}`} onClick={() => onRemove(m)}>
                  Remove
                </button>
              </td>
            </tr>
          ))
        )}
      </tbody>
      <tfoot>
        <AddMemberRow members={members} />
      </tfoot>
    </DataTable>
  );
}

/** The table's last row: pick an eligible IGN and a role, then Add (docs/client.md §6). */
function AddMemberRow({ members }: { members: MembersRef }) {
  const { eligible, selectedIgnId, role, adding, canAdd } = useSelector(members, sel.selectAddRow, shallowEqual);
  return (
    <tr className="member-table__add">
      <td className="member-table__pick">
        <IgnCombobox
          options={eligible}
          value={selectedIgnId}
          disabled={adding}
          onChange={(ignId) => members.send({ type: 'add.selectIgn', ignId })}
        />
      </td>
      <td data-label="Role">
        <select
          className="input input--small"
          aria-label="Role for the new member"
          value={role}
          disabled={adding}
          onChange={(e) => members.send({ type: 'add.selectRole', role: e.target.value as TeamRole })}
        >
          {TEAM_ROLES.map((r) => (
            <option key={r} value={r}>{r}</option>
          ))}
        </select>
      </td>
      <td className="cards-sm__actions">
        <button type="button" className="btn btn--small btn--primary" disabled={!canAdd} onClick={() => members.send({ type: 'add.submit' })}>
          {adding ? 'Adding...' : 'Add'}
        </button>
      </td>
    </tr>
  );
}
