import { useSyncExternalStore } from 'react';

/** One timer per period for every component showing an age: their "3 s ago" change together. */
const clocks = new Map<number, { now: number; listeners: Set<() => void>; timer: ReturnType<typeof setInterval> | null }>();

function clock(periodMs: number) {
  let c = clocks.get(periodMs);
  if (!c) {
    c = { now: Date.now(), listeners: new Set(), timer: null };
    clocks.set(periodMs, c);
  }
  return c;
}

/**
 * The current time, updated every `periodMs` while a component shows it (the timer runs only while
 * someone listens): ages of readings tick ("3 s ago", "4 s ago") so a user sees data flowing even when
 * the values do not change.
 */
export function useNow(periodMs = 1000): number {
  const c = clock(periodMs);
  return useSyncExternalStore(
    (onChange) => {
      c.listeners.add(onChange);
      if (!c.timer) {
        c.now = Date.now();
        c.timer = setInterval(() => {
          c.now = Date.now();
          for (const l of c.listeners) l();
        }, periodMs);
      }
      return () => {
        c.listeners.delete(onChange);
        if (c.listeners.size === 0 && c.timer) {
          clearInterval(c.timer);
          c.timer = null;
        }
      };
    },
    () => {
      // Idle (no one listened for a while): catch up once, so a first render is not a period late.
      if (!c.timer && Date.now() - c.now >= periodMs) c.now = Date.now();
      return c.now;
    },
  );
}
