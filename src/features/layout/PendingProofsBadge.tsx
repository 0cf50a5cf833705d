import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { pendingProofsOf } from '../../../contract/pendingProofs';
import type { Submission } from '../../../contract/submission';
import { pendingProofsMachine } from '../../../machines/pendingProofs.machine';
import { selectPendingTotal, selectReviewClanId } from '../../../machines/pendingProofs.selectors';
import { fetchReviewQueue } from '../../api/submissions';
import { openGameSocket, type GameSocketLike } from '../../realtime/gameSocket';
import { pendingProofsFeedActor } from '../../realtime/reviewFeed';
import { clanManagePath } from '../../base/paths';

/** The effects of the pending-proof count: a clan's referee queue, and the socket. Tests give fakes. */
export interface PendingProofsEffects {
  loadQueue: (clanId: number) => Promise<Submission[]>;
  openSocket: () => GameSocketLike;
}

const LIVE_EFFECTS: PendingProofsEffects = { loadQueue: fetchReviewQueue, openSocket: openGameSocket };

/** The count's accessible name: '1 proof waiting for review', '3 proofs waiting for review'. */
const countName = (count: number) => `${count} proof${count === 1 ? '' : 's'} waiting for review`;

/**
 * The navbar's count of proofs waiting for review (docs/server.md §9), for a manager of
 * `clanIds` (Owner or Admin): the pendingProofs chart, counting every managed clan's queue and
 * following their managers rooms live. Shown while at least one waits, as a link to the Reviews
 * tab of the first clan with one; nothing while none waits or the count failed.
 */
export function PendingProofsBadge({ clanIds, effects = LIVE_EFFECTS }: { clanIds: number[]; effects?: PendingProofsEffects }) {
  const logic = useMemo(
    () =>
      pendingProofsMachine.provide({
        actors: {
          countPending: fromPromise(async ({ input }) =>
            (await Promise.all(input.clanIds.map(async (id) => pendingProofsOf(id, await effects.loadQueue(id))))).flat(),
          ),
          reviewFeed: pendingProofsFeedActor(effects.openSocket),
        },
      }),
    [effects],
  );
  const ref = useActorRef(logic, { input: { clanIds } });
  const total = useSelector(ref, selectPendingTotal);
  const clanId = useSelector(ref, selectReviewClanId);
  if (!total) return null;
  // The name starts with the count it shows (axe label-content-name-mismatch).
  return (
    <Link to={clanManagePath(clanId, { tab: 'reviews' })} className="proof-badge" aria-label={countName(total)} title={countName(total)} data-testid="pending-proofs">
      <svg className="proof-badge__icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
        <path d="M3 2h7l3 3v9H3z" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
        <path d="M5.5 9.5l2 2 3.5-4" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="proof-badge__count">{total}</span>
    </Link>
  );
}
