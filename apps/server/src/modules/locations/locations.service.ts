import {
  isoDate,
  type Location,
  type LocationSummary,
  localDate,
  type ParsedLocationRequest,
  type TariffGroup,
  type TariffRef,
  timezoneForCountry,
} from '@phasewatch/shared';
import { serverDate } from '../../http/dates.js';
import { keyedError } from '../../http/errors.js';
import type { DeviceRow, LocationRow } from '../../storage/schema.js';
import { locationNotFound, type TariffsRepository, type TariffsService } from '../tariffs/index.js';
import type { LocationsRepository } from './locations.repository.js';

/** A device's location and default tariff, as a create or update asks for them (undefined: unchanged). */
export interface PlacementRequest {
  locationId?: number | null | undefined;
  tariffId?: number | null | undefined;
}
export interface Placement {
  locationId: number | null;
  tariffId: number | null;
}

/**
 * What the devices module needs of locations and tariffs: the names its answers carry, and a placement
 * checked against the user's own locations and tariffs.
 */
export interface DevicePlacement {
  names(userId: number): Promise<{ locations: Map<number, string>; tariffs: Map<number, string> }>;
  resolve(userId: number, current: Placement, req: PlacementRequest): Promise<Placement>;
}

/** A user's locations: where devices are, with the location's timezone and energy tariff. */
export class LocationsService implements DevicePlacement {
  constructor(
    private readonly repo: LocationsRepository,
    private readonly tariffsRepo: TariffsRepository,
    private readonly tariffs: TariffsService,
    private readonly now: () => number = Date.now,
  ) {}

  /** The name of a device's location for its reports, or null when it has none. */
  async reportName(userId: number, device: DeviceRow): Promise<string | null> {
    if (device.location_id === null) return null;
    return (await this.repo.findForUser(userId, device.location_id))?.name ?? null;
  }

  private async own(userId: number, id: number): Promise<LocationRow> {
    const row = await this.repo.findForUser(userId, id);
    if (!row) throw locationNotFound();
    return row;
  }

  private async toLocations(userId: number, rows: readonly LocationRow[]): Promise<Location[]> {
    const ids = rows.map((r) => r.id);
    const tariffs = await this.tariffsRepo.listForUser(userId, ids);
    const devices = await this.repo.devicesOf(userId, ids);
    const ref = (t: { id: number; name: string; tariff_group: string }): TariffRef => ({
      id: t.id,
      name: t.name,
      group: t.tariff_group as TariffGroup,
    });
    return rows.map((r) => {
      const own = tariffs.filter((t) => t.location_id === r.id);
      const energy = own.find((t) => t.id === r.tariff_id);
      return {
        id: r.id,
        name: r.name,
        code: r.code,
        address: r.address,
        city: r.city,
        timezone: r.timezone,
        tariff: energy ? ref(energy) : null,
        tariffs: own.map(ref),
        devices: devices
          .filter((d) => d.location_id === r.id)
          .map((d) => ({ id: d.id, name: d.name, typeCode: d.type_code, tariffId: d.default_tariff_id })),
        createdAt: serverDate(r.created_at),
        modifiedAt: serverDate(r.modified_at),
      };
    });
  }

  async list(userId: number): Promise<Location[]> {
    return this.toLocations(userId, await this.repo.listForUser(userId));
  }

  async get(userId: number, id: number): Promise<Location> {
    return (await this.toLocations(userId, [await this.own(userId, id)]))[0] as Location;
  }

  /**
   * A tariff named in a body must be one of the location's own. One that is not the user's is a bad field
   * (400, the same answer as for one that does not exist: it tells nothing about other users' ids).
   */
  private async checkTariff(userId: number, locationId: number | null, tariffId: number | null | undefined): Promise<void> {
    if (tariffId === null || tariffId === undefined) return;
    const t = await this.tariffsRepo.findForUser(userId, tariffId);
    if (!t) throw keyedError(400, 'tariffs.errors.notFound', { field: 'tariffId' });
    if (t.location_id !== locationId) throw keyedError(400, 'tariffs.errors.tariffOfLocation', { field: 'tariffId' });
  }

