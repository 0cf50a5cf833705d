/*
 * The service worker of Clan Snakes & Ladders (docs/client.md §3; docs/server.md §20). It shows web
 * pushes and opens their page on a click. It has no fetch handler and caches nothing, so every
 * request goes to the network as without it and a deploy never serves a stale build.
 */

self.addEventListener('install', () => {
  // A new version takes over at once: it holds no cache that an old page could depend on.
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** The push's payload {title, body, url, tag}, or null for one that is not that JSON. */
function payloadOf(event) {
  try {
    const data = event.data ? event.data.json() : null;
    return data && typeof data.title === 'string' ? data : null;
  } catch {
    return null;
  }
}

self.addEventListener('push', (event) => {
  const data = payloadOf(event);
  if (!data) return;
  event.waitUntil(
    self.registration.showNotification(data.title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      icon: '/icons/icon-192.png',
      data: { url: typeof data.url === 'string' ? data.url : '/' },
    }),
  );
});

/** The notification's url as an absolute URL of this site, or null for one elsewhere. */
function sameOriginUrl(url) {
  try {
    const target = new URL(url, self.location.origin);
    return target.origin === self.location.origin ? target.href : null;
  } catch {
    return null;
  }
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = sameOriginUrl(event.notification.data && event.notification.data.url);
  if (!url) return;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => w.url === url);
      if (open) return open.focus();
      const any = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (any && 'navigate' in any) {
        const moved = await any.navigate(url).catch(() => null);
        if (moved) return moved.focus();
      }
      return self.clients.openWindow(url);
    })(),
  );
});
