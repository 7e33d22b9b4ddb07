import type { FastifyInstance } from 'fastify';
import type { BaseContext } from '../context.js';
import { LocationsRepository } from './locations/locations.repository.js';
import { locationsRoutes } from './locations/locations.routes.js';
import { LocationsService } from './locations/locations.service.js';
import { QuarterEnergyReader } from './tariffs/tariffs.energy.js';
import { TariffsRepository } from './tariffs/tariffs.repository.js';
import { tariffsRoutes } from './tariffs/tariffs.routes.js';
import { TariffsService } from './tariffs/tariffs.service.js';
import type { Telemetry } from './telemetry.js';

/** Locations and tariffs: the services other parts use (reports ask `tariffs.costPerZone`). */
export interface Places {
  locations: LocationsService;
  tariffs: TariffsService;
  /** Quarter-hour energy of devices as tariff costs read it (the benchmark compares its sources). */
  energy: QuarterEnergyReader;
}

/**
 * Registers the locations and tariffs routes under /api and gives the devices module its placement
 * (location and default tariff of a device, checked against the user's own).
 */
export async function createPlaces(app: FastifyInstance, base: BaseContext, telemetry: Telemetry): Promise<Places> {
  const locationsRepo = new LocationsRepository(base.storage.db);
  const tariffsRepo = new TariffsRepository(base.storage.db);
  const energy = new QuarterEnergyReader(telemetry.readings);
  const tariffs = new TariffsService(tariffsRepo, locationsRepo, energy);
  const locations = new LocationsService(locationsRepo, tariffsRepo, tariffs);
  telemetry.devices.attachPlacement(locations);
  await app.register(
    async (api) => {
      await api.register(locationsRoutes, { locations });
      await api.register(tariffsRoutes, { tariffs });
    },
    { prefix: '/api' },
  );
  return { locations, tariffs, energy };
}
