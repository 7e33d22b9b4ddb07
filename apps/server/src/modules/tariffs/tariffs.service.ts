import {
  type Advisor,
  type AdvisorCandidate,
  adviseTariffs,
  type advisorQuerySchema,
  type CostTariff,
  countedDeviceIds,
  type HolidayCalendar,
  type Holidays,
  isoDate,
  localDate,
  MAX_TARIFF_PERIOD_DAYS,
  type ParsedTariffRequest,
  periodDays,
  presetUnconfirmed,
  type QuarterCalendar,
  quarterCalendar,
  resolveTariffRequest,
  roundMoney,
  startOfDate,
  TARIFF_PRESETS,
  type Tariff,
  type TariffClock,
  type TariffGroup,
  type TariffPresetInfo,
  type TariffPrice,
  type TariffStats,
  tariffCost,
  tariffPreset,
  timezonesOfCountry,
  validationMessage,
  type ZoneSchedule,
} from '@phasewatch/shared';
import { holidayCheck, holidaysOf } from '@phasewatch/shared/holidays';
import type { z } from 'zod';
import { serverDate } from '../../http/dates.js';
import { ApiError, keyedError } from '../../http/errors.js';
import type { DeviceRow, LocationRow, TariffPriceRow, TariffRow } from '../../storage/schema.js';
import type { EnergySource, QuarterEnergyReader } from './tariffs.energy.js';
import type { NewPrice, TariffsRepository } from './tariffs.repository.js';

export const tariffNotFound = (field?: string) => keyedError(404, 'tariffs.errors.notFound', field ? { field } : {});
/** A device as locations and tariffs see it: where it is and what it costs. */
export interface PlacedDevice {
  id: number;
  name: string;
  type_code: number;
  location_id: number | null;
  default_tariff_id: number | null;
  /** The role set by the user, or null (the default; issue 33). */
  role: string | null;
}

/**
 * What tariffs read of locations (the locations repository implements it; tariffs import nothing of the
 * locations module): a user's location, the devices placed there, one device, the user's country and zone.
 */
export interface TariffLocations {
  findForUser(userId: number, id: number): Promise<LocationRow | undefined>;
  devicesOf(userId: number, locationIds?: readonly number[]): Promise<PlacedDevice[]>;
  deviceOf(userId: number, deviceId: number): Promise<PlacedDevice | undefined>;
  userInfo(userId: number): Promise<{ country: string; timezone: string } | undefined>;
}

export const locationNotFound = (field?: string) => keyedError(404, 'locations.errors.notFound', field ? { field } : {});
const deviceNotFound = (field?: string) => keyedError(404, 'errors.deviceNotFound', field ? { field } : {});

/** What other modules ask costs for: one device (under its tariff) or a location (its devices, its energy tariff). */
export type CostTarget = { deviceId: number } | { locationId: number };

/** A stored tariff with what cost maths need. */
interface LoadedTariff {
  row: TariffRow;
  schedule: ZoneSchedule;
  prices: TariffPrice[];
}

const toPrice = (p: TariffPriceRow): TariffPrice => ({
  validFrom: p.valid_from,
  area1: p.area1,
  area2: p.area2,
  area3: p.area3,
  fixedMonthly: p.fixed_monthly,
  energyArea1: p.energy_area1 ?? null,
  energyArea2: p.energy_area2 ?? null,
  energyArea3: p.energy_area3 ?? null,
});

/** A 400 naming the field, with a message key of the shared catalogues. */
const invalid = (field: string, key: string) =>
  new ApiError(400, `${field}: ${validationMessage(key)}`, [{ field, message: validationMessage(key), key }]);

/** The country of a timezone when it has presets (Europe/Warsaw → PL, Europe/Istanbul → TR). */
function presetCountryOf(tz: string): 'PL' | 'TR' | null {
  return timezonesOfCountry('PL').includes(tz) ? 'PL' : timezonesOfCountry('TR').includes(tz) ? 'TR' : null;
}

/**
 * Tariffs of a user's locations: the price history, the presets, and what energy cost per zone (the
 * statistics and the advisor). Energy comes from the readings service per quarter-hour (stored rollups);
 * the zone and price rules are `packages/shared/src/tariffs/cost.ts`.
 */
export class TariffsService {
  constructor(
    private readonly repo: TariffsRepository,
    private readonly locations: TariffLocations,
    private readonly energy: QuarterEnergyReader,
    private readonly now: () => number = Date.now,
  ) {}

