import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { progressCheckMachine, type ProgressCheckOutcome } from '../../../machines/progressCheck.machine';
import { isCheckAsking, selectCheckError, selectCheckRefusal, selectCheckWaitLeft } from '../../../machines/progressCheck.selectors';
import { logTime } from '../../base/timeFormat';
import { Notice } from '../../ui/Notice';
import { PROGRESS_CHECK_TEXTS as T } from './progressCheckTexts';

/**
 * 'Check now' on a team's Wise Old Man total (docs/client.md §9; docs/server.md §17), on the team's
 * task card and, for a manager of the clan, under another team's bar in Team Positions: the time of the last check (`checkedAt`, ISO: the progress's `updated_at`), the button
 * (disabled while it asks and with the minutes and seconds left while the 5-minute wait runs), the
 * server's refusal or the note that the check was asked, and a failure's text. The progressCheck
 * chart runs here with `check` (the team's ask, resolving with the wait; raises an Error with the
 * server's text). The IGNs the check could not count are listed by the team's bar (ProgressBar), not
 * again here. Every text is rendered as text; the row wraps on a 375 px screen.
 */
export function ProgressCheck({ teamId, teamName, checkedAt, check }: { teamId: number; teamName: string; checkedAt: string; check: (teamId: number) => Promise<ProgressCheckOutcome> }) {
  const ref = useActorRef(progressCheckMachine.provide({ actors: { checkProgress: fromPromise(({ input }) => check(input.teamId)) } }), { input: { teamId } });
  const asking = useSelector(ref, isCheckAsking);
  const waitLeft = useSelector(ref, selectCheckWaitLeft);
  const refusal = useSelector(ref, selectCheckRefusal);
  const error = useSelector(ref, selectCheckError);
  const label = asking ? T.asking : waitLeft !== null ? T.waiting(waitLeft) : T.check;
  return (
    <div className="progress-check" data-testid="progress-check">
      <p className="progress-check__row">
        <button
          type="button"
          className="btn btn--small"
          data-testid="progress-check-button"
          aria-label={`${label} (${teamName})`}
          disabled={asking || waitLeft !== null}
          onClick={() => ref.send({ type: 'progress.check' })}
        >
          {label}
        </button>{' '}
        <span className="muted" data-testid="progress-checked-at">
          {T.lastChecked} <time dateTime={checkedAt}>{logTime(checkedAt)}</time>
        </span>
      </p>
      <p className="progress-check__note muted" role="status" data-testid="progress-check-note">
        {waitLeft === null ? '' : (refusal ?? T.asked)}
      </p>
      {error && (
        <Notice tone="error" testId="progress-check-error">
          {error}
        </Notice>
      )}
    </div>
  );
}
