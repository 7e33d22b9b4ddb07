import { useSyncExternalStore } from 'react';

interface Clock {
  now: number;
  listeners: Set<() => void>;
  timer: ReturnType<typeof setInterval> | null;
  subscribe(onChange: () => void): () => void;
  snapshot(): number;
}

/** One timer per period for every component showing an age: their "3 s ago" change together. */
const clocks = new Map<number, Clock>();

function clock(periodMs: number): Clock {
  const known = clocks.get(periodMs);
  if (known) return known;
  // subscribe and snapshot are made once per clock: React resubscribes whenever it is handed a new
  // subscribe function, and a resubscription that moved the time on made the component render again,
  // resubscribe again, and so on ("Maximum update depth exceeded" on a dashboard with one ticking age).
  const c: Clock = {
    now: Date.now(),
    listeners: new Set(),
    timer: null,
    subscribe(onChange) {
      c.listeners.add(onChange);
      if (!c.timer) {
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
    snapshot() {
      // Idle (no one listened for a while): catch up once, so a first render is not a period late.
      if (!c.timer && Date.now() - c.now >= periodMs) c.now = Date.now();
      return c.now;
    },
  };
  clocks.set(periodMs, c);
  return c;
}

/**
 * The current time, updated every `periodMs` while a component shows it (the timer runs only while
 * someone listens): ages of readings tick ("3 s ago", "4 s ago") so a user sees data flowing even when
 * the values do not change.
 */
export function useNow(periodMs = 1000): number {
  const c = clock(periodMs);
  return useSyncExternalStore(c.subscribe, c.snapshot, c.snapshot);
}
