import type { FastifyInstance } from 'fastify';
import type { BaseContext } from '../../context.js';
import type { ReportExtras } from '../exports/index.js';
import { LocationsRepository, LocationsService, locationsRoutes } from '../locations/index.js';
import { FlowsReader, ProsumerRepository, ProsumerService, prosumerRoutes, RceImporter } from '../prosumer/index.js';
import { QuarterEnergyReader, TariffsRepository, TariffsService, tariffsRoutes } from '../tariffs/index.js';
import type { Telemetry } from '../telemetry/index.js';

/** Locations and tariffs: the services other parts use (reports ask `tariffs.costPerZone`). */
export interface Places {
  locations: LocationsService;
  tariffs: TariffsService;
  /** Quarter-hour energy of devices as tariff costs read it (the benchmark compares its sources). */
  energy: QuarterEnergyReader;
  /** What a device's PDF report adds: its location and the period's cost per tariff zone. */
  reportExtras: ReportExtras;
  /** A location's balance and prosumer ledger (issue 33). */
  prosumer: ProsumerService;
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
  const prosumerRepo = new ProsumerRepository(base.storage.db);
  const prosumer = new ProsumerService(prosumerRepo, locationsRepo, tariffsRepo, new FlowsReader(telemetry.readings));
  // The daily RCE import (RCE_IMPORT, RCE_SOURCE_URL): rounds start when the app is ready, stop before storage closes.
  if (base.config.rceImport) {
    const rce = new RceImporter(prosumerRepo, { sourceUrl: base.config.rceSourceUrl, log: app.log.child({ module: 'rce-import' }) });
    app.addHook('onReady', async () => rce.start());
    app.addHook('preClose', async () => rce.stop());
  }
  await app.register(
    async (api) => {
      await api.register(locationsRoutes, { locations });
      await api.register(tariffsRoutes, { tariffs });
      await api.register(prosumerRoutes, { prosumer });
    },
    { prefix: '/api' },
  );
  // What a device's PDF report adds (the exports and Home Assistant read it): the services' answers, as is.
  const reportExtras: ReportExtras = {
    locationName: (userId, device) => locations.reportName(userId, device),
    tariffCosts: (userId, device, from, to) => tariffs.reportCosts(userId, device, from, to),
    prosumerLedger: (userId, device, from, to) => prosumer.reportLedger(userId, device, from, to),
  };
  return { locations, tariffs, energy, reportExtras, prosumer };
}
