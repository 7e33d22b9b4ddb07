/**
 * Gathers what is asked in one turn of the event loop and hands it over together at the next
 * (`setImmediate`): a fleet arriving asks for thousands of devices, keys or alarms at once, and a
 * statement each held the pool's connections from the writes. What is done with a turn's items —
 * one answer per key, duplicates apart, batches of a few hundred — is the caller's.
 */
export class PerTurn<T> {
  private items: T[] | null = null;

  constructor(private readonly flush: (items: T[]) => void) {}

  /** Whether items wait for the next turn. */
  get queued(): boolean {
    return this.items !== null;
  }

  add(item: T): void {
    if (!this.items) {
      const items: T[] = [];
      this.items = items;
      setImmediate(() => {
        this.items = null;
        this.flush(items);
      });
    }
    this.items.push(item);
  }
}
