import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useId, useMemo } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { clanDataMachine } from '../../../machines/clanData.machine';
import * as dataSel from '../../../machines/clanData.selectors';
import { clanRoleMachine, type RoleViewer } from '../../../machines/clanRole.machine';
import * as roleSel from '../../../machines/clanRole.selectors';
import { selectUser } from '../../../machines/session.selectors';
import { selectDraft } from '../../../machines/confirmAction.selectors';
import { CLAN_NAME_MAX, RENAME_EMPTY_OR_SAME, clanNameField } from '../../../contract/clan';
import { applyTextRule } from '../../../contract/text';
import { isManagerRole } from '../../../contract/user';
import { SessionContext } from '../../base/session';
import { useSelectors } from '../../base/useSelectors';
import { Breadcrumb } from '../../ui/Breadcrumb';
import { ConfirmDialog, useConfirmAction, type ConfirmActionRef, type Nothing } from '../../ui/ConfirmDialog';
import { FadingNotice, Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { TabList, type TabItem } from '../../ui/TabList';
import { EventsTab } from '../events/EventsTab';
import { TasksTab } from '../tasks/TasksTab';
import { liveClanEffects, loadClanOrExplain, type ClanManageEffects } from './effects';
import { clanManagePath, parseClanView, useClanNavigate, type ClanTab, type ClanView } from '../../base/paths';
import { countManagers } from './memberTable';
import { MembersTab } from './MembersTab';
import { HistoryTab } from './HistoryTab';
import { liveReviewEffects, ReviewsTab, ReviewsTabLabel, usePendingTitle, useReviewQueue } from './ReviewsTab';
import { RoleActionDialog } from './RoleActionDialog';
import { JoinRequestsPanel } from '../joins/JoinRequestsPanel';
import { JoinSettingsButton } from '../joins/JoinSettings';
import { InvitesPanel } from '../invites/InvitesPanel';
import { UsagePanel } from './UsagePanel';

export type ClanDataRef = ActorRefFrom<typeof clanDataMachine>;
export type ClanRoleRef = ActorRefFrom<typeof clanRoleMachine>;

/** Text shown while a clan action runs and the tabs are disabled (docs/client.md §1). */
export const ACTION_PENDING_TEXT = 'Clan action in progress. Please wait...';

/** The rename form: the new name and the current one. */
export interface RenameDraft {
  name: string;
  current: string;
}

/**
 * The rename rule (docs/game-rules.md §13): after the text rule (control characters refused
 * as the server does), not empty, not the current name, at most 40 characters.
 */
export function validateRename(draft: RenameDraft): string | null {
  const rule = applyTextRule(draft.name, clanNameField('new_name'));
  if (!rule.ok) return rule.message;
  const name = rule.value;
  if (!name || name === draft.current) return RENAME_EMPTY_OR_SAME;
  if (name.length > CLAN_NAME_MAX) return `Clan name must be at most ${CLAN_NAME_MAX} characters.`;
  return null;
}

/**
 * /clans/manage/{clanId}, the clan management screen (docs/client.md §5, §11; docs/game-rules.md §6, §11, §13; docs/server.md
 * §3): breadcrumb back to Profile, the clan name with the Owner-only rename
 * pencil and settings menu (Disband Clan), 'Total Managers / Total Members', and the tabs
 * Members / Events / Tasks (and Reviews with its pending count for managers, docs/server.md
 * §9), the Owner's Joining settings and the managers' requests to join (docs/server.md §18), and
 * under Members the managers' invite links (docs/client.md §15), disabled with a pending message while a clan action runs.
 * Managers also see the clan's quota figures under the counts (UsagePanel; docs/server.md §18 "Quotas").
 * Each tab and event view has its URL (src/base/paths.ts: /clans/manage/{clanId}/members, /events,
 * /events/{eventId}/teams|game|tasks, /tasks, /reviews, /history (managers); nothing after the id shows Members), so
 * Back, reload and bookmarks work; an unknown sub-path goes to the Members tab (replacing it).
 * `effects` are the calls (tests give fakes).
 */
export function ClanManagePage({ effects = liveClanEffects }: { effects?: ClanManageEffects }) {
  const { clanId = '', '*': rest } = useParams();
  const view = parseClanView(rest);
  if (!view) return <Navigate to={clanManagePath(clanId)} replace />;
  return <ClanManageScreen key={clanId} clanId={Number(clanId)} view={view} effects={effects} />;
}

function ClanManageScreen({ clanId, view, effects }: { clanId: number; view: ClanView; effects: ClanManageEffects }) {
  const navigate = useNavigate();
  const session = SessionContext.useActorRef();
  const user = SessionContext.useSelector(selectUser);

  const dataLogic = useMemo(
    () =>
      clanDataMachine.provide({
        actors: { loadClan: fromPromise(({ input }) => loadClanOrExplain(effects.loadClan, input.clanId)) },
        actions: {
          goToLogin: () => {
            session.send({ type: 'session.logout' });
            navigate('/', { replace: true });
          },
        },
      }),
    [effects, navigate, session],
  );
  const clanData = useActorRef(dataLogic, { input: { clanId } });

  const roleLogic = useMemo(
    () =>
      clanRoleMachine.provide({
        actors: {
          changeMemberRole: fromPromise(({ input }) => effects.changeRole(input.clanId, input.memberId, input.role, input.verb)),
          kickMember: fromPromise(({ input }) => effects.kickMember(input.clanId, input.memberId)),
          leaveClan: fromPromise(({ input }) => effects.leaveClan(input.clanId, input.userId)),
          disbandClan: fromPromise(({ input }) => effects.disbandClan(input.clanId)),
        },
        actions: {
          refreshUser: () => session.send({ type: 'session.reload' }),
          goToProfile: () => navigate('/profile'),
          reloadClan: () => clanData.send({ type: 'clan.reload' }),
          removeMember: (_, memberId) => clanData.send({ type: 'clan.memberRemoved', memberId }),
        },
      }),
    [effects, navigate, session, clanData],
  );
  const clanRole = useActorRef(roleLogic, { input: { clanId } });

  const { loading, failed, ready, loadError } = useSelectors(clanData, {
    loading: dataSel.isClanLoading,
    failed: dataSel.isClanLoadFailed,
    ready: dataSel.isClanReady,
    loadError: dataSel.selectClanLoadError,
  });

  const breadcrumb = <Breadcrumb previous={{ to: '/profile', label: 'Profile' }} current="Manage Clan" />;
  if (loading) return <Spinner text="Loading clan data..." />;
  if (failed) {
    return (
      <div className="clan-page">
        {breadcrumb}
        <section className="panel">
          <Notice tone="error" testId="clan-load-error">{loadError}</Notice>
          <div className="row">
            <button type="button" className="btn" onClick={() => clanData.send({ type: 'clan.reload' })}>Retry</button>
            <Link className="btn btn--primary" to="/profile">Back to Profile</Link>
          </div>
        </section>
      </div>
    );
  }
  if (!ready || !user) return null;
  return (
    <div className="clan-page">
      {breadcrumb}
      <LoadedClan clanId={clanId} view={view} userId={user.id} clanData={clanData} clanRole={clanRole} effects={effects} />
    </div>
  );
}

type TabId = ClanTab;
/** The queue of a page without referee calls: never watched (its actor still exists, hooks run unconditionally). */
const NO_REVIEWS = liveReviewEffects;

const TABS: TabItem<TabId>[] = [
  { id: 'members', label: 'Members' },
  { id: 'events', label: 'Events' },
  { id: 'tasks', label: 'Tasks' },
];

function LoadedClan({ clanId, view, userId, clanData, clanRole, effects }: { clanId: number; view: ClanView; userId: number; clanData: ClanDataRef; clanRole: ClanRoleRef; effects: ClanManageEffects }) {
  const session = SessionContext.useActorRef();
  const user = SessionContext.useSelector(selectUser);
  const goTo = useClanNavigate(clanId);
  const { clanName, members, settings } = useSelectors(clanData, {
    clanName: dataSel.selectClanName,
    members: dataSel.selectMembers,
    settings: dataSel.selectClanSettings,
  });
  const pending = useSelector(clanRole, roleSel.isActionPending);
  const tab = view.tab;

  const managerCount = countManagers(members);
  const role = members.find((m) => m.member_id === userId)?.role ?? null;
  const viewer: RoleViewer | null = role ? { userId, role, managerCount, clanName } : null;
  const isOwner = role === 'Owner';
  const isManager = isManagerRole(role);
  const reloadClan = useCallback(() => clanData.send({ type: 'clan.reload' }), [clanData]);

  const rename = useConfirmAction<RenameDraft, Nothing>({
    closed: { draft: { name: '', current: '' }, subject: {} },
    perform: async ({ draft }) => {
      const name = await effects.renameClan(clanId, draft.name.trim());
      return { message: `Clan name successfully updated to: ${name}` };
    },
    validate: validateRename,
    onSucceeded: ({ draft }) => {
      clanData.send({ type: 'clan.renamed', name: draft.name.trim() });
      session.send({ type: 'session.reload' });
    },
  });

  // A tab is a URL: choosing one is a navigation (Back returns to the tab before).
  const selectTab = useCallback((id: TabId) => goTo(id === 'events' ? { tab: id, events: { view: 'list' } } : { tab: id }), [goTo]);
  const showReviews = isManager && !!effects.reviews;
  const reviews = useReviewQueue(clanId, effects.reviews ?? NO_REVIEWS, showReviews);
  usePendingTitle(reviews);
  const withReviews = showReviews ? [...TABS, { id: 'reviews' as const, label: <ReviewsTabLabel queue={reviews} /> }] : TABS;
  // The History is the managers' (docs/server.md §18 "History"); anyone else at its URL sees Members.
  const tabs = isManager ? [...withReviews, { id: 'history' as const, label: 'History' }] : withReviews;
  const shown = (tab === 'reviews' && !showReviews) || (tab === 'history' && !isManager) ? 'members' : tab;
  return (
    <>
      <header className="panel clan-header">
        <div className="clan-header__title">
          <h1 className="clan-header__name">{clanName}</h1>
          {isOwner && (
            <button
              type="button"
              className="icon-btn"
              aria-label="Edit clan name"
              title="Edit clan name"
              disabled={pending}
              onClick={() => rename.send({ type: 'confirm.open', draft: { name: clanName, current: clanName } })}
            >
              <span aria-hidden="true">✎</span>
            </button>
          )}
          {isOwner && viewer && <ClanSettingsMenu disabled={pending} onDisband={() => clanRole.send({ type: 'clan.disband', viewer })} />}
          {isOwner && settings && effects.joins && <JoinSettingsButton clanId={clanId} settings={settings} disabled={pending} effects={effects.joins} onSaved={reloadClan} />}
        </div>
        <p className="clan-header__counts" data-testid="clan-counts">
          Total Managers / Total Members: <strong>{managerCount} / {members.length}</strong>
        </p>
        {isManager && effects.usage && <UsagePanel clanId={clanId} loadUsage={effects.usage} />}
      </header>

      {isManager && effects.joins && <JoinRequestsPanel clanId={clanId} effects={effects.joins} onApproved={reloadClan} />}
      <ActionMessage clanRole={clanRole} />
      {pending && (
        <div className="clan-pending">
          <Notice tone="info" testId="clan-pending">{ACTION_PENDING_TEXT}</Notice>
        </div>
      )}

      <div className="panel clan-tabs">
        <TabList
          tabs={tabs}
          selected={shown}
          onSelect={selectTab}
          label="Clan management"
          idPrefix="clan"
          disabled={pending}
        />
        <div className="tab-panel" role="tabpanel" id={`clan-panel-${shown}`} aria-labelledby={`clan-tab-${shown}`} tabIndex={0}>
          {shown === 'members' && (
            <MembersTab clanId={clanId} members={members} viewer={viewer} pending={pending} clanRole={clanRole} clanData={clanData} effects={effects} />
          )}
          {shown === 'members' && isManager && effects.invites && <InvitesPanel clanId={clanId} effects={effects.invites} />}
          {shown === 'events' && <EventsTab clanId={clanId} isManager={isManager} viewer={viewer && user ? { id: user.id, igns: user.igns } : null} route={view.tab === 'events' ? view.events : { view: 'list' }} />}
          {shown === 'tasks' && <TasksTab clanId={clanId} isManager={isManager} />}
          {shown === 'reviews' && <ReviewsTab queue={reviews} />}
          {shown === 'history' && <HistoryTab clanId={clanId} />}
        </div>
      </div>

      <RoleActionDialog clanRole={clanRole} />
      <RenameDialog actor={rename} />
    </>
  );
}

/**
 * The Owner's settings menu with Disband Clan (docs/client.md §1; Radix dropdown,
 * keyboard-operable). Its trigger says 'Settings' in words beside the gear: the sole manager's
 * disabled Leave Clan sends them to Disband Clan, which must be findable without guessing an icon.
 */
function ClanSettingsMenu({ onDisband, disabled }: { onDisband: () => void; disabled: boolean }) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="btn btn--small clan-header__settings" aria-label="Clan settings" disabled={disabled}>
        <span aria-hidden="true">⚙</span> Settings
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={6}>
          <DropdownMenu.Item className="menu__item menu__item--danger" onSelect={onDisband}>
            Disband Clan
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** The clanRole action message: shown, fading after 4 s, gone at 5 s (docs/client.md §12). */
function ActionMessage({ clanRole }: { clanRole: ClanRoleRef }) {
  const message = useSelector(clanRole, roleSel.selectActionMessage);
  const fading = useSelector(clanRole, roleSel.isMessageFading);
  return <FadingNotice message={message} fading={fading} testId="clan-action-message" />;
}

/** The rename dialog of the Owner's pencil (docs/game-rules.md §13). */
function RenameDialog({ actor }: { actor: ConfirmActionRef<RenameDraft, Nothing> }) {
  const draft = useSelector(actor, selectDraft);
  const id = useId();
  return (
    <ConfirmDialog actor={actor} title="Edit Clan Name" confirmLabel="Save Name" processingText="Saving the clan name...">
      <div className="field">
        <label className="field__label" htmlFor={id}>New clan name</label>
        <input
          id={id}
          className="input"
          autoFocus
          maxLength={CLAN_NAME_MAX}
          aria-describedby={`${id}-hint`}
          value={draft.name}
          onChange={(e) => actor.send({ type: 'confirm.change', field: 'name', value: e.target.value })}
        />
        <span id={`${id}-hint`} className="field__hint">At most {CLAN_NAME_MAX} characters.</span>
      </div>
    </ConfirmDialog>
  );
}
