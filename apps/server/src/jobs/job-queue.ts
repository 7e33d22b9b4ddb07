import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, JobRow } from '../storage/schema.js';

/** A claimed job as its handler sees it. */
export interface RunningJob<P> {
  id: string;
  userId: number;
  payload: P;
  /** 1 on the first run; more after an instance running it died. */
  attempt: number;
}

export interface JobContext {
  /** Reports progress (0…1); stored at most every half second. Throws when the claim was lost. */
  progress(fraction: number): Promise<void>;
  /** Aborted when the server stops or the claim was lost: the handler stops and its work is redone later. */
  signal: AbortSignal;
}

export interface JobHandler<P, R> {
  /** Does the work; resolves with a result stored as JSON, or throws (the job fails with the error's text). */
  run(job: RunningJob<P>, ctx: JobContext): Promise<R>;
  /** Removes what an interrupted run left (called before a job runs again). */
  reset?(jobId: string): Promise<void>;
  /** After the job is stored as done or failed (tells the user). */
  finished?(job: JobRow): void;
  /** How long a done or failed job is kept (then `expire` and the row are deleted). */
  keepMs: number;
}

export interface JobQueueOptions {
  /** Jobs this instance runs at once; 0: none (an instance that only takes requests). */
  concurrency: number;
  /** Unfinished jobs (queued or running) of a queue on every instance, past which `enqueue` refuses. */
  maxQueued: number;
  /** Unfinished jobs of one user in a queue, past which `enqueue` refuses. */
  maxPerUser: number;
  /** How often idle workers look for jobs queued by other instances. */
  pollMs?: number;
  /** A claim without a heartbeat for this long is taken over (its instance died). */
  leaseMs?: number;
  /** Runs before a job that keeps being interrupted fails. */
  maxAttempts?: number;
  log: FastifyBaseLogger;
  now?: () => number;
}

/** Thrown by `enqueue` when the queue or the user's share of it is full. */
export class QueueFullError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('queue full');
  }
}

class LostClaim extends Error {
  constructor() {
    super('claim lost');
  }
}

/**
 * One small stored queue for background work (exports; later reports). Jobs are rows of `jobs`:
 * enqueued as `queued`, claimed by one instance with a conditional update (`queued` → `running`, or a
 * `running` one whose lease ran out), kept claimed by a heartbeat, then `done` or `failed`. So a job runs
 * once with several instances on one PostgreSQL, a queued job survives a restart, a job whose instance
 * died is taken over after its lease, and one interrupted by a stop is handed back to the queue.
 */