  presets(): TariffPresetInfo[] {
    return TARIFF_PRESETS.map((p) => ({ ...p, notes: [...p.notes], unconfirmed: presetUnconfirmed(p), zoneNames: { ...p.zoneNames } }));
  }

  holidays(calendar: HolidayCalendar, year: number, lang = 'en'): Holidays {
    return { calendar, year, holidays: holidaysOf(calendar, year, lang) };
  }

  private async ownLocation(userId: number, locationId: number): Promise<LocationRow> {
    const loc = await this.locations.findForUser(userId, locationId);
    if (!loc) throw locationNotFound();
    return loc;
  }

  /** A tariff of the user (and of the location, when one is named). */
  private async own(userId: number, tariffId: number, locationId?: number): Promise<LoadedTariff> {
    const row = await this.repo.findForUser(userId, tariffId);
    if (!row || (locationId !== undefined && row.location_id !== locationId)) throw tariffNotFound();
    const prices = (await this.repo.pricesOf([row.id])).get(row.id) ?? [];
    return { row, schedule: JSON.parse(row.schedule) as ZoneSchedule, prices: prices.map(toPrice) };
  }

  private async toTariffs(rows: readonly TariffRow[]): Promise<Tariff[]> {
    const ids = rows.map((r) => r.id);
    const prices = await this.repo.pricesOf(ids);
    const counts = await this.repo.deviceCounts(ids);
    const locs = new Map<number, number | null>();
    for (const r of rows) {
      if (!locs.has(r.location_id))
        locs.set(r.location_id, (await this.locations.findForUser(r.user_id, r.location_id))?.tariff_id ?? null);
    }
    return rows.map((r) => ({
      id: r.id,
      locationId: r.location_id,
      name: r.name,
      group: r.tariff_group as TariffGroup,
      presetId: r.preset_id,
      clock: r.clock as TariffClock,
      currency: r.currency,
      holidayCalendar: r.holiday_calendar as HolidayCalendar | null,
      schedule: JSON.parse(r.schedule) as ZoneSchedule,
      prices: (prices.get(r.id) ?? []).map(toPrice),
      isLocationTariff: locs.get(r.location_id) === r.id,
      deviceCount: counts.get(r.id) ?? 0,
      createdAt: serverDate(r.created_at),
      modifiedAt: serverDate(r.modified_at),
    }));
  }

  async list(userId: number, locationId: number): Promise<Tariff[]> {
    await this.ownLocation(userId, locationId);
    return this.toTariffs(await this.repo.listForUser(userId, [locationId]));
  }

  async get(userId: number, locationId: number, tariffId: number): Promise<Tariff> {
    await this.ownLocation(userId, locationId);
    const { row } = await this.own(userId, tariffId, locationId);
    return (await this.toTariffs([row]))[0] as Tariff;
  }

  /** The request with the preset's defaults filled in, or a 400 naming the field. */
  private resolve(req: ParsedTariffRequest) {
    const r = resolveTariffRequest(req);
    if ('field' in r) throw invalid(r.field, r.key);
    const prices: NewPrice[] = r.tariff.prices.map((p) => ({
      valid_from: p.validFrom,
      area1: p.area1,
      area2: p.area2,
      area3: p.area3,
      fixed_monthly: p.fixedMonthly,
      energy_area1: p.energyArea1 ?? null,
      energy_area2: p.energyArea2 ?? null,
      energy_area3: p.energyArea3 ?? null,
    }));
    const fields = {
      name: r.tariff.name,
      tariff_group: r.tariff.group,
      preset_id: r.tariff.presetId,
      clock: r.tariff.clock,
      currency: r.tariff.currency,
      holiday_calendar: r.tariff.holidayCalendar,
      schedule: JSON.stringify(r.tariff.schedule),
    };
    return { fields, prices };
  }

  /** A new tariff of the location; a location without an energy tariff takes it as its own. */
  async create(userId: number, locationId: number, req: ParsedTariffRequest): Promise<Tariff> {
    await this.ownLocation(userId, locationId);
    const { fields, prices } = this.resolve(req);
    const now = this.now();
    const row = await this.repo.insert({ ...fields, user_id: userId, location_id: locationId, created_at: now, modified_at: now }, prices);
    return (await this.toTariffs([row]))[0] as Tariff;
  }