  /** A new location; its timezone defaults to the user's country's. A new location has no tariffs yet. */
  async create(userId: number, req: ParsedLocationRequest): Promise<Location> {
    await this.checkTariff(userId, null, req.tariffId);
    const user = await this.repo.userInfo(userId);
    const now = this.now();
    const row = await this.repo.insert({
      user_id: userId,
      name: req.name,
      code: req.code,
      address: req.address,
      city: req.city,
      timezone: req.timezone ?? timezoneForCountry(user?.country),
      tariff_id: null,
      created_at: now,
      modified_at: now,
    });
    return this.get(userId, row.id);
  }

  async update(userId: number, id: number, req: ParsedLocationRequest): Promise<Location> {
    const current = await this.own(userId, id);
    await this.checkTariff(userId, id, req.tariffId);
    const row = await this.repo.update(userId, id, {
      name: req.name,
      code: req.code,
      address: req.address,
      city: req.city,
      timezone: req.timezone ?? current.timezone,
      ...(req.tariffId !== undefined ? { tariff_id: req.tariffId } : {}),
      modified_at: this.now(),
    });
    if (!row) throw locationNotFound();
    return this.get(userId, id);
  }

  /** Deletes the location and its tariffs; its devices keep working, without a location. */
  async remove(userId: number, id: number): Promise<void> {
    if (!(await this.repo.remove(userId, id))) throw locationNotFound();
  }

  /** Energy and cost of the location's devices this month (up to today) and last month, under its energy tariff. */
  async summary(userId: number, id: number): Promise<LocationSummary> {
    const loc = await this.own(userId, id);
    const [y, m, d] = localDate(this.now(), loc.timezone).split('-').map(Number) as [number, number, number];
    const thisMonth = { from: isoDate(y, m, 1), to: isoDate(y, m, d + 1) };
    const lastMonth = { from: isoDate(y, m - 1, 1), to: isoDate(y, m, 1) };
    const r = await this.tariffs.locationPeriods(userId, loc, [thisMonth, lastMonth]);
    const t = r.tariff?.row;
    return {
      locationId: loc.id,
      timezone: loc.timezone,
      tariff: t ? { id: t.id, name: t.name, group: t.tariff_group as TariffGroup, currency: t.currency } : null,
      thisMonth: r.periods[0] as LocationSummary['thisMonth'],
      lastMonth: r.periods[1] as LocationSummary['lastMonth'],
    };
  }

  async names(userId: number): Promise<{ locations: Map<number, string>; tariffs: Map<number, string> }> {
    const locations = new Map((await this.repo.listForUser(userId)).map((l) => [l.id, l.name]));
    const tariffs = new Map((await this.tariffsRepo.listForUser(userId)).map((t) => [t.id, t.name]));
    return { locations, tariffs };
  }

  /**
   * A device's placement after a create or update: a location or tariff that is not the user's, or a
   * tariff of another location (or without one), is a bad field (400). Moving to another location without naming a
   * tariff gives the device that location's energy tariff; leaving a location clears the tariff.
   */
  async resolve(userId: number, current: Placement, req: PlacementRequest): Promise<Placement> {
    if (req.locationId === undefined && req.tariffId === undefined) return current;
    const locationId = req.locationId === undefined ? current.locationId : req.locationId;
    if (locationId === null) {
      if (req.tariffId !== undefined && req.tariffId !== null) throw keyedError(400, 'tariffs.errors.locationFirst', { field: 'tariffId' });
      return { locationId: null, tariffId: null };
    }
    const loc = await this.repo.findForUser(userId, locationId);
    if (!loc) throw keyedError(400, 'locations.errors.notFound', { field: 'locationId' });
    if (req.tariffId === undefined) return { locationId, tariffId: locationId === current.locationId ? current.tariffId : loc.tariff_id };
    await this.checkTariff(userId, locationId, req.tariffId);
    return { locationId, tariffId: req.tariffId };
  }
}
