export type PrefetchModule = typeof import('./prefetch-device-page');

let loaded: PrefetchModule | null = null;

/**
 * The device page's prefetch code: a small chunk of its own, not the dashboard's JavaScript. The
 * dashboard loads it while idle; from then on a device route's loader calls it synchronously
 * (`devicePrefetchLoaded`): even an import() of a loaded module resolves a task later in Chromium, after
 * the render of the navigation has begun, and the page's requests went out ~60 ms late.
 */
export function loadDevicePrefetch(): Promise<PrefetchModule> {
  return import('./prefetch-device-page').then((m) => {
    loaded = m;
    return m;
  });
}

/** The prefetch module once loaded, else null. */
export function devicePrefetchLoaded(): PrefetchModule | null {
  return loaded;
}