export class JobQueue {
  private readonly handlers = new Map<string, JobHandler<unknown, unknown>>();
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly instanceId = `${os.hostname().slice(0, 30)}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private stopped = true;
  private polling: Promise<void> | null = null;
  private pollAgain = false;
  private depths: Record<string, number> = {};
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly opts: JobQueueOptions,
  ) {
    this.pollMs = opts.pollMs ?? 2000;
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.maxAttempts = opts.maxAttempts ?? 3;
    this.now = opts.now ?? Date.now;
  }

  register<P, R>(queue: string, handler: JobHandler<P, R>): void {
    this.handlers.set(queue, handler as JobHandler<unknown, unknown>);
    this.depths[queue] ??= 0;
  }

  /** Jobs waiting per queue, as last counted (the `phasewatch_job_queue_depth` metric). */
  queueDepths(): Record<string, number> {
    return { ...this.depths };
  }

  /**
   * Stores a job as queued and wakes a worker; refuses with `QueueFullError` when the queue (all
   * instances) or the user's share of it is full.
   */
  async enqueue(queue: string, userId: number, payload: unknown): Promise<JobRow> {
    const unfinished = await this.db
      .selectFrom('jobs')
      .select((eb) => [
        eb.fn.countAll<number>().as('all'),
        eb.fn.sum<number>(eb.case().when('user_id', '=', userId).then(1).else(0).end()).as('mine'),
      ])
      .where('queue', '=', queue)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    const all = Number(unfinished?.all ?? 0);
    const mine = Number(unfinished?.mine ?? 0);
    if (all >= this.opts.maxQueued || mine >= this.opts.maxPerUser) {
      // About as long as a job takes to start: the queue drains one job per worker at a time.
      throw new QueueFullError(Math.min(300, 15 * Math.max(1, all - this.opts.maxQueued + 2)));
    }
    const row = {
      id: randomUUID(),
      queue,
      user_id: userId,
      payload: JSON.stringify(payload),
      status: 'queued' as const,
      created_at: this.now(),
    };
    await this.db.insertInto('jobs').values(row).execute();
    this.depths[queue] = (this.depths[queue] ?? 0) + 1;
    this.wake();
    // As stored (a worker may claim it before a read-back would see it queued).
    return {
      ...row,
      progress: 0,
      attempts: 0,
      claimed_by: null,
      lease_until: null,
      started_at: null,
      finished_at: null,
      expires_at: null,
      error: null,
      result: null,
    };
  }

  get(id: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Starts the workers (nothing when concurrency is 0) and the sweep of expired jobs. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const tick = () => {
      this.wake();
      this.timer = setTimeout(tick, this.pollMs);
      this.timer.unref();
    };
    tick();
    const sweep = () => {
      this.sweep().catch((err) => this.opts.log.warn({ err }, 'job sweep failed'));
    };
    this.sweepTimer = setInterval(sweep, 10 * 60_000);
    this.sweepTimer.unref();
    sweep();
  }

  /**
   * Stops taking jobs, aborts the running ones and hands them back to the queue (another instance, or
   * this one after a restart, runs them again from the start).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const r of this.running.values()) r.abort.abort();
    await this.polling;
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  /** Looks for work now (after an enqueue, and every `pollMs`). */
  wake(): void {
    if (this.stopped) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = this.poll()
      .catch((err) => this.opts.log.warn({ err }, 'job poll failed'))
      .finally(() => {
        this.polling = null;
        if (this.pollAgain) {
          this.pollAgain = false;
          this.wake();
        }
      });
  }

  private async poll(): Promise<void> {
    await this.countDepths();
    const queues = [...this.handlers.keys()];
    if (queues.length === 0) return;
    while (!this.stopped && this.running.size < this.opts.concurrency) {
      const now = this.now();
      const candidates = await this.db
        .selectFrom('jobs')
        .select(['id', 'status', 'attempts'])
        .where('queue', 'in', queues)
        .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)])]))
        .orderBy('created_at')
        .limit(4)
        .execute();
      if (candidates.length === 0) return;
      let claimed: JobRow | undefined;
      for (const c of candidates) {
        claimed = await this.claim(c.id, now);
        if (claimed) break;
      }
      if (!claimed) continue;
      this.launch(claimed);
    }
  }

  /** The conditional update that makes one instance the job's runner; undefined when another got it. */
  private async claim(id: string, now: number): Promise<JobRow | undefined> {
    const res = await this.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        claimed_by: this.instanceId,
        lease_until: now + this.leaseMs,
        started_at: now,
        progress: 0,
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', '=', id)
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)])]))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return undefined;
    return this.get(id);
  }

  private launch(row: JobRow): void {
    const abort = new AbortController();
    const entry = { abort, done: Promise.resolve() };
    this.running.set(row.id, entry);
    entry.done = this.runJob(row, abort).finally(() => {
      this.running.delete(row.id);
      this.wake();
    });
  }

  private async runJob(row: JobRow, abort: AbortController): Promise<void> {
    const handler = this.handlers.get(row.queue);
    if (!handler) return;
    const log = this.opts.log.child({ job: row.id, queue: row.queue });
    // Updates of a job this instance still holds (another may have taken it over after a lost lease).
    const own = () =>
      this.db.updateTable('jobs').where('id', '=', row.id).where('claimed_by', '=', this.instanceId).where('status', '=', 'running');
    let lost = false;
    const heartbeat = setInterval(
      () => {
        own()
          .set({ lease_until: this.now() + this.leaseMs })
          .executeTakeFirst()
          .then((r) => {
            if (Number(r.numUpdatedRows) === 0) {
              lost = true;
              abort.abort();
            }
          })
          .catch((err) => log.warn({ err }, 'job heartbeat failed'));
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    heartbeat.unref();
    let lastProgress = 0;
    const ctx: JobContext = {
      signal: abort.signal,
      progress: async (fraction) => {
        if (abort.signal.aborted) throw lost ? new LostClaim() : abort.signal.reason;
        const t = this.now();
        if (t - lastProgress < 500 && fraction < 1) return;
        lastProgress = t;
        await own()
          .set({ progress: Math.max(0, Math.min(1, fraction)) })
          .execute();
      },
    };
    try {
      if (row.attempts > this.maxAttempts) throw new Error(`interrupted ${row.attempts - 1} times`);
      if (row.attempts > 1) await handler.reset?.(row.id);
      const result = await handler.run({ id: row.id, userId: row.user_id, payload: JSON.parse(row.payload), attempt: row.attempts }, ctx);
      const now = this.now();
      const done = await own()
        .set({
          status: 'done',
          progress: 1,
          finished_at: now,
          expires_at: now + handler.keepMs,
          result: JSON.stringify(result ?? null),
          claimed_by: null,
          lease_until: null,
        })
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 1) this.announce(handler, row.id);
    } catch (err) {
      if (abort.signal.aborted) {
        if (!lost) {
          // Stopping: its partial output removed, back to the queue for whoever runs next.
          await handler.reset?.(row.id).catch(() => {});
          await own()
            .set((eb) => ({ status: 'queued', claimed_by: null, lease_until: null, progress: 0, attempts: eb('attempts', '-', 1) }))
            .execute()
            .catch((e) => log.warn({ err: e }, 'could not hand a job back'));
        }
        return;
      }
      log.warn({ err }, 'job failed');
      const now = this.now();
      await own()
        .set({
          status: 'failed',
          finished_at: now,
          expires_at: now + handler.keepMs,
          error: (err instanceof Error ? err.message : String(err)).slice(0, 500),
          claimed_by: null,
          lease_until: null,
        })
        .execute();
      await handler.reset?.(row.id).catch(() => {});
      this.announce(handler, row.id);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private announce(handler: JobHandler<unknown, unknown>, id: string): void {
    void this.get(id).then(
      (row) => row && handler.finished?.(row),
      () => {},
    );
  }

  private async countDepths(): Promise<void> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['queue', (eb) => eb.fn.countAll<number>().as('n')])
      .where('status', '=', 'queued')
      .groupBy('queue')
      .execute();
    const out: Record<string, number> = {};
    for (const q of this.handlers.keys()) out[q] = 0;
    for (const r of rows) out[r.queue] = Number(r.n);
    this.depths = out;
  }

  /** Deletes done and failed jobs past their time (their files go with them). */
  async sweep(now = this.now()): Promise<number> {
    const res = await this.db.deleteFrom('jobs').where('status', 'in', ['done', 'failed']).where('expires_at', '<', now).executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  /** Waits until no job of this instance runs and none is queued (tests). */
  async idle(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.polling;
      const queued = await this.db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      if (this.running.size === 0 && Number(queued?.n ?? 0) === 0) return;
      if (Date.now() > deadline) throw new Error('jobs still unfinished');
      await new Promise((r) => setTimeout(r, 25));
      this.wake();
    }
  }
}
