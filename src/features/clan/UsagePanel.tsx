import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { clanUsageMachine } from '../../../machines/clanUsage.machine';
import { isUsageLoading, selectUsage, selectUsageError } from '../../../machines/clanUsage.selectors';
import { eventsUsageText, isAtQuota, uploadUsageText, type ClanUsage } from '../../../contract/quotas';
import { Notice } from '../../ui/Notice';

/** Texts of the usage lines besides the figures themselves (contract/quotas.ts). */
export const USAGE_TEXTS = {
  title: 'Usage',
  loading: 'Loading usage...',
  refresh: 'Refresh usage',
  refreshing: 'Refreshing usage...',
  retry: 'Retry',
  atQuota: 'The clan is at a limit: a new proof image or event will be refused until something is deleted or an event ends.',
} as const;

/**
 * The managers' quota figures on the clan page (docs/client.md §5; docs/server.md §18 "Quotas"):
 * 'Proof images: 12.3 MiB of 2,048 MiB' and 'Open events: 3 of 50', a warning at a limit, and
 * Refresh; 'Loading usage...' on the first read, the error with Retry when a read fails. The
 * clanUsage chart runs the `loadUsage` call.
 */
export function UsagePanel({ clanId, loadUsage }: { clanId: number; loadUsage: (clanId: number) => Promise<ClanUsage> }) {
  const logic = useMemo(() => clanUsageMachine.provide({ actors: { loadUsage: fromPromise(({ input }) => loadUsage(input.clanId)) } }), [loadUsage]);
  const usage = useActorRef(logic, { input: { clanId } });
  const figures = useSelector(usage, selectUsage);
  const loading = useSelector(usage, isUsageLoading);
  const error = useSelector(usage, selectUsageError);
  const reload = () => usage.send({ type: 'usage.reload' });
  return (
    <section className="clan-usage" aria-label={USAGE_TEXTS.title} data-testid="clan-usage">
      {figures ? (
        <ul className="clan-usage__lines">
          <li data-testid="usage-uploads">{uploadUsageText(figures)}</li>
          <li data-testid="usage-events">{eventsUsageText(figures)}</li>
        </ul>
      ) : (
        loading && <p className="muted">{USAGE_TEXTS.loading}</p>
      )}
      {figures && isAtQuota(figures) && <Notice tone="warning" testId="usage-at-quota">{USAGE_TEXTS.atQuota}</Notice>}
      {error !== null && <Notice tone="error" testId="usage-error">{error}</Notice>}
      {(figures || error !== null) && (
        <button type="button" className="btn btn--small" onClick={reload} disabled={loading}>
          {error !== null ? USAGE_TEXTS.retry : loading ? USAGE_TEXTS.refreshing : USAGE_TEXTS.refresh}
        </button>
      )}
    </section>
  );
}
