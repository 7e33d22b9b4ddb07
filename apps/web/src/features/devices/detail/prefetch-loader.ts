import type { DeviceKind } from '@phasewatch/shared';
import type { QueryClient } from '@tanstack/react-query';
import { authStore } from '@/lib/auth-store';
import { deviceQueryOptions, knownDevice } from '../api/get-device';

export type PrefetchModule = typeof import('./prefetch-device-page');

let loaded: PrefetchModule | null = null;

/**
 * The device page's prefetch code: a small chunk of its own, not the dashboard's JavaScript. The
 * dashboard loads it while idle; from then on a device route's loader calls it synchronously
 * (`prefetchDeviceRoute`): even an import() of a loaded module resolves a task later in Chromium, after
 * the render of the navigation has begun, and the page's requests went out ~60 ms late.
 */
export function loadDevicePrefetch(): Promise<PrefetchModule> {
  return import('./prefetch-device-page').then((m) => {
    loaded = m;
    return m;
  });
}

let deferred: { deviceId: number; run: () => void } | null = null;

/**
 * A device page reached by its address (a reload, a typed or shared link): its route asks for the
 * device at once and leaves the rest of the page's prefetch (its data, the chart code) to the page,
 * which starts it once its heading — the largest text, what a phone shows first — has painted. Before,
 * that work ran on the main thread and the network beside the heading and held it up by seconds on a
 * phone (Lighthouse's mobile LCP). Only the last page's is kept.
 */
export function deferDevicePrefetch(deviceId: number, run: () => void): void {
  deferred = { deviceId, run };
}

/** Starts the prefetch a device page's route left to it (once), if it left one. */
export function runDeferredDevicePrefetch(deviceId: number): void {
  if (deferred?.deviceId !== deviceId) return;
  const { run } = deferred;
  deferred = null;
  run();
}

/**
 * A device route's loader: starts the page's first requests (the device, the first charts' readings) as the
 * route matches, beside the page's chunk and first render rather than after them; the page's queries find
 * the answers in the cache. A device known already (from the dashboard's list) gets everything at once; one
 * reached by its address is asked for alone, the rest once the page's heading has painted
 * (`deferDevicePrefetch`).
 */
export function prefetchDeviceRoute(client: QueryClient, kind: DeviceKind, deviceId: number, search: URLSearchParams): void {
  const run = (m: PrefetchModule) => m.prefetchDevicePage(client, kind, deviceId, search);
  if (!knownDevice(client, deviceId)) {
    if (authStore.getToken() && Number.isInteger(deviceId) && deviceId > 0)
      void client.prefetchQuery(deviceQueryOptions(deviceId)).catch(() => {});
    deferDevicePrefetch(deviceId, () => (loaded ? run(loaded) : void loadDevicePrefetch().then(run, () => {})));
  } else if (loaded) {
    try {
      run(loaded);
    } catch {
      // The page asks for what it needs itself.
    }
  } else {
    loadDevicePrefetch().then(run, () => {});
  }
}
