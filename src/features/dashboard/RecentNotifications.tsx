import { useActorRef } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { Link } from 'react-router-dom';
import { fromPromise } from 'xstate';
import type { RecentNotification } from '../../../contract/push';
import { recentNotificationsMachine } from '../../../machines/recentNotifications.machine';
import {
  selectRecentNotifications,
  selectRecentNotificationsError,
  selectRecentNotificationsLoading,
} from '../../../machines/recentNotifications.selectors';
import { LoadFailed } from '../../ui/LoadFailed';
import { dateTime } from '../../base/timeFormat';
import { useSelectors } from '../../base/useSelectors';

/** The widget's own words (docs/client.md §1). */
export const RECENT_NOTIFICATIONS_TEXTS = {
  title: 'Notifications',
  intro: 'What the site would tell you by push: reviews of your proof, your rolls, proof to review and your picks.',
  loading: 'Loading your notifications...',
  none: 'Nothing yet.',
} as const;

/** Only a path of this site becomes a link (the server only records such; anything else stays text). */
const isSitePath = (url: string) => url.startsWith('/') && !url.startsWith('//');

/**
 * The dashboard's Notifications widget (docs/client.md §1; docs/server.md §20 "In the page"), for
 * every signed-in user: the latest notifications the pushes carry (proof approved or denied for
 * their team, their team may roll, proof waiting for review in a clan they manage, their draft
 * pick), newest first, each with its title and text as text and a link to its page, whether or not
 * push is on in this browser. Loaded by the recentNotifications chart with `loadNotifications`;
 * read again every 30 s and when the window regains focus. A failed first load says so with Retry.
 */
export function RecentNotifications({ loadNotifications }: { loadNotifications: () => Promise<RecentNotification[]> }) {
  const logic = useMemo(() => recentNotificationsMachine.provide({ actors: { loadNotifications: fromPromise(() => loadNotifications()) } }), [loadNotifications]);
  const ref = useActorRef(logic);
  const { items, loading, error } = useSelectors(ref, {
    items: selectRecentNotifications,
    loading: selectRecentNotificationsLoading,
    error: selectRecentNotificationsError,
  });
  useEffect(() => {
    const again = () => ref.send({ type: 'notifications.reload' });
    window.addEventListener('focus', again);
    return () => window.removeEventListener('focus', again);
  }, [ref]);
  return (
    <article className="widget panel" data-testid="recent-notifications">
      <h2>{RECENT_NOTIFICATIONS_TEXTS.title}</h2>
      <p>{RECENT_NOTIFICATIONS_TEXTS.intro}</p>
      {loading ? (
        <p className="muted my-games__note">{RECENT_NOTIFICATIONS_TEXTS.loading}</p>
      ) : error && items.length === 0 ? (
        <LoadFailed error={error} onRetry={() => ref.send({ type: 'notifications.reload' })} />
      ) : items.length === 0 ? (
        <p className="muted my-games__note">{RECENT_NOTIFICATIONS_TEXTS.none}</p>
      ) : (
        <ul className="recent-notifications">
          {items.map((n) => (
            <li key={n.id} className="recent-notifications__item">
              {isSitePath(n.url) ? (
                <Link className="recent-notifications__title" to={n.url}>{n.title}</Link>
              ) : (
                <span className="recent-notifications__title">{n.title}</span>
              )}
              <span className="recent-notifications__body">{n.body}</span>
              <time className="muted recent-notifications__time" dateTime={n.created_at}>{dateTime(n.created_at)}</time>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
