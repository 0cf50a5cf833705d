import { useActorRef, useSelector } from '@xstate/react';
import { useId } from 'react';
import { fromPromise, type ActorRefFrom } from 'xstate';
import type { clanDataMachine } from '../../../machines/clanData.machine';
import type { clanRoleMachine, RoleViewer } from '../../../machines/clanRole.machine';
import { selectDraft } from '../../../machines/confirmAction.selectors';
import type { ClanMember } from '../../../contract/clan';
import type { ClanRole } from '../../../contract/user';
import { isManagerRole } from '../../../contract/user';
import { ConfirmDialog, useConfirmAction, type ConfirmActionRef, type Nothing } from '../../ui/ConfirmDialog';
import { Notice } from '../../ui/Notice';
import { TableHead } from '../../ui/TableHead';
import type { ClanManageEffects } from './effects';
import { PAGE_SIZES, useTableModel, type PageSize } from '../../ui/tableModel';
import { filterMembers, noMembersText, rangeLabel, rowActions } from './memberTable';
import { errorText } from '../../../contract/errorText';
import { memberSearchMachine } from '../../../machines/memberSearch.machine';
import { selectSearchResults } from '../../../machines/memberSearch.selectors';
import { MemberSearchBox } from './MemberSearchBox';

type ClanRoleRef = ActorRefFrom<typeof clanRoleMachine>;
type ClanDataRef = ActorRefFrom<typeof clanDataMachine>;

/** A date-time text in the viewer's locale; empty values read 'N/A' (docs/game-rules.md §12). */
/** The Add Member form: the chosen user (none yet: null) and the role to give. */
interface AddMemberDraft {
  userId: number | null;
  username: string;
  role: ClanRole;
}

const NEW_MEMBER: AddMemberDraft = { userId: null, username: '', role: 'Member' };

function formatDate(iso: string | null, withTime = false): string {
  if (!iso) return 'N/A';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return 'N/A';
  return withTime ? d.toLocaleString() : d.toLocaleDateString();
}

/**
 * The Members tab of clan management (docs/client.md §5):
 * search by username or role, pagination 10/25/50 with 'X-Y of N members' (' (Filtered from M)'),
 * the Add Member dialog for managers, and each row's actions (promote / Transfer Ownership,
 * demote, kick for managers; Leave Clan on the viewer's own row). Actions are sent to the
 * clanRole chart; buttons are disabled while one runs.
 */
