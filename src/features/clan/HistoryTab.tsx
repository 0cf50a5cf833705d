import { useActorRef, useSelector } from '@xstate/react';
import { useId, useMemo, useState } from 'react';
import { fromPromise } from 'xstate';
import { auditLogMachine } from '../../../machines/auditLog.machine';
import {
  canLoadMoreAudit,
  hasAuditFailed,
  hasAuditLoaded,
  isAuditFirstLoad,
  isAuditLoadingMore,
  selectAuditEntries,
  selectAuditError,
} from '../../../machines/auditLog.selectors';
import type { AuditEntry } from '../../../contract/audit';
import { fetchAuditEntries } from '../../api/audit';
import { LoadFailed } from '../../ui/LoadFailed';
import { Notice } from '../../ui/Notice';
import { dateTime } from '../../base/timeFormat';

/** The History tab's one call (docs/server.md §18 "History"); tests give a fake. */
export type LoadAudit = (clanId: number, before?: number) => Promise<AuditEntry[]>;

/** The name an entry's actor shows under: their username, or 'Deleted user' once the account is gone. */
const actorName = (entry: AuditEntry): string => (entry.actor ? entry.actor.username : 'Deleted user');

/** The distinct values of `values`, sorted as text. */
const distinct = (values: string[]): string[] => [...new Set(values)].sort((a, b) => a.localeCompare(b));


/**
 * The clan page's History tab for managers (docs/client.md §5 History; docs/server.md §18
 * "History"): who changed what in the clan, newest first, 100 at a time with 'Load more' for
 * older ones. Each entry shows when, who ('Deleted user' once the account is gone), the action,
 * its target and what changed, all as text (React escapes it; nothing is read as HTML). The rows
 * wrap on a 375 px phone. 'Loading history...' on the first load, 'No history yet.' when empty,
 * the error with Retry when the first load fails, and the error beside the rows when a 'Load
 * more' fails (the button stays to try again). The state is the auditLog chart. Two filters narrow
 * the entries loaded so far to one action and one person (view state only: 'Load more' still
 * pages through every entry; 'No entries match these filters.' when none of the loaded ones do).
 */
export function HistoryTab({ clanId, loadAudit = fetchAuditEntries }: { clanId: number; loadAudit?: LoadAudit }) {
  const logic = useMemo(
    () => auditLogMachine.provide({
      actors: {
        loadAuditEntries: fromPromise(() => loadAudit(clanId)),
        loadMoreAuditEntries: fromPromise<AuditEntry[], number>(({ input }) => loadAudit(clanId, input)),
      },
    }),
    [clanId, loadAudit],
  );
  const log = useActorRef(logic);
  const entries = useSelector(log, selectAuditEntries);
  const error = useSelector(log, selectAuditError);
  const firstLoad = useSelector(log, isAuditFirstLoad);
  const failed = useSelector(log, hasAuditFailed);
  const loaded = useSelector(log, hasAuditLoaded);
  const loadingMore = useSelector(log, isAuditLoadingMore);
  const canLoadMore = useSelector(log, canLoadMoreAudit);
  const [action, setAction] = useState('');
  const [person, setPerson] = useState('');
  const ids = useId();
  const actions = useMemo(() => distinct(entries.map((e) => e.action)), [entries]);
  const people = useMemo(() => distinct(entries.map(actorName)), [entries]);
  const shown = entries.filter((e) => (!action || e.action === action) && (!person || actorName(e) === person));

  return (
    <section className="audit-log" aria-label="History" data-testid="audit-log">
      {firstLoad && <p className="muted">Loading history...</p>}
      {failed && <LoadFailed error={error} onRetry={() => log.send({ type: 'auditLog.reload' })} />}
      {loaded && entries.length === 0 && <p className="muted">No history yet.</p>}
      {loaded && entries.length > 0 && (
        <div className="audit-log__filters" role="group" aria-label="Filter the history">
          <span className="audit-log__filter">
            <label htmlFor={`${ids}-action`}>Action</label>
            <select id={`${ids}-action`} value={action} onChange={(e) => setAction(e.target.value)}>
              <option value="">All actions</option>
              {actions.map((a) => <option key={a} value={a}>{a}</option>)}
            </select>
          </span>
          <span className="audit-log__filter">
            <label htmlFor={`${ids}-person`}>Person</label>
            <select id={`${ids}-person`} value={person} onChange={(e) => setPerson(e.target.value)}>
              <option value="">Everyone</option>
              {people.map((p) => <option key={p} value={p}>{p}</option>)}
            </select>
          </span>
        </div>
      )}
      {loaded && entries.length > 0 && shown.length === 0 && <p className="muted">No entries match these filters.</p>}
      {loaded && shown.length > 0 && (
        <ol className="audit-log__list">
          {shown.map((e) => <AuditRow key={e.id} entry={e} />)}
        </ol>
      )}
      {loaded && error && <Notice tone="error">{error}</Notice>}
      {canLoadMore && (
        <button type="button" className="btn" disabled={loadingMore} aria-busy={loadingMore} onClick={() => log.send({ type: 'auditLog.loadMore' })}>
          {loadingMore ? 'Loading...' : 'Load more'}
        </button>
      )}
    </section>
  );
}

/** One entry: the action and its target, what changed, then when and who. */
function AuditRow({ entry }: { entry: AuditEntry }) {
  return (
    <li className="audit-log__item" data-testid={`audit-entry-${entry.id}`}>
      <div className="audit-log__what">
        <code className="audit-log__action">{entry.action}</code> <strong>{entry.target}</strong>
      </div>
      {entry.detail && <div className="audit-log__detail">{entry.detail}</div>}
      <div className="muted audit-log__meta">
        <time dateTime={entry.at}>{dateTime(entry.at)}</time> · {actorName(entry)}
      </div>
    </li>
  );
}
