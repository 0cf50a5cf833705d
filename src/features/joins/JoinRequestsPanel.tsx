import { useActorRef, useSelector } from '@xstate/react';
import { useId, useMemo } from 'react';
import { fromPromise } from 'xstate';
import { joinRequestsMachine } from '../../../machines/joinRequests.machine';
import { selectPendingCount } from '../../../machines/joinRequests.selectors';
import { hasListLoaded, isListFirstLoad, selectListError, selectListItems } from '../../../machines/listLoader.selectors';
import { selectDraft, selectSubject } from '../../../machines/confirmAction.selectors';
import { JOIN_REASON_MAX, pendingRequestsText, type ClanJoinRequest } from '../../../contract/joins';
import { joinRequestFeedActor } from '../../realtime/joinRequestFeed';
import { ConfirmDialog, useConfirmAction, type ConfirmActionRef, type Nothing } from '../../ui/ConfirmDialog';
import { Notice } from '../../ui/Notice';
import { liveJoinEffects, type JoinEffects } from './effects';

/** The request a dialog acts on. */
interface RequestSubject {
  id: number;
  username: string;
}
/** The deny dialog's form. */
interface DenyDraft {
  reason: string;
}

const NO_REQUEST: RequestSubject = { id: 0, username: '' };

/** The deny form's rule (docs/server.md §18): the reason is optional, at most 300 characters; an error text or null. */
function validateDenyReason(draft: DenyDraft): string | null {
  return draft.reason.trim().length > JOIN_REASON_MAX ? `Reason must be at most ${JOIN_REASON_MAX} characters.` : null;
}

/**
 * The managers' requests to join on the clan page (docs/client.md §5; docs/server.md §18): the
 * live count ('N requests to join', from the managers' room `join_request` event, no reload
 * needed), the pending requests oldest first (username, IGNs, asked date) and, for each, Approve
 * and Deny (with an optional reason), each a confirm / processing / result modal. The list is the
 * joinRequests chart; the count comes over the tab's one socket (joinRequestFeedActor).
 * `onApproved` runs after an approval (the page reloads its members).
 */
export function JoinRequestsPanel({ clanId, effects = liveJoinEffects, onApproved }: { clanId: number; effects?: JoinEffects; onApproved: () => void }) {
  const logic = useMemo(() => joinRequestsMachine.provide({ actors: { loadJoinRequests: fromPromise(() => effects.loadJoinRequests(clanId)) } }), [effects, clanId]);
  const list = useActorRef(logic);
  const feed = useMemo(() => joinRequestFeedActor(() => effects.openSocket()), [effects]);
  useActorRef(feed, { input: { clanId, deliver: (event) => list.send(event) } });

  const items = useSelector(list, selectListItems);
  const count = useSelector(list, selectPendingCount);
  const firstLoad = useSelector(list, isListFirstLoad);
  const loaded = useSelector(list, hasListLoaded);
  const error = useSelector(list, selectListError);
  const headingId = useId();

  const reload = () => list.send({ type: 'joinRequests.reload' });
  const approveFlow = useConfirmAction<Nothing, RequestSubject>({
    closed: { draft: {}, subject: NO_REQUEST },
    perform: async ({ subject }) => {
      await effects.approve(clanId, subject.id);
      return { message: `${subject.username} is now a Member of the clan.` };
    },
    onSucceeded: () => {
      reload();
      onApproved();
    },
  });
  const denyFlow = useConfirmAction<DenyDraft, RequestSubject>({
    closed: { draft: { reason: '' }, subject: NO_REQUEST },
    perform: async ({ draft, subject }) => {
      await effects.deny(clanId, subject.id, draft.reason.trim());
      return { message: `The request of ${subject.username} was denied.` };
    },
    validate: validateDenyReason,
    onSucceeded: reload,
  });

  return (
    <section className="panel join-requests" aria-labelledby={headingId} data-testid="join-requests">
      <h2 id={headingId} className="join-requests__title">
        Requests to join <span className="badge badge--upcoming" data-testid="join-request-count" aria-live="polite">{pendingRequestsText(count)}</span>
      </h2>
      {firstLoad && <p className="muted">Loading requests to join...</p>}
      {error && <Notice tone="error">{error}</Notice>}
      {!loaded && error && (
        <button type="button" className="btn" onClick={reload}>Retry</button>
      )}
      {loaded && items.length === 0 && <p className="muted">No requests to join.</p>}
      {loaded && items.length > 0 && (
        <ul className="join-requests__list">
          {items.map((r) => (
            <RequestRow key={r.id} request={r} onApprove={() => approveFlow.send({ type: 'confirm.open', subject: r })} onDeny={() => denyFlow.send({ type: 'confirm.open', subject: r, draft: { reason: '' } })} />
          ))}
        </ul>
      )}
      <ConfirmDialog actor={approveFlow} title="Approve Request" confirmLabel="Approve" processingText="Approving...">
        <ApproveText actor={approveFlow} />
      </ConfirmDialog>
      <DenyDialog actor={denyFlow} />
    </section>
  );
}

/** One pending request: who asked, their IGNs, when, and the two decisions. */
function RequestRow({ request, onApprove, onDeny }: { request: ClanJoinRequest; onApprove: () => void; onDeny: () => void }) {
  return (
    <li className="join-requests__item" data-testid={`join-request-${request.id}`}>
      <div>
        <strong>{request.username}</strong>
        <span className="muted"> · IGNs: {request.igns.join(', ') || 'none'} · asked {new Date(request.created_at).toLocaleDateString()}</span>
      </div>
      <div className="row">
        <button type="button" className="btn btn--primary btn--small" aria-label={`Approve ${request.username}`} onClick={onApprove}>Approve</button>
        <button type="button" className="btn btn--danger btn--small" aria-label={`Deny ${request.username}`} onClick={onDeny}>Deny</button>
      </div>
    </li>
  );
}

/** The approve dialog's question, naming the asker. */
function ApproveText({ actor }: { actor: ConfirmActionRef<Nothing, RequestSubject> }) {
  const { username } = useSelector(actor, selectSubject);
  return <p>Make {username} a Member of the clan?</p>;
}

/** The deny dialog: the asker, and an optional reason they will see (at most 300 characters). */
function DenyDialog({ actor }: { actor: ConfirmActionRef<DenyDraft, RequestSubject> }) {
  const draft = useSelector(actor, selectDraft);
  const { username } = useSelector(actor, selectSubject);
  const id = useId();
  return (
    <ConfirmDialog actor={actor} title="Deny Request" confirmLabel="Deny" processingText="Denying..." danger>
      <p>Deny the request of {username}?</p>
      <div className="field">
        <label className="field__label" htmlFor={id}>Reason (optional, shown to {username})</label>
        <textarea id={id} className="input" rows={3} maxLength={JOIN_REASON_MAX} value={draft.reason} onChange={(e) => actor.send({ type: 'confirm.change', field: 'reason', value: e.target.value })} />
        <span className="field__hint">At most {JOIN_REASON_MAX} characters.</span>
      </div>
    </ConfirmDialog>
  );
}
