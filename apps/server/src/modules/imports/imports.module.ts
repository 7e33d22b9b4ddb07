import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { BaseContext } from '../../context.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { JobKinds } from '../../jobs/kinds.js';
import type { JobPool } from '../../jobs/pool.js';
import { moduleUrl } from '../../storage/worker.js';
import type { Telemetry } from '../telemetry/index.js';
import { importsRoutes } from './imports.routes.js';
import { ImportsService } from './imports.service.js';

/** The job kinds of the imports (module URLs; app.ts hands them to the job pool): reading and checking a file. */
export const IMPORT_JOB_KINDS: JobKinds = { import: moduleUrl(import.meta.url, 'import.kind') };

/**
 * History imports on the app's job queue (`jobs`), their reading and checking on its job threads (`pool`,
 * the `import` kind). Readings go through the shared batch writer on the main thread, the path late readings
 * and whole hours of history take (rollups and local days rebuilt there).
 */
export async function createImports(
  app: FastifyInstance,
  base: BaseContext,
  telemetry: Telemetry,
  jobs: JobQueue,
  pool: JobPool,
): Promise<ImportsService> {
  const imports = new ImportsService({
    db: base.storage.db,
    queue: jobs,
    devices: telemetry.deviceReads,
    pool,
    write: (batch) => telemetry.writer.write(batch),
    dir: path.join(base.config.dataDir, 'imports'),
    maxBytes: base.config.importMaxBytes,
    maxRows: base.config.importMaxRows,
    rawRetentionDays: base.config.rawRetentionDays,
    log: app.log.child({ module: 'imports' }),
  });
  await app.register(
    async (api) => {
      await api.register(importsRoutes, { imports, maxBytes: base.config.importMaxBytes });
    },
    { prefix: '/api' },
  );
  return imports;
}
