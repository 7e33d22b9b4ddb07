import type { FastifyInstance } from 'fastify';
import type { BaseContext } from '../context.js';
import { JobQueue } from './job-queue.js';
import type { JobKinds } from './kinds.js';
import { JobPool, jobTarget } from './pool.js';

/**
 * The app's job facility, owned by no feature: the queue (stored jobs, `JOB_CONCURRENCY` at once, a limit
 * per user) and the worker threads their reading and rendering run on. Features hand it their kinds (module
 * URLs) at wiring and register their queues' handlers on `queue`.
 */
export interface Jobs {
  queue: JobQueue;
  /** The worker threads the jobs' reading and rendering run on (`JOB_CONCURRENCY` of them). */
  pool: JobPool;
}

/**
 * Builds the queue and the pool (the threads start with the first job, then stay, waiting: an instance that
 * never runs one pays nothing); the queue's workers start when the app is ready and stop before storage
 * closes (a running job goes back to the queue), the threads after their jobs went back.
 */
export function createJobs(app: FastifyInstance, base: BaseContext, kinds: JobKinds): Jobs {
  const queue = new JobQueue(base.storage.db, {
    concurrency: base.config.jobConcurrency,
    maxQueued: base.config.jobQueueLimit,
    // One user cannot take the whole queue: a quarter of it each, so others still get theirs started.
    maxPerUser: Math.max(1, Math.ceil(base.config.jobQueueLimit / 4)),
    // A job of an instance that died is taken over by another one this long after its last heartbeat.
    leaseMs: base.config.jobLeaseMs,
    log: app.log.child({ module: 'jobs' }),
  });
  base.metrics.watch({ jobQueues: () => queue.queueDepths() });
  // One thread per job the queue runs at once: a claimed job starts on an idle thread without waiting for one.
  const pool = new JobPool({
    size: base.config.jobConcurrency,
    target: jobTarget(base.storage),
    rules: { jitterRatio: base.config.energyJitterRatio, gapLimitMs: base.config.energyGapLimitMs },
    maxOldGenerationSizeMb: base.config.jobWorkerMemoryMb,
    log: app.log.child({ module: 'job-pool' }),
    kinds,
  });
  app.addHook('onReady', async () => queue.start());
  app.addHook('preClose', async () => {
    await queue.stop();
    await pool.close();
  });
  return { queue, pool };
}