  /** Replaces the tariff, its price history included: periods no list changed keep their cost. */
  async update(userId: number, locationId: number, tariffId: number, req: ParsedTariffRequest): Promise<Tariff> {
    await this.ownLocation(userId, locationId);
    await this.own(userId, tariffId, locationId);
    const { fields, prices } = this.resolve(req);
    const row = await this.repo.update(userId, tariffId, { ...fields, modified_at: this.now() }, prices);
    if (!row) throw tariffNotFound();
    return (await this.toTariffs([row]))[0] as Tariff;
  }

  /** Deletes the tariff; devices using it keep working without a default tariff. */
  async remove(userId: number, locationId: number, tariffId: number): Promise<void> {
    await this.ownLocation(userId, locationId);
    await this.own(userId, tariffId, locationId);
    if (!(await this.repo.remove(userId, tariffId))) throw tariffNotFound();
  }

  /**
   * The devices a location's energy adds (issue 33): its grid meter and separate supplies, never its PV
   * (production) nor sub-meters the grid meter already measures (`countedDeviceIds`).
   */
  private async locationDeviceIds(userId: number, locationId: number): Promise<number[]> {
    const devices = await this.locations.devicesOf(userId, [locationId]);
    return countedDeviceIds(devices.map((d) => ({ id: d.id, typeCode: d.type_code, role: d.role })));
  }

  /** Quarter-hours of devices over local dates [from, to) of a timezone, laid out on its calendar. */
  private async calendar(
    deviceIds: readonly number[],
    tz: string,
    from: string,
    to: string,
    source: EnergySource,
  ): Promise<QuarterCalendar> {
    const energy = await this.energy.read(deviceIds, tz, startOfDate(from, tz), startOfDate(to, tz), source);
    return quarterCalendar(energy, tz, from, to);
  }

  private statsOf(t: LoadedTariff, loc: LocationRow, cal: QuarterCalendar, deviceId: number | null, deviceIds: number[]): TariffStats {
    const tariff: CostTariff = { schedule: t.schedule, clock: t.row.clock as TariffClock, prices: t.prices };
    const cost = tariffCost(cal, tariff, holidayCheck(t.row.holiday_calendar as HolidayCalendar | null));
    return {
      tariffId: t.row.id,
      locationId: loc.id,
      deviceId,
      deviceIds,
      from: cal.from,
      to: cal.to,
      timezone: cal.timezone,
      clock: tariff.clock,
      currency: t.row.currency,
      ...cost,
      costedFrom: t.prices[0]?.validFrom ?? null,
    };
  }

  /**
   * Energy and cost per zone of a tariff's location (all its devices, or one of the user's devices) over
   * local dates [from, to) of the location. The period is checked by the route's schema.
   */
  async stats(
    userId: number,
    tariffId: number,
    q: { from: string; to: string; deviceId?: number | undefined },
    source: EnergySource = 'rollups',
  ): Promise<TariffStats> {
    const t = await this.own(userId, tariffId);
    const loc = await this.ownLocation(userId, t.row.location_id);
    let deviceIds: number[];
    if (q.deviceId !== undefined) {
      const d = await this.locations.deviceOf(userId, q.deviceId);
      if (!d) throw deviceNotFound('deviceId');
      deviceIds = [d.id];
    } else deviceIds = await this.locationDeviceIds(userId, loc.id);
    const cal = await this.calendar(deviceIds, loc.timezone, q.from, q.to, source);
    return this.statsOf(t, loc, cal, q.deviceId ?? null, deviceIds);
  }

  /**
   * A device report's tariff section (the PDF export's, Home Assistant's cost today): the period [from, to)
   * as whole local days of the device's location (its last day counted whole), under the device's tariff
   * (else its location's); null without one or beyond the statistics' 366 days. Zones are named by area
   * and the operator's zone name (the tariff's own words, in any report language). Costs are of energy;
   * the monthly fee is not part of the section.
   */
  async reportCosts(userId: number, device: DeviceRow, from: number, to: number) {
    const loc = device.location_id === null ? undefined : await this.locations.findForUser(userId, device.location_id);
    const tz = loc?.timezone ?? (await this.locations.userInfo(userId))?.timezone ?? 'Europe/Warsaw';
    const [y, m, d] = localDate(Math.max(from, to - 1), tz)
      .split('-')
      .map(Number) as [number, number, number];
    const period = { from: localDate(from, tz), to: isoDate(y, m, d + 1) };
    if (periodDays(period.from, period.to) > MAX_TARIFF_PERIOD_DAYS) return null;
    const stats = await this.costPerZone(userId, { deviceId: device.id }, period);
    if (!stats) return null;
    const tariff = await this.repo.findForUser(userId, stats.tariffId);
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
  }

