import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { selectUser } from '../../../machines/session.selectors';
import { selectDraft, selectSubject } from '../../../machines/confirmAction.selectors';
import { CLAN_NAME_MAX } from '../../../contract/clan';
import { IGN_MAX, isManagerRole, type User } from '../../../contract/user';
import { DATA_RIGHTS_TEXTS } from '../../../contract/dataRights';
import { SessionContext } from '../../base/session';
import { ACCOUNT_EXPORT_URL, createClan, deleteAccount, deleteIgn, editIgn, linkIgn } from '../../api/account';
import { leaveClan } from '../../api/clans';
import { Avatar } from '../../ui/Avatar';
import { EditDeleteButtons } from '../../ui/RowActions';
import { ConfirmDialog, useConfirmAction, type ConfirmActionRef, type Nothing } from '../../ui/ConfirmDialog';
import { OwnJoinRequests } from '../joins/OwnJoinRequests';
import { NotificationsPanel, type NotificationsEffects } from './NotificationsPanel';
import type { JoinEffects } from '../joins/effects';
import { Spinner } from '../../ui/Spinner';
import { clanManagePath } from '../../base/paths';
import {
  PROFILE_TEXTS,
  linkEach,
  validateClanCreate,
  validateIgnEdit,
  validateIgnLink,
  validateDeleteAccount,
  type ClanCreateDraft,
  type DeleteAccountDraft,
  type IgnEditDraft,
  type IgnLinkDraft,
} from './profileActions';

/** The calls of the profile page (docs/server.md §3); tests give fakes. */
export interface ProfileEffects {
  linkIgn(ign: string): Promise<unknown>;
  editIgn(id: number, ign: string): Promise<unknown>;
  deleteIgn(id: number): Promise<void>;
  leaveClan(clanId: number, ownUserId: number): Promise<void>;
  createClan(clanName: string): Promise<number>;
  /** DELETE /api/user/me with the typed username (docs/server.md §18 "Data rights"). */
  deleteAccount(confirm: string): Promise<void>;
  /** Withdraw of the user's own join requests (docs/server.md §18); the live call when absent. */
  joins?: JoinEffects;
  /** The Notifications panel's calls (docs/server.md §20); the browser's and the server's when absent. */
  notifications?: NotificationsEffects;
}

const liveProfileEffects: ProfileEffects = { linkIgn, editIgn, deleteIgn, leaveClan, createClan, deleteAccount };

/** The IGN a Delete or Edit acts on. */
interface IgnSubject {
  id: number;
  ign: string;
}

/** The clan membership a Leave Clan acts on. */
interface LeaveSubject {
  clanId: number;
  userId: number;
  name: string;
}

const NO_IGN: IgnSubject = { id: 0, ign: '' };

/** A joined date in the viewer's locale. */
function formatJoined(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString();
}

/**
 * /profile, account management (docs/client.md §3; docs/game-rules.md §6, §13): 'Loading profile
 * data...' while the user is absent; the username and linked IGNs (Edit/Delete always shown on
 * touch screens and phones; with a mouse on a wide screen revealed on hover or keyboard focus, and
 * not clickable while hidden); Link New IGNs; clan membership cards (Clan Events, the clan's event list, for
 * every role; Manage Clan for Admin/Owner, Leave Clan otherwise); Create New Clan (disabled at the clan limit); the Account & Security panel with
 * the Discord username, Logout and Log out everywhere (every session of the user, docs/server.md
 * §8; both go to / like the documented Logout), and the data rights of docs/server.md §18:
 * 'Download my data' (a link to the JSON attachment) and 'Delete account', whose modal asks for the
 * username typed again and, once the server deleted the account, signs out and goes to /. Every
 * modal is a confirmAction flow; a success refreshes the session's user (a deletion signs out).
 * Below, the Notifications panel (NotificationsPanel.tsx, docs/server.md §20).
 */
export function ProfilePage({ effects = liveProfileEffects }: { effects?: ProfileEffects }) {
  const user = SessionContext.useSelector(selectUser);
  if (!user) return <Spinner text={PROFILE_TEXTS.loading} />;
  return <Profile user={user} effects={effects} />;
}

