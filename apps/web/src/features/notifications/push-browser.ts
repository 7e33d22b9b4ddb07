import { getVapidKey } from './api/get-vapid-key';
import { deleteSubscription, saveSubscription } from './api/push-subscription';

/**
 * Web Push in this browser: the app's service worker (`/sw.js`, built from src/sw/service-worker.ts)
 * receives the server's messages and shows them; this module subscribes and unsubscribes the browser
 * and tells the server. A subscription belongs to the server's VAPID key: one made with another key
 * (the server's keys changed) is replaced.
 */

export type PushState = 'unsupported' | 'denied' | 'subscribed' | 'unsubscribed';

const SW_URL = '/sw.js';

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a) return false;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  return navigator.serviceWorker.getRegistration('/');
}

/** This browser's state: push unavailable, notifications blocked, or (un)subscribed. */
export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const sub = await (await registration())?.pushManager.getSubscription();
  return sub ? 'subscribed' : 'unsubscribed';
}

function toRequest(sub: PushSubscription) {
  const json = sub.toJSON();
  return { endpoint: sub.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } };
}

/** Asks for permission, subscribes this browser with the server's key and registers it for the signed-in user. */
export async function subscribePush(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'unsubscribed';
  const reg = await navigator.serviceWorker.register(SW_URL, { scope: '/' });
  await navigator.serviceWorker.ready;
  const key = keyBytes(await getVapidKey());
  let sub = await reg.pushManager.getSubscription();
  if (sub && !sameKey(sub.options.applicationServerKey, key)) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await saveSubscription(toRequest(sub));
  return 'subscribed';
}

/** Stops pushes to this browser: the server forgets it and the browser drops the subscription. */
export async function unsubscribePush(): Promise<PushState> {
  const sub = pushSupported() ? await (await registration())?.pushManager.getSubscription() : null;
  if (sub) {
    await deleteSubscription(sub.endpoint).catch(() => {});
    await sub.unsubscribe();
  }
  return pushSupported() ? 'unsubscribed' : 'unsupported';
}

/**
 * Tells the server this browser's subscription again (signed in anew, another user on this browser, the
 * push service renewed the endpoint): an upsert, so repeating it is harmless. Only when one exists.
 */
export async function resyncPush(): Promise<void> {
  if (!pushSupported() || Notification.permission !== 'granted') return;
  const sub = await (await registration())?.pushManager.getSubscription();
  if (sub) await saveSubscription(toRequest(sub));
}

/** At sign-out: the next person on this browser must not get this user's alarms (bounded: sign-out never waits long). */
export async function forgetPushOnSignOut(): Promise<void> {
  if (!pushSupported()) return;
  await Promise.race([unsubscribePush().catch(() => {}), new Promise((r) => setTimeout(r, 3000))]);
}
