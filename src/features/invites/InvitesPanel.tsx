import { useActorRef, useSelector } from '@xstate/react';
import { useId, useMemo } from 'react';
import { fromPromise } from 'xstate';
import { clanInvitesMachine } from '../../../machines/clanInvites.machine';
import { canCopyInvite, selectInviteMessage } from '../../../machines/clanInvites.selectors';
import { selectDraft, selectSubject } from '../../../machines/confirmAction.selectors';
import { INVITE_HOURS, INVITE_LIST_TEXTS, INVITE_USES, type Invite } from '../../../contract/invite';
import { dateTime } from '../../base/timeFormat';
import { ConfirmDialog, useConfirmAction, type ConfirmActionRef, type Nothing } from '../../ui/ConfirmDialog';
import { DataTable } from '../../ui/DataTable';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { useListView } from '../../ui/useListView';
import { liveInviteEffects, type InviteEffects } from './effects';

/** The Make Invite form: the numbers as typed. */
export interface InviteDraft {
  maxUses: string;
  hours: string;
}

/** The invite a Revoke acts on. */
interface InviteSubject {
  code: string;
}

/** The form's texts and the dialogs' (docs/client.md §15). */
export const INVITE_DIALOG_TEXTS = {
  makeTitle: 'Make Invite Link',
  maxUses: `Uses must be a whole number from ${INVITE_USES.min} to 1,000.`,
  hours: `Hours must be a whole number from ${INVITE_HOURS.min} to ${INVITE_HOURS.max}.`,
  made: (invite: Invite) => `Invite link made: ${invite.max_uses === 1 ? '1 use' : `${invite.max_uses} uses`} until ${dateTime(invite.expires_at)}. Copy it from the list.`,
  revokeTitle: 'Revoke Invite',
  revokeBody: 'Its link stops working at once; people who joined with it stay members.',
  revoked: 'Invite revoked.',
} as const;

const NEW_INVITE: InviteDraft = { maxUses: String(INVITE_USES.default), hours: String(INVITE_HOURS.default) };

/** A whole number from `min` to `max` as typed, or null. */
function wholeIn(text: string, min: number, max: number): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const n = Number(text);
  return n >= min && n <= max ? n : null;
}

/** The Make Invite form's rule (docs/server.md §18): uses 1 to 1,000, hours 1 to 720. */
export function validateInviteDraft(draft: InviteDraft): string | null {
  if (wholeIn(draft.maxUses, INVITE_USES.min, INVITE_USES.max) === null) return INVITE_DIALOG_TEXTS.maxUses;
  if (wholeIn(draft.hours, INVITE_HOURS.min, INVITE_HOURS.max) === null) return INVITE_DIALOG_TEXTS.hours;
  return null;
}

/**
 * The managers' invite links on the clan page (docs/client.md §15; docs/server.md §18):
 * Make Invite Link (a dialog with the uses and the hours it lasts, 25 and 168 unless changed),
 * and the live invites, newest first: code, uses of the allowed, until when, the link with Copy,
 * and Revoke (confirmed). The list is the clanInvites chart (list loader with copy); making and
 * revoking are confirm / processing / result modals (confirmAction) that read the list again
 * when they succeed. `effects` are the calls (tests give fakes).
 */