function Profile({ user, effects }: { user: User; effects: ProfileEffects }) {
  const session = SessionContext.useActorRef();
  const navigate = useNavigate();
  const refresh = () => session.send({ type: 'session.reload' });

  const deleteFlow = useConfirmAction<Nothing, IgnSubject>({
    closed: { draft: {}, subject: NO_IGN },
    perform: async ({ subject }) => {
      await effects.deleteIgn(subject.id);
      return { message: `IGN ${subject.ign} was deleted.` };
    },
    onSucceeded: refresh,
  });
  const linkFlow = useConfirmAction<IgnLinkDraft, Nothing>({
    closed: { draft: { text: '' }, subject: {} },
    perform: ({ draft }) => linkEach(draft.text, (ign) => effects.linkIgn(ign)),
    validate: validateIgnLink,
    onSucceeded: refresh,
  });
  const editFlow = useConfirmAction<IgnEditDraft, IgnSubject>({
    closed: { draft: { ign: '', current: '' }, subject: NO_IGN },
    perform: async ({ draft, subject }) => {
      const next = draft.ign.trim();
      await effects.editIgn(subject.id, next);
      return { message: `IGN ${subject.ign} was changed to ${next}.` };
    },
    validate: validateIgnEdit,
    onSucceeded: refresh,
  });
  const leaveFlow = useConfirmAction<Nothing, LeaveSubject>({
    closed: { draft: {}, subject: { clanId: 0, userId: 0, name: '' } },
    perform: async ({ subject }) => {
      await effects.leaveClan(subject.clanId, subject.userId);
      return { message: `You have left ${subject.name}.` };
    },
    onSucceeded: refresh,
  });
  const deleteAccountFlow = useConfirmAction<DeleteAccountDraft, Nothing>({
    closed: { draft: { typed: '', username: user.username }, subject: {} },
    perform: async ({ draft }) => {
      await effects.deleteAccount(draft.typed);
      return { message: DATA_RIGHTS_TEXTS.deleted };
    },
    validate: validateDeleteAccount,
    // Every session ended on the server: the session chart signs out (its logout call only clears the cookie) and the landing page shows.
    onSucceeded: () => {
      session.send({ type: 'session.logout' });
      navigate('/');
    },
  });
  const createFlow = useConfirmAction<ClanCreateDraft, Nothing>({
    closed: { draft: { name: '' }, subject: {} },
    perform: async ({ draft }) => {
      const name = draft.name.trim();
      await effects.createClan(name);
      return { message: `Clan ${name} was created. You are its Owner.` };
    },
    validate: validateClanCreate,
    onSucceeded: refresh,
  });

  return (
    <div className="profile">
      <section className="panel profile__identity">
        <Avatar url={user.avatar_url} username={user.username} size={64} />
        <div>
          <h1 className="profile__name">{user.username}</h1>
          <p className="muted">Your in-game names, clans and account.</p>
        </div>
      </section>

      <div className="profile__grid">
        <section className="panel profile__section" aria-labelledby="profile-igns">
          <h2 id="profile-igns">Linked IGNs</h2>
          {user.igns.length === 0 ? (
            <p className="muted">No IGNs linked yet.</p>
          ) : (
            <ul className="ign-list">
              {user.igns.map((ign) => (
                <li key={ign.id} className="ign-item" tabIndex={0} data-testid={`ign-${ign.id}`}>
                  <span className="ign-item__name">{ign.ign}</span>
                  <span className="ign-item__actions">
                    <EditDeleteButtons
                      label={`IGN ${ign.ign}`}
                      onEdit={() => editFlow.send({ type: 'confirm.open', subject: { id: ign.id, ign: ign.ign }, draft: { ign: ign.ign, current: ign.ign } })}
                      onDelete={() => deleteFlow.send({ type: 'confirm.open', subject: { id: ign.id, ign: ign.ign } })}
                    />
                  </span>
                </li>
              ))}
            </ul>
          )}
          <button type="button" className="btn btn--primary" onClick={() => linkFlow.send({ type: 'confirm.open', draft: { text: '' } })}>
            Link New IGNs
          </button>
        </section>

        <section className="panel profile__section" aria-labelledby="profile-clans">
          <h2 id="profile-clans">Clan Memberships</h2>
          {user.clan_memberships_list.length === 0 ? (
            <p className="muted">You are not a member of any clan yet.</p>
          ) : (
            <ul className="clan-cards">
              {user.clan_memberships_list.map((m) => (
                <li key={m.clan_id} className="clan-card" data-testid={`clan-card-${m.clan_id}`}>
                  <h3 className="clan-card__name">{m.name}</h3>
                  <dl className="clan-card__facts">
                    <dt>Role</dt>
                    <dd>{m.role}</dd>
                    <dt>Joined</dt>
                    <dd>{formatJoined(m.joined_at)}</dd>
                  </dl>
                  <div className="row clan-card__actions">
                    {/* Every member's way to the events, their Sign-ups and the draft room (docs/client.md §3). */}
                    <Link className="btn btn--small" to={clanManagePath(m.clan_id, { tab: 'events', events: { view: 'list' } })} aria-label={`Clan Events of ${m.name}`}>
                      Clan Events
                    </Link>
                    {isManagerRole(m.role) ? (
                      <Link className="btn btn--primary btn--small" to={`/clans/manage/${m.clan_id}`}>
                        Manage Clan
                      </Link>
                    ) : (
                      <button
                        type="button"
                        className="btn btn--danger btn--small"
                        aria-label={`Leave Clan ${m.name}`}
                        onClick={() => leaveFlow.send({ type: 'confirm.open', subject: { clanId: m.clan_id, userId: user.id, name: m.name } })}
                      >
                        Leave Clan
                      </button>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          )}
          <OwnJoinRequests requests={user.join_requests ?? []} effects={effects.joins} onWithdrawn={refresh} />
          <button
            type="button"
            className="btn btn--primary"
            disabled={!user.can_create_clan}
            aria-describedby={user.can_create_clan ? undefined : 'clan-limit-hint'}
            onClick={() => createFlow.send({ type: 'confirm.open', draft: { name: '' } })}
          >
            Create New Clan
          </button>
          {!user.can_create_clan && (
            <p id="clan-limit-hint" className="field__hint">You have reached the limit of clans you can own.</p>
          )}
        </section>

        <section className="panel profile__section" aria-labelledby="profile-account">
          <h2 id="profile-account">Account &amp; Security</h2>
          <dl className="clan-card__facts">
            <dt>Discord username</dt>
            <dd>{user.discord_username}</dd>
          </dl>
          <button
            type="button"
            className="btn btn--danger"
            onClick={() => {
              session.send({ type: 'session.logout' });
              navigate('/');
            }}
          >
            Logout
          </button>
          <button
            type="button"
            className="btn btn--danger"
            aria-describedby="logout-everywhere-hint"
            onClick={() => {
              session.send({ type: 'session.logoutEverywhere' });
              navigate('/');
            }}
          >
            Log out everywhere
          </button>
          <p id="logout-everywhere-hint" className="field__hint">Also signs you out in every other browser and device.</p>
          <h3>Your data</h3>
          <a className="btn" href={ACCOUNT_EXPORT_URL} download aria-describedby="download-data-hint">
            Download my data
          </a>
          <p id="download-data-hint" className="field__hint">A JSON file with your profile, IGNs, clans, join requests, sign-ups, proofs and the game log lines naming your IGNs.</p>
          <button
            type="button"
            className="btn btn--danger"
            onClick={() => deleteAccountFlow.send({ type: 'confirm.open', draft: { typed: '', username: user.username } })}
          >
            Delete account
          </button>
        </section>

        <NotificationsPanel effects={effects.notifications} />
      </div>

      <DeleteIgnDialog actor={deleteFlow} />
      <LinkIgnsDialog actor={linkFlow} />
      <EditIgnDialog actor={editFlow} />
      <LeaveClanDialog actor={leaveFlow} />
      <CreateClanDialog actor={createFlow} />
      <DeleteAccountDialog actor={deleteAccountFlow} />
    </div>
  );
}

function DeleteIgnDialog({ actor }: { actor: ConfirmActionRef<Nothing, IgnSubject> }) {
  const subject = useSelector(actor, selectSubject);
  return (
    <ConfirmDialog actor={actor} title="Delete IGN" confirmLabel="Delete IGN" danger processingText="Deleting IGN...">
      <p>Delete the IGN <strong>{subject.ign}</strong> from your account?</p>
    </ConfirmDialog>
  );
}

function LinkIgnsDialog({ actor }: { actor: ConfirmActionRef<IgnLinkDraft, Nothing> }) {
  const draft = useSelector(actor, selectDraft);
  const id = useId();
  return (
    <ConfirmDialog actor={actor} title="Link New IGNs" confirmLabel="Link IGNs" processingText="Linking IGNs...">
      <div className="field">
        <label className="field__label" htmlFor={id}>New IGNs, separated by commas</label>
        <input
          id={id}
          className="input"
          autoFocus
          aria-describedby={`${id}-hint`}
          value={draft.text}
          placeholder="e.g. Zezima, Lynx Titan"
          onChange={(e) => actor.send({ type: 'confirm.change', field: 'text', value: e.target.value })}
        />
        <span id={`${id}-hint`} className="field__hint">IGNs are case-sensitive and must match the game exactly (1 to {IGN_MAX} characters each).</span>
      </div>
    </ConfirmDialog>
  );
}

function EditIgnDialog({ actor }: { actor: ConfirmActionRef<IgnEditDraft, IgnSubject> }) {
  const draft = useSelector(actor, selectDraft);
  const subject = useSelector(actor, selectSubject);
  return (
    <ConfirmDialog actor={actor} title="Edit IGN" confirmLabel="Save IGN" processingText="Saving IGN...">
      <p>Current IGN: <strong>{subject.ign}</strong></p>
      <label className="field">
        <span className="field__label">New IGN</span>
        <input
          className="input"
          autoFocus
          value={draft.ign}
          onChange={(e) => actor.send({ type: 'confirm.change', field: 'ign', value: e.target.value })}
        />
      </label>
    </ConfirmDialog>
  );
}

function LeaveClanDialog({ actor }: { actor: ConfirmActionRef<Nothing, LeaveSubject> }) {
  const subject = useSelector(actor, selectSubject);
  return (
    <ConfirmDialog actor={actor} title="Leave Clan" confirmLabel="Leave Clan" danger processingText="Leaving clan...">
      <p>Are you sure you want to leave <strong>{subject.name}</strong>?</p>
    </ConfirmDialog>
  );
}

function CreateClanDialog({ actor }: { actor: ConfirmActionRef<ClanCreateDraft, Nothing> }) {
  const draft = useSelector(actor, selectDraft);
  return (
    <ConfirmDialog actor={actor} title="Create New Clan" confirmLabel="Create Clan" processingText="Creating clan...">
      <label className="field">
        <span className="field__label">Clan name</span>
        <input
          className="input"
          autoFocus
          maxLength={CLAN_NAME_MAX}
          value={draft.name}
          onChange={(e) => actor.send({ type: 'confirm.change', field: 'name', value: e.target.value })}
        />
      </label>
    </ConfirmDialog>
  );
}

function DeleteAccountDialog({ actor }: { actor: ConfirmActionRef<DeleteAccountDraft, Nothing> }) {
  const draft = useSelector(actor, selectDraft);
  const id = useId();
  return (
    <ConfirmDialog actor={actor} title="Delete account" confirmLabel="Delete account" danger processingText="Deleting account...">
      <p>
        Your IGNs, clan memberships, join requests and sign-ups are deleted and you are signed out everywhere. Finished games keep your IGNs
        as played, and your past proofs and reviews show 'Deleted user'. This cannot be undone.
      </p>
      <div className="field">
        <label className="field__label" htmlFor={id}>Type your username to confirm</label>
        <input
          id={id}
          className="input"
          autoFocus
          autoComplete="off"
          aria-describedby={`${id}-hint`}
          value={draft.typed}
          onChange={(e) => actor.send({ type: 'confirm.change', field: 'typed', value: e.target.value })}
        />
        <span id={`${id}-hint`} className="field__hint">Your username is <strong>{draft.username}</strong>.</span>
      </div>
    </ConfirmDialog>
  );
}
