/**
 * The app's service worker (`/sw.js`, built by build/service-worker.ts): shows the server's Web Push
 * messages as notifications and opens the notification centre on a click. Self-contained (no imports):
 * it is built as one classic script.
 */

/** What the server's push message carries (apps/server/src/modules/notifications/channels/push.channel.ts). */
interface PushMessage {
  title?: string;
  body?: string;
  url?: string;
  tag?: string;
}

// The service worker scope's types (WebWorker lib), as far as used here: the app's own files use the DOM lib.
interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  readonly data: { json(): unknown; text(): string } | null;
}
interface ClickEvent extends ExtendableEvent {
  readonly notification: Notification;
}
interface WindowClient {
  readonly url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface ServiceWorkerScope {
  readonly location: Location;
  readonly registration: ServiceWorkerRegistration;
  readonly clients: {
    claim(): Promise<void>;
    matchAll(o: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', fn: (e: ExtendableEvent) => void): void;
  addEventListener(type: 'push', fn: (e: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', fn: (e: ClickEvent) => void): void;
}

const sw = self as unknown as ServiceWorkerScope;

sw.addEventListener('install', (e) => e.waitUntil(sw.skipWaiting()));
sw.addEventListener('activate', (e) => e.waitUntil(sw.clients.claim()));

sw.addEventListener('push', (e) => {
  let msg: PushMessage = {};
  try {
    msg = (e.data?.json() ?? {}) as PushMessage;
  } catch {
    msg = { body: e.data?.text() ?? '' };
  }
  e.waitUntil(
    sw.registration.showNotification(msg.title || 'Phasewatch', {
      body: msg.body ?? '',
      icon: '/favicon.svg',
      badge: '/favicon.svg',
      // A newer alarm of the same device and kind replaces the older one on screen.
      ...(msg.tag ? { tag: msg.tag } : {}),
      data: { url: msg.url ?? '/notifications' },
    }),
  );
});

sw.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const data = e.notification.data as { url?: string } | null;
  // Only the app's own pages: a message cannot send the user elsewhere.
  const target = new URL(data?.url ?? '/notifications', sw.location.origin);
  const url = target.origin === sw.location.origin ? target.href : new URL('/notifications', sw.location.origin).href;
  e.waitUntil(
    sw.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const open = windows.find((w) => new URL(w.url).origin === sw.location.origin);
      if (open) {
        await open.focus();
        await open.navigate(url);
        return;
      }
      await sw.clients.openWindow(url);
    }),
  );
});

export {};
