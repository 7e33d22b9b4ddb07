/** What a failed attempt means for the job. */
export type Failure = 'retry' | 'permanent';

export interface RetryQueueOptions<T> {
  /** Channel name in logs and metrics (`push`, `email`). */
  name: string;
  send(job: T): Promise<void>;
  /** How an error is judged: a refused message (bad address, gone subscription) is not tried again. */
  classify(err: unknown): Failure;
  /** Waits between attempts; one attempt more than there are delays. */
  delaysMs: readonly number[];
  /** Sends under way at once. */
  concurrency: number;
  /** Jobs waiting (for a slot or a retry) at most; past it the oldest is dropped, logged and counted. */
  maxQueued: number;
  onOutcome(outcome: 'sent' | 'retry' | 'failed' | 'dropped', job: T, err?: unknown): void;
}

interface Entry<T> {
  job: T;
  attempt: number;
}

/**
 * A channel's deliveries: a few at a time, each failure retried after a growing wait (a mail server
 * restarting, a push service answering 429), bounded so a channel that is down cannot hold memory
 * without limit. Nobody waits on it: the rules hand a delivery over and go on with ingest.
 */
export class RetryQueue<T> {
  private readonly ready: Entry<T>[] = [];
  private readonly waiting = new Set<{ entry: Entry<T>; timer: NodeJS.Timeout }>();
  private running = 0;
  private stopped = false;
  private idle: (() => void)[] = [];

  constructor(private readonly o: RetryQueueOptions<T>) {}

  /** Jobs not yet sent (waiting for a slot or a retry) and under way. */
  get depth(): number {
    return this.ready.length + this.waiting.size + this.running;
  }

  push(job: T): void {
    if (this.stopped) return;
    this.ready.push({ job, attempt: 0 });
    this.bound();
    this.pump();
  }

  /** Resolves when nothing is queued, waiting or under way (tests). */
  drained(): Promise<void> {
    if (this.depth === 0) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }

  /** Drops what waits (a shutdown: held deliveries are not sent later) and stops taking jobs. */
  stop(): number {
    this.stopped = true;
    const dropped = this.ready.length + this.waiting.size;
    for (const w of this.waiting) clearTimeout(w.timer);
    this.waiting.clear();
    this.ready.length = 0;
    this.settle();
    return dropped;
  }

  private bound(): void {
    while (this.ready.length + this.waiting.size > this.o.maxQueued) {
      const oldest = this.ready.shift();
      if (oldest) {
        this.o.onOutcome('dropped', oldest.job);
        continue;
      }
      const w = this.waiting.values().next().value;
      if (!w) break;
      clearTimeout(w.timer);
      this.waiting.delete(w);
      this.o.onOutcome('dropped', w.entry.job);
    }
  }

  private pump(): void {
    while (!this.stopped && this.running < this.o.concurrency && this.ready.length > 0) {
      const entry = this.ready.shift() as Entry<T>;
      this.running++;
      void this.attempt(entry).finally(() => {
        this.running--;
        this.pump();
        this.settle();
      });
    }
  }

  private settle(): void {
    if (this.depth > 0) return;
    const idle = this.idle;
    this.idle = [];
    for (const r of idle) r();
  }

  private async attempt(entry: Entry<T>): Promise<void> {
    try {
      await this.o.send(entry.job);
      this.o.onOutcome('sent', entry.job);
    } catch (err) {
      const delay = this.o.delaysMs[entry.attempt];
      if (this.stopped || this.o.classify(err) === 'permanent' || delay === undefined) {
        this.o.onOutcome('failed', entry.job, err);
        return;
      }
      this.o.onOutcome('retry', entry.job, err);
      const next = { entry: { job: entry.job, attempt: entry.attempt + 1 }, timer: undefined as unknown as NodeJS.Timeout };
      next.timer = setTimeout(() => {
        this.waiting.delete(next);
        if (this.stopped) return;
        this.ready.push(next.entry);
        this.pump();
      }, delay);
      next.timer.unref();
      this.waiting.add(next);
      this.bound();
    }
  }
}
