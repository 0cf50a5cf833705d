import { formatAmount, progressCount, progressLabel, progressShare, type TeamProgress } from '../../../contract/progress';

/**
 * A team total as a bar (docs/server.md §17 'Progress and Dink totals'): `have` / `need` in its
 * unit, the filled share as a native <progress> (read by screen readers), each player's share
 * and, for a Wise Old Man total, each IGN that could not be counted with why. Every text is
 * rendered as text (names come from players). `compact` leaves out the shares and errors (a
 * narrow list). Fits a 375 px wide phone: the line wraps, the bar takes the width given.
 * One component for Team Positions (members and spectators) and the team's task card; the board's
 * square draws its own thin frame (src/features/board/ProgressMark.tsx) with the same texts
 * (contract/progress.ts progressCount, progressLabel).
 */
export function ProgressBar({ progress, teamName, compact = false }: { progress: TeamProgress; teamName: string; compact?: boolean }) {
  const label = progressCount(progress);
  return (
    <div className={compact ? 'team-progress team-progress--compact' : 'team-progress'} data-testid="team-progress" data-have={progress.have} data-need={progress.need}>
      <progress className="team-progress__bar" max={progress.need} value={Math.min(progress.have, progress.need)} aria-label={progressLabel(teamName, progress)} data-share={progressShare(progress)} />
      <span className="team-progress__count">{label}</span>
      {!compact && progress.by.length > 0 && (
        <ul className="team-progress__shares" aria-label={`${teamName}: each player's share`}>
          {progress.by.map((s) => (
            <li key={s.ign} data-testid="team-progress-share">
              {s.ign} {formatAmount(s.amount)}
            </li>
          ))}
        </ul>
      )}
      {!compact && progress.errors.length > 0 && (
        <ul className="team-progress__errors" aria-label={`${teamName}: not counted`}>
          {progress.errors.map((e) => (
            <li key={e.ign} data-testid="team-progress-error">
              {e.ign}: {e.error}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