  /**
   * Energy and cost per zone (per local day and in total) of a device or a location over local dates
   * [from, to), under the device's default tariff (else its location's energy tariff) or the location's
   * energy tariff; null when none applies. For other modules (reports): another user's device or location
   * answers 404, a period longer than `MAX_TARIFF_PERIOD_DAYS` or out of order 400.
   */
  async costPerZone(userId: number, target: CostTarget, period: { from: string; to: string }): Promise<TariffStats | null> {
    if (!(period.from < period.to)) throw invalid('to', 'validation.dateOrder');
    if (periodDays(period.from, period.to) > MAX_TARIFF_PERIOD_DAYS) throw invalid('to', 'validation.rangeTooLong');
    if ('deviceId' in target) {
      const d = await this.locations.deviceOf(userId, target.deviceId);
      if (!d) throw deviceNotFound('deviceId');
      const loc = d.location_id === null ? undefined : await this.locations.findForUser(userId, d.location_id);
      const tariffId = d.default_tariff_id ?? loc?.tariff_id ?? null;
      return tariffId === null ? null : this.stats(userId, tariffId, { ...period, deviceId: d.id });
    }
    const loc = await this.ownLocation(userId, target.locationId);
    return loc.tariff_id === null ? null : this.stats(userId, loc.tariff_id, period);
  }

  /** Energy and cost (under the location's energy tariff) of its devices over local dates [from, to). */
  async locationPeriods(userId: number, loc: LocationRow, periods: readonly { from: string; to: string }[]) {
    const deviceIds = await this.locationDeviceIds(userId, loc.id);
    // Dates `YYYY-MM-DD` sort as text: one read from the earliest start to the latest end.
    const from = periods.map((p) => p.from).sort()[0] ?? '';
    const to =
      periods
        .map((p) => p.to)
        .sort()
        .at(-1) ?? '';
    const energy = await this.energy.read(deviceIds, loc.timezone, startOfDate(from, loc.timezone), startOfDate(to, loc.timezone));
    const tariff = loc.tariff_id === null ? null : await this.own(userId, loc.tariff_id).catch(() => null);
    return {
      tariff,
      periods: periods.map((p) => {
        const cal = quarterCalendar(energy, loc.timezone, p.from, p.to);
        const kWh = Math.round(cal.kWh.reduce((s, e) => s + e, 0) * 1e6) / 1e6;
        if (!tariff) return { ...p, kWh, energyCost: null, fixedCost: null, totalCost: null };
        const c = this.statsOf(tariff, loc, cal, null, deviceIds);
        return { ...p, kWh, energyCost: c.energyCost, fixedCost: c.fixedCost, totalCost: c.totalCost };
      }),
    };
  }

