import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { selectSubject } from '../../../machines/confirmAction.selectors';
import { JOIN_REQUEST_STATUS_TEXT, type OwnJoinRequest } from '../../../contract/joins';
import { ConfirmDialog, useConfirmAction, type ConfirmActionRef, type Nothing } from '../../ui/ConfirmDialog';
import { liveJoinEffects, type JoinEffects } from './effects';
import { joinDecisionFeedActor } from '../../realtime/joinDecisionFeed';

/** The request the Withdraw dialog acts on. */
interface WithdrawSubject {
  id: number;
  clan_name: string;
}

/**
 * The signed-in user's requests to join (docs/client.md §3; docs/server.md §18), on the profile
 * and the dashboard: each clan with its status ('Request sent: waiting for a manager', 'Approved:
 * you are a member', 'Denied' with the manager's reason, shown as text) and, while pending, Withdraw
 * (a confirm / processing / result modal). Nothing is shown without requests. `onWithdrawn`
 * reloads the user; while a request is pending it is also what a manager's live decision
 * (`join_request_decided`) calls, so the status and the new membership show without a reload.
 */
export function OwnJoinRequests({ requests, effects = liveJoinEffects, onWithdrawn }: { requests: readonly OwnJoinRequest[]; effects?: JoinEffects; onWithdrawn: () => void }) {
  const flow = useConfirmAction<Nothing, WithdrawSubject>({
    closed: { draft: {}, subject: { id: 0, clan_name: '' } },
    perform: async ({ subject }) => {
      await effects.withdraw(subject.id);
      return { message: `Your request to join ${subject.clan_name} was withdrawn.` };
    },
    onSucceeded: onWithdrawn,
  });
  if (requests.length === 0) return null;
  return (
    <div className="own-requests" data-testid="own-join-requests">
      <h3 className="own-requests__title">Requests to join</h3>
      <ul className="own-requests__list">
        {requests.map((r) => (
          <li key={r.id} className="own-requests__item" data-testid={`own-join-request-${r.id}`}>
            <div>
              <strong>{r.clan_name}</strong> <span className="muted">· {JOIN_REQUEST_STATUS_TEXT[r.status]}</span>
              {r.status === 'denied' && r.reason && <p className="own-requests__reason">Reason: {r.reason}</p>}
            </div>
            {r.status === 'pending' && (
              <button type="button" className="btn btn--small" aria-label={`Withdraw request to join ${r.clan_name}`} onClick={() => flow.send({ type: 'confirm.open', subject: { id: r.id, clan_name: r.clan_name } })}>
                Withdraw
              </button>
            )}
          </li>
        ))}
      </ul>
      {requests.some((r) => r.status === 'pending') && <DecisionWatch effects={effects} onDecided={onWithdrawn} />}
      <ConfirmDialog actor={flow} title="Withdraw Request" confirmLabel="Withdraw" processingText="Withdrawing...">
        <WithdrawText actor={flow} />
      </ConfirmDialog>
    </div>
  );
}

/** The withdraw dialog's question, naming the clan. */
function WithdrawText({ actor }: { actor: ConfirmActionRef<Nothing, WithdrawSubject> }) {
  const { clan_name } = useSelector(actor, selectSubject);
  return <p>Withdraw your request to join {clan_name}?</p>;
}

/**
 * Runs the join-decision feed (realtime/joinDecisionFeed.ts) over `effects.openSocket` while it is
 * rendered: only while a request is pending, so no socket is opened for users with nothing waiting.
 */
function DecisionWatch({ effects, onDecided }: { effects: JoinEffects; onDecided: () => void }) {
  const feed = useMemo(() => joinDecisionFeedActor(() => effects.openSocket()), [effects]);
  useActorRef(feed, { input: { deliver: () => onDecided() } });
  return null;
}