export function InvitesPanel({ clanId, effects = liveInviteEffects }: { clanId: number; effects?: InviteEffects }) {
  const headingId = useId();
  const logic = useMemo(
    () =>
      clanInvitesMachine.provide({
        actors: {
          loadInvites: fromPromise(() => effects.loadInvites(clanId)),
          copyLink: fromPromise(({ input }) => effects.copyText(input.url)),
        },
      }),
    [effects, clanId],
  );
  const list = useActorRef(logic);
  const { items, error, firstLoad, loaded, reloading } = useListView(list);
  const message = useSelector(list, selectInviteMessage);
  const canCopy = useSelector(list, canCopyInvite);
  const reload = () => list.send({ type: 'invites.reload' });

  const make = useConfirmAction<InviteDraft, Nothing>({
    closed: { draft: NEW_INVITE, subject: {} },
    perform: async ({ draft }) => {
      const invite = await effects.createInvite(clanId, { max_uses: Number(draft.maxUses), expires_in_hours: Number(draft.hours) });
      return { message: INVITE_DIALOG_TEXTS.made(invite) };
    },
    validate: validateInviteDraft,
    onSucceeded: reload,
  });
  const revoke = useConfirmAction<Nothing, InviteSubject>({
    closed: { draft: {}, subject: { code: '' } },
    perform: async ({ subject }) => {
      await effects.revokeInvite(clanId, subject.code);
      return { message: INVITE_DIALOG_TEXTS.revoked };
    },
    onSucceeded: reload,
  });

  return (
    <section className="invites" aria-labelledby={headingId} data-testid="invites">
      <div className="row invites__head">
        <h2 id={headingId} className="invites__title">Invite links</h2>
        <button type="button" className="btn btn--primary btn--small" onClick={() => make.send({ type: 'confirm.open', draft: NEW_INVITE })}>
          Make Invite Link
        </button>
        <button
          type="button"
          className="btn btn--small"
          aria-label={reloading ? 'Refreshing invites...' : 'Refresh invites'}
          disabled={firstLoad || reloading}
          onClick={reload}
        >
          {reloading ? 'Refreshing...' : 'Refresh'}
        </button>
      </div>
      <p className="muted">Anyone with a live link can join as Member, whatever the clan's joining setting, until it expires or its uses run out.</p>
      {firstLoad && <Spinner text="Loading invites..." />}
      {error && <Notice tone="error" testId="invites-error">{error}</Notice>}
      {message && <Notice tone={message.tone} testId="invites-message">{message.text}</Notice>}
      {loaded && items.length === 0 && <p className="muted" data-testid="invites-empty">{INVITE_LIST_TEXTS.empty}</p>}
      {items.length > 0 && (
        <DataTable className="table invites__table cards-sm" columns={['Code', 'Uses', 'Expires', 'Link', 'Action']} busy={reloading}>
          {items.map((invite) => (
            <tr key={invite.code} data-testid="invite-row">
              <th scope="row"><code>{invite.code}</code></th>
              <td data-label="Uses">{invite.uses} / {invite.max_uses}</td>
              <td data-label="Expires"><time dateTime={invite.expires_at}>{dateTime(invite.expires_at)}</time></td>
              <td data-label="Link">
                <span className="invites__link">
                  <span className="invites__url" data-testid="invite-url">{invite.url}</span>{' '}
                  <button type="button" className="btn btn--small" aria-label={`Copy link of invite ${invite.code}`} disabled={!canCopy} onClick={() => list.send({ type: 'invite.copy', url: invite.url })}>
                    Copy link
                  </button>
                </span>
              </td>
              <td data-label="Action">
                <button type="button" className="btn btn--small btn--danger" aria-label={`Revoke invite ${invite.code}`} onClick={() => revoke.send({ type: 'confirm.open', subject: { code: invite.code } })}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <MakeInviteDialog actor={make} />
      <RevokeInviteDialog actor={revoke} />
    </section>
  );
}

/** The Make Invite Link dialog: how many uses, and for how many hours. */
function MakeInviteDialog({ actor }: { actor: ConfirmActionRef<InviteDraft, Nothing> }) {
  const draft = useSelector(actor, selectDraft);
  const id = useId();
  return (
    <ConfirmDialog actor={actor} title={INVITE_DIALOG_TEXTS.makeTitle} confirmLabel="Make Link" processingText="Making the invite link...">
      <div className="field">
        <label className="field__label" htmlFor={`${id}-uses`}>Uses</label>
        <input
          id={`${id}-uses`}
          className="input"
          type="text"
          inputMode="numeric"
          aria-describedby={`${id}-uses-hint`}
          value={draft.maxUses}
          onChange={(e) => actor.send({ type: 'confirm.change', field: 'maxUses', value: e.target.value })}
        />
        <span id={`${id}-uses-hint`} className="field__hint">How many people may join with it: {INVITE_USES.min} to 1,000.</span>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-hours`}>Expires after (hours)</label>
        <input
          id={`${id}-hours`}
          className="input"
          type="text"
          inputMode="numeric"
          aria-describedby={`${id}-hours-hint`}
          value={draft.hours}
          onChange={(e) => actor.send({ type: 'confirm.change', field: 'hours', value: e.target.value })}
        />
        <span id={`${id}-hours-hint`} className="field__hint">{INVITE_HOURS.min} to {INVITE_HOURS.max} hours ({INVITE_HOURS.default} is a week, {INVITE_HOURS.max} thirty days).</span>
      </div>
    </ConfirmDialog>
  );
}

/** The Revoke Invite dialog: which code, and what revoking does. */
function RevokeInviteDialog({ actor }: { actor: ConfirmActionRef<Nothing, InviteSubject> }) {
  const subject = useSelector(actor, selectSubject);
  return (
    <ConfirmDialog actor={actor} title={INVITE_DIALOG_TEXTS.revokeTitle} confirmLabel="Revoke" processingText="Revoking the invite..." danger>
      <p>
        Revoke the invite <code>{subject.code}</code>?
      </p>
      <p>{INVITE_DIALOG_TEXTS.revokeBody}</p>
    </ConfirmDialog>
  );
}