export function MembersTab({
  clanId,
  members,
  viewer,
  pending,
  clanRole,
  clanData,
  effects,
}: {
  clanId: number;
  members: ClanMember[];
  viewer: RoleViewer | null;
  pending: boolean;
  clanRole: ClanRoleRef;
  clanData: ClanDataRef;
  effects: Pick<ClanManageEffects, 'loadAvailableUsers' | 'addMember'>;
}) {
  const { search, setSearch, pageSize, setPageSize, filtered, window: win, rows, setPage } = useTableModel(members, filterMembers);
  const searchId = useId();
  const sizeId = useId();

  const isManager = isManagerRole(viewer?.role);
  const actionViewer = { userId: viewer?.userId ?? -1, role: viewer?.role ?? null, managerCount: viewer?.managerCount ?? 0 };

  const addMember = useConfirmAction<AddMemberDraft, Nothing>({
    closed: { draft: NEW_MEMBER, subject: {} },
    perform: async ({ draft }) => {
      if (draft.userId === null) throw new Error('Choose a user to add.');
      await effects.addMember(clanId, draft.userId, draft.role);
      return { message: `User (Username: ${draft.username}) added as ${draft.role}.` };
    },
    validate: (draft) => (draft.userId ? null : 'Choose a user to add.'),
    onSucceeded: () => clanData.send({ type: 'clan.reload' }),
  });

  return (
    <div className="members">
      <div className="members__toolbar">
        <label className="members__search" htmlFor={searchId}>
          <span className="sr-only">Search members</span>
          <input
            id={searchId}
            className="input"
            type="search"
            placeholder="Search by username or role"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
        {isManager && (
          <button
            type="button"
            className="btn btn--primary"
            disabled={pending}
            onClick={() => addMember.send({ type: 'confirm.open', draft: NEW_MEMBER })}
          >
            Add Member
          </button>
        )}
      </div>

      <div className="table-scroll">
        <table className="members-table">
          <TableHead columns={['Username', 'Role', 'Joined', 'Last Login', 'Actions']} />
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={5} className="members-table__empty">{noMembersText(search)}</td>
              </tr>
            ) : (
              rows.map((m) => (
                <tr key={m.member_id} data-testid={`member-row-${m.member_id}`}>
                  <td className="members-table__name" data-label="Username">{m.username}</td>
                  <td data-label="Role">
                    <span className={`role-badge role-badge--${m.role.toLowerCase()}`}>{m.role}</span>
                  </td>
                  <td data-label="Joined">{formatDate(m.joined_at)}</td>
                  <td data-label="Last Login">{formatDate(m.last_login, true)}</td>
                  <td data-label="Actions" className="members-table__actions">
                    <RowActionCell member={m} viewer={viewer} actionViewer={actionViewer} pending={pending} clanRole={clanRole} />
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>

      <div className="pager">
        <label className="pager__size" htmlFor={sizeId}>
          Rows per page
          <select id={sizeId} className="input" value={pageSize} onChange={(e) => setPageSize(Number(e.target.value) as PageSize)}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>{n}</option>
            ))}
          </select>
        </label>
        <span className="pager__range" data-testid="members-range">{rangeLabel(win, filtered.length, members.length)}</span>
        <div className="pager__buttons">
          <button type="button" className="btn" disabled={win.page <= 1} onClick={() => setPage(win.page - 1)}>
            Previous
          </button>
          <button type="button" className="btn" disabled={win.page >= win.pageCount} onClick={() => setPage(win.page + 1)}>
            Next
          </button>
        </div>
      </div>

      <AddMemberDialog actor={addMember} clanId={clanId} isOwner={viewer?.role === 'Owner'} loadAvailableUsers={effects.loadAvailableUsers} />
    </div>
  );
}

/** The actions cell of one row (docs/client.md §5). */
function RowActionCell({
  member,
  viewer,
  actionViewer,
  pending,
  clanRole,
}: {
  member: ClanMember;
  viewer: RoleViewer | null;
  actionViewer: { userId: number; role: ClanRole | null; managerCount: number };
  pending: boolean;
  clanRole: ClanRoleRef;
}) {
  const actions = rowActions(actionViewer, member);
  if (!viewer || actions.kind === 'none') return null;
  const target = { member_id: member.member_id, username: member.username, role: member.role };
  if (actions.kind === 'self') {
    return (
      <div className="row-actions row-actions--self">
        <button
          type="button"
          className="btn btn--small btn--danger"
          disabled={pending || actions.leaveDisabled}
          aria-describedby={actions.hint ? `leave-hint-${member.member_id}` : undefined}
          onClick={() => clanRole.send({ type: 'clan.leave', viewer })}
        >
          Leave Clan
        </button>
        {actions.hint && <span id={`leave-hint-${member.member_id}`} className="row-actions__hint">{actions.hint}</span>}
      </div>
    );
  }
  return (
    <div className="row-actions">
      <button
        type="button"
        className="btn btn--small"
        aria-label={`${actions.promoteLabel} ${member.username}`}
        disabled={pending || !actions.promoteEnabled}
        onClick={() => clanRole.send({ type: 'member.promote', member: target, viewer })}
      >
        {actions.promoteLabel}
      </button>
      <button
        type="button"
        className="btn btn--small"
        aria-label={`Demote ${member.username}`}
        disabled={pending || !actions.demoteEnabled}
        onClick={() => clanRole.send({ type: 'member.demote', member: target, viewer })}
      >
        Demote
      </button>
      <button
        type="button"
        className="btn btn--small btn--danger"
        aria-label={`Kick ${member.username}`}
        disabled={pending || !actions.kickEnabled}
        onClick={() => clanRole.send({ type: 'member.kick', member: target, viewer })}
      >
        Kick
      </button>
    </div>
  );
}