  /**
   * What the period would have cost under every preset of the location's country, cheapest first: with the
   * prices of the user's own tariff of the same group where there is one (the current tariff first, then
   * one of the location, then any), else the preset's simulated reference prices; scaled to a year from the
   * days that have readings. The current tariff (the device's, else its location's) is priced apart.
   */
  async advisor(userId: number, q: z.output<typeof advisorQuerySchema>, source: EnergySource = 'rollups'): Promise<Advisor> {
    let loc: LocationRow | undefined;
    let deviceIds: number[];
    let currentId: number | null;
    if (q.deviceId !== undefined) {
      const d = await this.locations.deviceOf(userId, q.deviceId);
      if (!d) throw deviceNotFound('deviceId');
      loc = d.location_id === null ? undefined : await this.locations.findForUser(userId, d.location_id);
      deviceIds = [d.id];
      currentId = d.default_tariff_id ?? loc?.tariff_id ?? null;
    } else {
      loc = await this.ownLocation(userId, q.locationId as number);
      deviceIds = await this.locationDeviceIds(userId, loc.id);
      currentId = loc.tariff_id;
    }
    const user = await this.locations.userInfo(userId);
    const tz = loc?.timezone ?? user?.timezone ?? 'Europe/Warsaw';
    let { from, to } = q;
    if (from === undefined || to === undefined) {
      const today = localDate(this.now(), tz);
      const [y, m, d] = today.split('-').map(Number) as [number, number, number];
      to = isoDate(y, m, d + 1);
      from = isoDate(y - 1, m, d + 1);
    }
    const energy = await this.energy.read(deviceIds, tz, startOfDate(from, tz), startOfDate(to, tz), source);
    const full = quarterCalendar(energy, tz, from, to);
    const country = presetCountryOf(tz) ?? (user?.country === 'TR' ? 'TR' : 'PL');
    const base = {
      deviceId: q.deviceId ?? null,
      locationId: loc?.id ?? null,
      deviceIds,
      timezone: tz,
      country,
    };
    const mine = await this.repo.listForUser(userId);
    const prices = await this.repo.pricesOf(mine.map((t) => t.id));
    const current = currentId === null ? undefined : mine.find((t) => t.id === currentId);
    // One rule with the balance (stats): days before the current tariff's first price list are not costed,
    // so the advisor's period starts at that list (every option is priced over the same days).
    const costedFrom = current ? (prices.get(current.id)?.[0]?.valid_from ?? null) : null;
    if (full.kWh.length === 0) return { ...base, from, to, daysWithData: 0, kWh: 0, current: null, options: [], costedFrom };
    // The days that have readings: a year is scaled from them, and the fee is only counted for them.
    let first = full.days[full.day[0] as number] as string;
    const lastDay = full.days[full.day[full.day.length - 1] as number] as string;
    if (costedFrom !== null && costedFrom > first) first = costedFrom;
    if (first > lastDay) return { ...base, from, to, daysWithData: 0, kWh: 0, current: null, options: [], costedFrom };
    const [ly, lm, ld] = lastDay.split('-').map(Number) as [number, number, number];
    const cal = quarterCalendar(energy, tz, first, isoDate(ly, lm, ld + 1));
    const days = cal.days.length;

    // A user's price history covers the period from its first list back (for a fair comparison).
    const extended = (rows: readonly TariffPriceRow[]) =>
      rows.map((p, i) => ({ ...toPrice(p), validFrom: i === 0 ? '1970-01-01' : p.valid_from }));
    const ownOfGroup = (group: TariffGroup, currency: string) =>
      [current, ...mine.filter((t) => t.location_id === loc?.id), ...mine].find(
        (t) => t !== undefined && t.tariff_group === group && t.currency === currency && (prices.get(t.id)?.length ?? 0) > 0,
      );
    const presets = TARIFF_PRESETS.filter((p) => p.country === country);
    const candidates: (AdvisorCandidate & { presetId: string })[] = presets.map((p) => {
      const own = ownOfGroup(p.group, p.currency);
      return {
        key: p.id,
        presetId: p.id,
        schedule: p.schedule,
        clock: p.clock,
        isHoliday: holidayCheck(p.holidayCalendar),
        prices: own ? extended(prices.get(own.id) ?? []) : [{ validFrom: '1970-01-01', ...p.referencePrices }],
      };
    });
    const figures = adviseTariffs(cal, candidates, days);
    let currentFigures: Advisor['current'] = null;
    if (current && (prices.get(current.id)?.length ?? 0) > 0) {
      const c = tariffCost(
        cal,
        {
          schedule: JSON.parse(current.schedule) as ZoneSchedule,
          clock: current.clock as TariffClock,
          prices: extended(prices.get(current.id) ?? []),
        },
        holidayCheck(current.holiday_calendar as HolidayCalendar | null),
      );
      currentFigures = {
        tariffId: current.id,
        name: current.name,
        group: current.tariff_group as TariffGroup,
        currency: current.currency,
        totalCost: c.totalCost,
        annualCost: roundMoney((c.totalCost * 365) / days),
      };
    }
    return {
      ...base,
      from: cal.from,
      to: cal.to,
      daysWithData: days,
      kWh: Math.round(cal.kWh.reduce((s, e) => s + e, 0) * 1e6) / 1e6,
      current: currentFigures,
      costedFrom,
      options: figures.map((f) => {
        const p = presets.find((x) => x.id === f.key);
        if (!p) throw new Error(`no preset ${f.key}`);
        const own = ownOfGroup(p.group, p.currency);
        return {
          presetId: p.id,
          operator: p.operator,
          group: p.group,
          priceSource: own ? ('tariff' as const) : ('reference' as const),
          priceTariffId: own?.id ?? null,
          currency: p.currency,
          zones: f.cost.zones,
          energyCost: f.cost.energyCost,
          fixedCost: f.cost.fixedCost,
          totalCost: f.cost.totalCost,
          annualCost: f.annualCost,
          savingPerYear:
            currentFigures && currentFigures.currency === p.currency ? roundMoney(currentFigures.annualCost - f.annualCost) : null,
          shiftKWhPerYear: f.shiftKWhPerYear,
          shiftShare: f.shiftShare,
          unconfirmed: presetUnconfirmed(p),
        };
      }),
    };
  }
}
