import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { BaseContext } from '../../context.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { DevicesRepository } from '../devices/devices.repository.js';
import type { Telemetry } from '../telemetry.js';
import type { ImportStore } from './import-run.js';
import { importsRoutes } from './imports.routes.js';
import { ImportsService } from './imports.service.js';

/**
 * History imports on the app's job queue (today's queue, `jobs`: the import job's work is `runImport`,
 * self-contained, so it can move into a worker pool). Readings go through the shared batch writer, the
 * path late readings and whole hours of history take (rollups and local days rebuilt there).
 */
export async function createImports(
  app: FastifyInstance,
  base: BaseContext,
  telemetry: Telemetry,
  jobs: JobQueue,
): Promise<ImportsService> {
  const repo = telemetry.readingsRepository;
  const store: ImportStore = {
    existing: async (deviceId, from, to) =>
      (await repo.reader.arrays('SELECT ts FROM readings WHERE device_id = ? AND ts >= ? AND ts <= ?', [deviceId, from, to])).map((r) =>
        Number(r[0]),
      ),
    write: (batch) => telemetry.writer.write(batch),
  };
  const imports = new ImportsService({
    db: base.storage.db,
    queue: jobs,
    devices: new DevicesRepository(base.storage.db, base.storage.dialect),
    store,
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