/** Loads the users who can be added, as an actor that runs while the dialog's form is shown. */
const availableUsersLogic = fromPromise(({ input }: { input: { clanId: number; load: ClanManageEffects['loadAvailableUsers'] } }) => input.load(input.clanId));

/**
 * The Add Member dialog (docs/client.md §5): pick an available user and a role;
 * confirm stays disabled until a user is chosen; the Admin role is offered only to the Owner.
 * Success: 'User (Username: {member_name}) added as {role}.'
 */
function AddMemberDialog({
  actor,
  clanId,
  isOwner,
  loadAvailableUsers,
}: {
  actor: ConfirmActionRef<AddMemberDraft, Nothing>;
  clanId: number;
  isOwner: boolean;
  loadAvailableUsers: ClanManageEffects['loadAvailableUsers'];
}) {
  const draft = useSelector(actor, selectDraft);
  return (
    <ConfirmDialog actor={actor} title="Add Member" confirmLabel="Add Member" processingText="Adding member..." submitDisabled={!draft.userId}>
      <AvailableUserFields actor={actor} clanId={clanId} isOwner={isOwner} load={loadAvailableUsers} />
    </ConfirmDialog>
  );
}

function AvailableUserFields({ actor, clanId, isOwner, load }: { actor: ConfirmActionRef<AddMemberDraft, Nothing>; clanId: number; isOwner: boolean; load: ClanManageEffects['loadAvailableUsers'] }) {
  const loader = useActorRef(availableUsersLogic, { input: { clanId, load } });
  const loaded = useSelector(loader, (s) => s.status);
  const listed = useSelector(loader, (s) => s.output) ?? [];
  // The chart's search is the same load with the text typed (`?q=`); the chart is made once, on mount.
  const search = useActorRef(memberSearchMachine.provide({ actors: { searchUsers: fromPromise(({ input }: { input: { clanId: number; q: string } }) => load(input.clanId, input.q)) } }), { input: { clanId } });
  const found = useSelector(search, selectSearchResults);
  // A search's answer (the usual list and the users found by name) stands in for the list loaded first.
  const users = found ?? listed;
  const status = found ? 'done' : loaded;
  const error = useSelector(loader, (s) => (s.status === 'error' ? s.error : null));
  const draft = useSelector(actor, selectDraft);
  const userFieldId = useId();
  const roleFieldId = useId();
  const roles: ClanRole[] = isOwner ? ['Guest', 'Member', 'Admin'] : ['Guest', 'Member'];
  return (
    <>
      <MemberSearchBox actor={search} />
      <div className="field">
        <label className="field__label" htmlFor={userFieldId}>User</label>
        <select
          id={userFieldId}
          className="input"
          value={draft.userId ? String(draft.userId) : ''}
          disabled={status !== 'done' || users.length === 0}
          onChange={(e) => {
            const id = Number(e.target.value) || null;
            actor.send({ type: 'confirm.change', field: 'userId', value: id });
            actor.send({ type: 'confirm.change', field: 'username', value: users.find((u) => u.id === id)?.username ?? '' });
          }}
        >
          {status === 'active' ? (
            <option value="">Loading users...</option>
          ) : users.length === 0 ? (
            <option value="">No users available to add.</option>
          ) : (
            <>
              <option value="">Select a user</option>
              {users.map((u) => (
                <option key={u.id} value={u.id}>{u.username}</option>
              ))}
            </>
          )}
        </select>
        {status === 'error' && <Notice tone="error">{errorText(error, 'Failed to load the users who can be added.')}</Notice>}
      </div>
      <div className="field">
        <label className="field__label" htmlFor={roleFieldId}>Role</label>
        <select
          id={roleFieldId}
          className="input"
          value={draft.role}
          onChange={(e) => actor.send({ type: 'confirm.change', field: 'role', value: e.target.value })}
        >
          {roles.map((r) => (
            <option key={r} value={r}>{r}</option>
          ))}
        </select>
      </div>
    </>
  );
}
