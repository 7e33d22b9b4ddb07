import { isoDate, localDate, MAX_TARIFF_PERIOD_DAYS, periodDays, tariffPreset } from '@phasewatch/shared';
import type { FastifyInstance } from 'fastify';
import type { BaseContext } from '../context.js';
import type { DeviceRow } from '../storage/schema.js';
import type { ReportExtras } from './exports/exports.service.js';
import { LocationsRepository } from './locations/locations.repository.js';
import { locationsRoutes } from './locations/locations.routes.js';
import { LocationsService } from './locations/locations.service.js';
import { FlowsReader } from './prosumer/prosumer.energy.js';
import { ProsumerRepository } from './prosumer/prosumer.repository.js';
import { prosumerRoutes } from './prosumer/prosumer.routes.js';
import { ProsumerService } from './prosumer/prosumer.service.js';
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
  const prosumer = new ProsumerService(
    new ProsumerRepository(base.storage.db),
    locationsRepo,
    tariffsRepo,
    new FlowsReader(telemetry.readings),
  );
  await app.register(
    async (api) => {
      await api.register(locationsRoutes, { locations });
      await api.register(tariffsRoutes, { tariffs });
      await api.register(prosumerRoutes, { prosumer });
    },
    { prefix: '/api' },
  );
  const reportExtras: ReportExtras = {
    async locationName(userId: number, device: DeviceRow) {
      if (device.location_id === null) return null;
      return (await locationsRepo.findForUser(userId, device.location_id))?.name ?? null;
    },
    /**
     * The report's period as whole local days of the device's location (its last day counted whole), under
     * the device's tariff (else its location's); null without one or beyond the statistics' 366 days.
     * Zones are named by area and the operator's zone name (the tariff's own words, in any report language).
     * Costs are of energy; the monthly fee is not part of the section.
     */
    async tariffCosts(userId: number, device: DeviceRow, from: number, to: number) {
      const loc = device.location_id === null ? undefined : await locationsRepo.findForUser(userId, device.location_id);
      const tz = loc?.timezone ?? (await locationsRepo.userInfo(userId))?.timezone ?? 'Europe/Warsaw';
      const [y, m, d] = localDate(Math.max(from, to - 1), tz)
        .split('-')
        .map(Number) as [number, number, number];
      const period = { from: localDate(from, tz), to: isoDate(y, m, d + 1) };
      if (periodDays(period.from, period.to) > MAX_TARIFF_PERIOD_DAYS) return null;
      const stats = await tariffs.costPerZone(userId, { deviceId: device.id }, period);
      if (!stats) return null;
      const tariff = await tariffsRepo.findForUser(userId, stats.tariffId);
      const names: Partial<Record<number, string>> = (tariff?.preset_id ? tariffPreset(tariff.preset_id)?.zoneNames : undefined) ?? {};
      return {
        currency: stats.currency,
        zones: stats.zones.map((z) => ({
          name: names[z.area] ? `${z.area} · ${names[z.area]}` : String(z.area),
          energyKwh: z.kWh,
          cost: z.cost,
        })),
        totalKwh: stats.kWh,
        totalCost: stats.energyCost,
      };
    },
  };
  return { locations, tariffs, energy, reportExtras, prosumer };
}
