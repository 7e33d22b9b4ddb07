import type { FastifyInstance } from 'fastify';
import type { BaseContext } from '../../context.js';
import type { Jobs } from '../../jobs/index.js';
import type { Realtime } from '../../realtime/index.js';
import { ComparisonsRepository, ComparisonsService, comparisonsRoutes } from '../comparisons/index.js';
import { ExportsRepository, ExportsService, exportsRoutes, type ReportExtras } from '../exports/index.js';
import type { Telemetry } from '../telemetry/index.js';
import { analyticsRoutes } from './analytics.routes.js';
import { AnalyticsService } from './analytics.service.js';

/** Heatmaps and tables, saved comparisons, and exports (run on the app's job queue, jobs/). */
export interface Analytics {
  analytics: AnalyticsService;
  comparisons: ComparisonsService;
  exports: ExportsService;
}

/**
 * Registers the analytics, comparisons and exports routes under /api; exports run on `jobs` (the app's
 * queue and threads). `extras` adds a report's location and tariff costs once those modules exist.
 */
export async function createAnalytics(
  app: FastifyInstance,
  base: BaseContext,
  telemetry: Telemetry,
  realtime: Realtime,
  jobs: Jobs,
  extras?: ReportExtras,
): Promise<Analytics> {
  const devices = telemetry.deviceReads;
  const analytics = new AnalyticsService(devices, telemetry.readings);
  const comparisons = new ComparisonsService(new ComparisonsRepository(base.storage.db), devices);
  const exports = new ExportsService({
    repo: new ExportsRepository(base.storage.db),
    devices,
    queue: jobs.queue,
    pool: jobs.pool,
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
  return { analytics, comparisons, exports };
}
