import { addLocalDays } from '@phasewatch/shared';

/**
 * Waits, when a local midnight of one of `zones` is less than `marginMs` away, until it has passed.
 *
 * For tests whose server answers "today", "this month", "this year" or the billing period at its own
 * clock (the app has no clock to inject): every such span starts at a local midnight, so once this
 * returns, the server's spans stay those of the test's day for at least `marginMs`. Waits nothing on all
 * but a few moments a day.
 */
export async function clearOfLocalMidnight(zones: readonly string[], marginMs: number): Promise<void> {
  for (;;) {
    const now = Date.now();
    const next = Math.min(...zones.map((tz) => addLocalDays(now, 1, tz)));
    if (next - now >= marginMs) return;
    await new Promise((resolve) => setTimeout(resolve, next - now + 1_000));
  }
}
