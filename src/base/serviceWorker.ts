/** The service worker's script (public/sw.js): shows pushes, opens their page on a click; it caches nothing. */
export const SERVICE_WORKER_URL = '/sw.js';

/** True when this browser can take web push: a service worker, the Push API and notifications. */
export function pushSupported(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && typeof window !== 'undefined' && 'PushManager' in window && 'Notification' in window;
}

/**
 * Registers the service worker once the page has loaded (docs/client.md §3), so it never competes
 * with the first drawing. A browser without service workers, or a failed registration, changes
 * nothing else: the app works without it.
 */
export function registerServiceWorkerAfterLoad(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register(SERVICE_WORKER_URL).catch(() => {});
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
