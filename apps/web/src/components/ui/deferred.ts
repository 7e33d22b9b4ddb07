import { useEffect, useSyncExternalStore } from 'react';

export interface DeferredModule<T> {
  /** Starts loading (once) and resolves with the module. */
  load(): Promise<T>;
  /** The module if it has loaded. */
  peek(): T | null;
  subscribe(listener: () => void): () => void;
}

/**
 * A module the first screen can do without (a menu's popover machinery, ~20 KB gzipped): it loads just
 * after the first paint (`useDeferredModule`), or at once when `load()` is called because the user
 * reached for it first. Components render a look-alike placeholder until it is there.
 */
export function deferredModule<T>(importer: () => Promise<T>): DeferredModule<T> {
  let value: T | null = null;
  let promise: Promise<T> | null = null;
  const listeners = new Set<() => void>();
  return {
    load() {
      promise ??= importer().then((v) => {
        value = v;
        for (const l of listeners) l();
        return v;
      });
      return promise;
    },
    peek: () => value,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

type IdleWindow = { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number };

/** The deferred module once loaded (null before); asks for it when the browser is next idle. */
export function useDeferredModule<T>(mod: DeferredModule<T>): T | null {
  const value = useSyncExternalStore(mod.subscribe, mod.peek, mod.peek);
  useEffect(() => {
    if (mod.peek()) return;
    const idle = (globalThis as IdleWindow).requestIdleCallback;
    if (idle) idle(() => void mod.load(), { timeout: 1000 });
    else setTimeout(() => void mod.load(), 50);
  }, [mod]);
  return value;
}
