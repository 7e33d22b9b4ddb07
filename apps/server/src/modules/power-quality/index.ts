import type { FastifyInstance } from 'fastify';
import type { BaseContext } from '../../context.js';
import { DevicesRepository } from '../devices/devices.repository.js';
import { LocationsRepository } from '../locations/locations.repository.js';
import type { Telemetry } from '../telemetry.js';
import { powerQualityRoutes } from './power-quality.routes.js';
import type { PowerQualitySource } from './power-quality.service.js';

/** Registers the power-quality report route under /api; returns the storage handles its PDF loader reads. */
export async function createPowerQuality(app: FastifyInstance, base: BaseContext, telemetry: Telemetry): Promise<PowerQualitySource> {
  const source: PowerQualitySource = {
    db: base.storage.db,
    devices: new DevicesRepository(base.storage.db, base.storage.dialect),
    locations: new LocationsRepository(base.storage.db),
    readings: telemetry.readingsRepository,
  };
  await app.register(async (api) => api.register(powerQualityRoutes, { source }), { prefix: '/api' });
  return source;
}
