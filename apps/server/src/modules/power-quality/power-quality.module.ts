import type { FastifyInstance } from 'fastify';
import type { BaseContext } from '../../context.js';
import type { JobKinds } from '../../jobs/kinds.js';
import { moduleUrl } from '../../storage/worker.js';
import { LocationsRepository } from '../locations/index.js';
import type { Telemetry } from '../telemetry/index.js';
import { powerQualityRoutes } from './power-quality.routes.js';
import type { PowerQualitySource } from './power-quality.service.js';

/** The job kinds of the power-quality report (module URLs; app.ts hands them to the job pool): its PDF. */
export const POWER_QUALITY_JOB_KINDS: JobKinds = { 'power-quality-pdf': moduleUrl(import.meta.url, 'power-quality.kind') };

/** Registers the power-quality report route under /api; returns the storage handles its PDF loader reads. */
export async function createPowerQuality(app: FastifyInstance, base: BaseContext, telemetry: Telemetry): Promise<PowerQualitySource> {
  const source: PowerQualitySource = {
    db: base.storage.db,
    devices: telemetry.deviceReads,
    locations: new LocationsRepository(base.storage.db),
    readings: telemetry.readingsRepository,
  };
  await app.register(async (api) => api.register(powerQualityRoutes, { source }), { prefix: '/api' });
  return source;
}
