import type { FastifyInstance } from 'fastify';
import type { BaseContext } from '../../context.js';
import { JobQueue } from '../../jobs/job-queue.js';
import { JobPool, jobTarget } from '../../jobs/pool.js';
import type { Realtime } from '../../realtime/index.js';
import { ComparisonsRepository } from '../comparisons/comparisons.repository.js';
import { comparisonsRoutes } from '../comparisons/comparisons.routes.js';
import { ComparisonsService } from '../comparisons/comparisons.service.js';
import { DevicesRepository } from '../devices/devices.repository.js';
import { ExportsRepository } from '../exports/exports.repository.js';
import { exportsRoutes } from '../exports/exports.routes.js';
import { ExportsService, type ReportExtras } from '../exports/exports.service.js';
import type { Telemetry } from '../telemetry.js';
import { analyticsRoutes } from './analytics.routes.js';
import { AnalyticsService } from './analytics.service.js';

/** Heatmaps and tables, saved comparisons, and exports with the job queue they run on. */
export interface Analytics {
  analytics: AnalyticsService;
  comparisons: ComparisonsService;
  exports: ExportsService;
  jobs: JobQueue;
  /** The worker threads the jobs' reading and rendering run on (`JOB_CONCURRENCY` of them). */
  pool: JobPool;
}

/**
 * Registers the analytics, comparisons and exports routes under /api and starts the job queue's workers
 * (stopped before storage closes: a running export goes back to the queue). `extras` adds a report's
 * location and tariff costs once those modules exist.
 */
export async function createAnalytics(
  app: FastifyInstance,
  base: BaseContext,
  telemetry: Telemetry,
  realtime: Realtime,
  extras?: ReportExtras,
): Promise<Analytics> {
  const devices = new DevicesRepository(base.storage.db, base.storage.dialect);
  const jobs = new JobQueue(base.storage.db, {
    concurrency: base.config.jobConcurrency,
    maxQueued: base.config.jobQueueLimit,
    // One user cannot take the whole queue: a quarter of it each, so others still get theirs started.
    maxPerUser: Math.max(1, Math.ceil(base.config.jobQueueLimit / 4)),
    log: app.log.child({ module: 'jobs' }),
  });
  base.metrics.watch({ jobQueues: () => jobs.queueDepths() });
  // One thread per job the queue runs at once: a claimed job starts on an idle thread without waiting for one.
  const pool = new JobPool({
    size: base.config.jobConcurrency,
    target: jobTarget(base.storage),
    rules: { jitterRatio: base.config.energyJitterRatio, gapLimitMs: base.config.energyGapLimitMs },
    maxOldGenerationSizeMb: base.config.jobWorkerMemoryMb,
    log: app.log.child({ module: 'job-pool' }),
  });
  const analytics = new AnalyticsService(devices, telemetry.readings);
  const comparisons = new ComparisonsService(new ComparisonsRepository(base.storage.db), devices);
  const exports = new ExportsService({
    repo: new ExportsRepository(base.storage.db),
    devices,
    queue: jobs,
    pool,
    log: app.log.child({ module: 'exports' }),
    notifyReady: (userId, job) =>
      realtime.sendToUser(userId, 'exportReady', { exportId: job.id, fileName: job.fileName, downloadUrl: job.downloadUrl }),
    ...(extras ? { extras } : {}),
  });

  await app.register(
    async (api) => {
      await api.register(analyticsRoutes, { analytics });
      await api.register(comparisonsRoutes, { comparisons });
      await api.register(exportsRoutes, { exports });
    },
    { prefix: '/api' },
  );
  // The threads start with the first job (then stay, waiting): an instance that never runs one pays nothing.
  app.addHook('onReady', async () => jobs.start());
  // Before storage closes (onClose hooks run after every preClose); the threads after their jobs went back.
  app.addHook('preClose', async () => {
    await jobs.stop();
    await pool.close();
  });
  return { analytics, comparisons, exports, jobs, pool };
}
