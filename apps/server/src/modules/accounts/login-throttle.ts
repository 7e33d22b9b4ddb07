/**
 * Counts failed sign-ins per key (address + email) in a sliding window; past the limit the key is
 * blocked until the oldest failure leaves the window. In memory: per instance, bounded in size.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();
  private static readonly MAX_KEYS = 100_000;

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
  ) {}

  /** Milliseconds until the key may try again; 0 when it may try now. */
  blockedFor(key: string, now = Date.now()): number {
    const list = this.recent(key, now);
    if (list.length < this.maxFailures) return 0;
    return (list[0] ?? now) + this.windowMs - now;
  }

  fail(key: string, now = Date.now()): void {
    const list = this.recent(key, now);
    list.push(now);
    this.failures.set(key, list);
    if (this.failures.size > LoginThrottle.MAX_KEYS) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (list.length === 0) this.failures.delete(key);
    return list;
  }
}
