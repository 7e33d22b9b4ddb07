import {
  addMonths,
  type Balance,
  type BalanceItem,
  bankLedger,
  bankRatio,
  type CostTariff,
  clockHourStart,
  type DeviceRole,
  depositLedger,
  effectiveRoles,
  energyPriceOfHour,
  type HolidayCalendar,
  hourlyRce,
  type Ledger,
  type LedgerMonth,
  localDate,
  MAX_BALANCE_DAYS,
  MAX_RCE_DAYS,
  type MonthPricing,
  monthlyFlows,
  type NettedHour,
  netHourly,
  offsetLookup,
  type ProsumerScheme,
  type ProsumerSettings,
  periodDays,
  RCE_CSV_REFUSED_LISTED,
  RCEM_TABLE,
  type RceClamp,
  type RceCsvResult,
  type RceDays,
  type RcemItem,
  type RcemVersionChoice,
  rcemFor,
  startOfDate,
  type TariffClock,
  type TariffPrice,
  validationMessage,
  type ZoneSchedule,
} from '@phasewatch/shared';
import { holidayCheck } from '@phasewatch/shared/holidays';
import { ApiError, keyedError } from '../../http/errors.js';
import type { LocationRow } from '../../storage/schema.js';
import type { LocationsRepository } from '../locations/index.js';
import type { EnergySource, TariffsRepository } from '../tariffs/index.js';
import type { DeviceFlows, FlowsReader } from './prosumer.energy.js';
import type { ProsumerRepository, RoleDevice } from './prosumer.repository.js';
import { parseRceCsv } from './rce-import.js';

const HOUR = 3_600_000;
const QUARTER = 15 * 60_000;
/** RCE business days are Polish dates. */
const RCE_ZONE = 'Europe/Warsaw';
/** Longest ledger asked for, and how far before `from` a ledger starts at most (the deposit carries over). */
const MAX_LEDGER_MONTHS = 120;

const invalid = (field: string, key: string) =>
  new ApiError(400, `${field}: ${validationMessage(key)}`, [{ field, message: validationMessage(key), key }]);
const locationNotFound = () => keyedError(404, 'locations.errors.notFound');

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
const monthOf = (date: string) => date.slice(0, 7);

/** A location's devices by effective role. */
export interface LocationRoles {
  grid: RoleDevice | null;
  production: RoleDevice[];
  other: RoleDevice[];
  roles: Map<number, DeviceRole>;
}

/** Hourly balance of a location: the grid meter's raw and netted energy, production and consumption. */
export interface BalanceHour extends NettedHour {
  productionKWh: number;
  otherKWh: number;
}

/**
 * A location's energy balance and its prosumer settlement (issue 33): device roles, hourly netting of the
 * grid meter, the monthly ledger (net-metering bank or net-billing deposit), the RCEm prices. Energy comes
 * from the 15-minute rollups through the readings service (`FlowsReader`); the rules are
 * `packages/shared/src/prosumer/`.
 */
export class ProsumerService {
  constructor(
    private readonly repo: ProsumerRepository,
    private readonly locations: LocationsRepository,
    private readonly tariffs: TariffsRepository,
    private readonly flows: FlowsReader,
    private readonly now: () => number = Date.now,
  ) {}

  private async ownLocation(userId: number, locationId: number): Promise<LocationRow> {
    const loc = await this.locations.findForUser(userId, locationId);
    if (!loc) throw locationNotFound();
    return loc;
  }

  async rolesAt(userId: number, locationId: number): Promise<LocationRoles> {
    const devices = await this.repo.devicesAt(userId, locationId);
    const roles = effectiveRoles(devices.map((d) => ({ id: d.id, typeCode: d.type_code, role: d.role })));
    return {
      grid: devices.find((d) => roles.get(d.id) === 'grid') ?? null,
      production: devices.filter((d) => roles.get(d.id) === 'production'),
      other: devices.filter((d) => roles.get(d.id) === 'other'),
      roles,
    };
  }

  /** Hourly balance over [from, to) (UTC ms): the grid meter netted, production and other supplies per clock hour. */
  async hours(userId: number, loc: LocationRow, from: number, to: number, source: EnergySource = 'rollups') {
    const r = await this.rolesAt(userId, loc.id);
    const tz = loc.timezone;
    const byHour = new Map<number, BalanceHour>();
    const at = (start: number): BalanceHour => {
      let h = byHour.get(start);
      if (!h) {
        h = { start, importKWh: 0, exportKWh: 0, nettedImportKWh: 0, nettedExportKWh: 0, productionKWh: 0, otherKWh: 0 };
        byHour.set(start, h);
      }
      return h;
    };
    if (r.grid) {
      const f = await this.flows.read(r.grid.id, tz, from, to, source);
      for (const h of netHourly({ ts: f.ts, import: [f.import], export: [f.export] }, tz)) Object.assign(at(h.start), h);
    }
    const addAs = async (devices: RoleDevice[], pick: (f: DeviceFlows) => Float64Array, key: 'productionKWh' | 'otherKWh') => {
      for (const d of devices) {
        const f = await this.flows.read(d.id, tz, from, to, source);
        for (const h of netHourly({ ts: f.ts, import: [pick(f)], export: [] }, tz)) at(h.start)[key] += h.importKWh;
      }
    };
    await addAs(r.production, (f) => f.export, 'productionKWh');
    await addAs(r.other, (f) => f.import, 'otherKWh');
    const hours = [...byHour.values()].sort((a, b) => a.start - b.start);
    return { roles: r, hours };
  }

  /** `GET /api/locations/:id/balance`: per hour or local day over local dates [from, to). */
  async balance(userId: number, locationId: number, q: { from: string; to: string; interval: '1h' | '24h' }): Promise<Balance> {
    const loc = await this.ownLocation(userId, locationId);
    if (!(q.from < q.to)) throw invalid('from', 'validation.dateOrder');
    if (periodDays(q.from, q.to) > MAX_BALANCE_DAYS[q.interval]) throw invalid('to', 'validation.rangeTooLong');
    const tz = loc.timezone;
    const { roles, hours } = await this.hours(userId, loc, startOfDate(q.from, tz), startOfDate(q.to, tz));
    const groups = new Map<string, BalanceHour[]>();
    for (const h of hours) {
      const key = q.interval === '1h' ? new Date(h.start).toISOString() : localDate(h.start, tz);
      const g = groups.get(key) ?? [];
      g.push(h);
      groups.set(key, g);
    }
    const items = [...groups.entries()].map(([start, hs]) => ({ start, ...figures(hs) }));
    const totals = figures(hours);
    return {
      locationId: loc.id,
      from: q.from,
      to: q.to,
      interval: q.interval,
      timezone: tz,
      gridDeviceId: roles.grid?.id ?? null,
      productionDeviceIds: roles.production.map((d) => d.id),
      otherDeviceIds: roles.other.map((d) => d.id),
      items,
      totals: {
        ...totals,
        selfConsumptionShare: totals.productionKWh > 0 ? r6(totals.selfConsumptionKWh / totals.productionKWh) : null,
        selfSufficiencyShare: totals.consumptionKWh > 0 ? r6(Math.max(0, 1 - totals.importKWh / totals.consumptionKWh)) : null,
      },
    };
  }

  /** The location's settlement settings, or null when none were saved (scheme `none`). */
  async getSettings(userId: number, locationId: number): Promise<ProsumerSettings | null> {
    await this.ownLocation(userId, locationId);
    return this.settingsOf(locationId);
  }

  private async settingsOf(locationId: number): Promise<ProsumerSettings | null> {
    const row = await this.repo.settings(locationId);
    if (!row) return null;
    return {
      scheme: row.scheme as ProsumerScheme,
      since: row.since,
      installationKw: Number(row.installation_kw),
      coefficient: Number(row.coefficient),
      refundCap: Number(row.refund_cap) as ProsumerSettings['refundCap'],
      rcemVersion: row.rcem_version as RcemVersionChoice,
      rceClamp: row.rce_clamp as RceClamp,
      coefficientFrom: row.coefficient_from,
    };
  }

  async putSettings(userId: number, locationId: number, s: ProsumerSettings): Promise<ProsumerSettings> {
    await this.ownLocation(userId, locationId);
    await this.repo.saveSettings({
      location_id: locationId,
      user_id: userId,
      scheme: s.scheme,
      since: s.since,
      installation_kw: s.installationKw,
      coefficient: s.coefficient,
      refund_cap: s.refundCap,
      rcem_version: s.rcemVersion,
      rce_clamp: s.rceClamp,
      coefficient_from: s.coefficientFrom,
      modified_at: this.now(),
    });
    return (await this.settingsOf(locationId)) as ProsumerSettings;
  }

  /** The current month `YYYY-MM` in a timezone. */
  private currentMonth(tz: string): string {
    return monthOf(localDate(this.now(), tz));
  }

  /** `PUT /api/prices/rcem/:month`: the user's own RCEm of a month (PLN/MWh). */
  async putRcem(userId: number, month: string, price: number): Promise<RcemItem> {
    const tz = (await this.locations.userInfo(userId))?.timezone ?? 'Europe/Warsaw';
    if (month > this.currentMonth(tz)) throw invalid('month', 'prosumer.errors.futureMonth');
    await this.repo.saveRcem(userId, month, price, this.now());
    return (await this.rcemList(userId)).items.find((i) => i.month === month) as RcemItem;
  }

  /** `GET /api/prices/rcem`: the value in force per month (the user's own, else the latest shipped version). */
  async rcemList(userId: number): Promise<{ items: RcemItem[] }> {
    const own = await this.userRcem(userId);
    const months = [...new Set([...Object.keys(RCEM_TABLE), ...own.keys()])].sort();
    const items = months.flatMap((month): RcemItem[] => {
      const v = rcemFor(month, 'latest', own);
      if (!v) return [];
      return [
        {
          month,
          price: v.price,
          publishedAt: v.publishedAt,
          source: v.source,
          url: v.url,
          versions: v.versions,
          firstPublished: RCEM_TABLE[month]?.[0]?.price ?? null,
        },
      ];
    });
    return { items };
  }

  private async userRcem(userId: number) {
    const rows = await this.repo.rcemOf(userId);
    return new Map([...rows].map(([m, v]) => [m, { price: v.price, enteredAt: new Date(v.enteredAt).toISOString().slice(0, 10) }]));
  }

  /** The grid meter's tariff (its default tariff, else the location's energy tariff), ready for cost maths. */
  private async gridTariff(userId: number, loc: LocationRow, grid: RoleDevice | null) {
    const id = grid?.default_tariff_id ?? loc.tariff_id;
    if (id === null) return null;
    const row = await this.tariffs.findForUser(userId, id);
    if (!row) return null;
    const prices: TariffPrice[] = ((await this.tariffs.pricesOf([row.id])).get(row.id) ?? []).map((p) => ({
      validFrom: p.valid_from,
      area1: p.area1,
      area2: p.area2,
      area3: p.area3,
      fixedMonthly: p.fixed_monthly,
      energyArea1: p.energy_area1,
      energyArea2: p.energy_area2,
      energyArea3: p.energy_area3,
    }));
    const tariff: CostTariff = { schedule: JSON.parse(row.schedule) as ZoneSchedule, clock: row.clock as TariffClock, prices };
    return { tariff, isHoliday: holidayCheck(row.holiday_calendar as HolidayCalendar | null) };
  }

  /**
   * `GET /api/locations/:id/prosumer/ledger`: months `from`…`to` (inclusive) of the location's settlement.
   * The deposit or bank carries over, so the ledger is computed from the scheme's `since` month (at most
   * `MAX_LEDGER_MONTHS` before `from`) and the months asked for are answered.
   */
  async ledger(userId: number, locationId: number, q: { from: string; to: string }, source: EnergySource = 'rollups'): Promise<Ledger> {
    const loc = await this.ownLocation(userId, locationId);
    const tz = loc.timezone;
    const current = this.currentMonth(tz);
    if (q.from > current) throw invalid('from', 'prosumer.errors.futureMonth');
    if (q.to > current) throw invalid('to', 'prosumer.errors.futureMonth');
    if (q.from > q.to) throw invalid('from', 'validation.dateOrder');
    if (monthsApart(q.from, q.to) >= MAX_LEDGER_MONTHS) throw invalid('to', 'validation.rangeTooLong');
    const settings = await this.settingsOf(loc.id);
    const scheme: ProsumerScheme = settings?.scheme ?? 'none';
    const sinceMonth = settings ? monthOf(settings.since) : q.from;
    // From the scheme's first month when it is earlier (the deposit or bank carries over), else from `from`.
    let start = scheme !== 'none' && sinceMonth < q.from ? sinceMonth : q.from;
    if (monthsApart(start, q.from) > MAX_LEDGER_MONTHS) start = addMonths(q.from, -MAX_LEDGER_MONTHS);

    const { roles, hours: all } = await this.hoursOfMonths(userId, loc, start, q.to, source);
    const since = settings ? startOfDate(settings.since, tz) : Number.NEGATIVE_INFINITY;
    const hours = scheme === 'none' ? all : all.filter((h) => h.start >= since);
    const priced = await this.gridTariff(userId, loc, roles.grid);
    const own = await this.userRcem(userId);
    const choice = settings?.rcemVersion ?? 'latest';
    const coefficientFrom = settings ? startOfDate(settings.coefficientFrom, tz) : 0;
    const coefficient = settings?.coefficient ?? 1;
    let rceByHour = new Map<number, number>();
    if (scheme === 'net-billing-rce')
      rceByHour = await this.rceHours(
        userId,
        tz,
        startOfDate(`${start}-01`, tz),
        startOfDate(`${addMonths(q.to, 1)}-01`, tz),
        settings?.rceClamp ?? 'quarter',
      );
    const pricing: MonthPricing = {
      energyPrice: priced ? energyPriceOfHour(priced.tariff, tz, priced.isHoliday) : () => null,
      exportPrice:
        scheme === 'net-billing-rce'
          ? (h) => rceByHour.get(h) ?? null
          : scheme === 'net-billing-rcem'
            ? (_h, month) => rcemFor(month, choice, own)?.price ?? null
            : () => 0,
      coefficient: (h) => (h >= coefficientFrom ? coefficient : 1),
      monthly: scheme !== 'net-billing-rce',
    };
    const flows = monthlyFlows(hours, tz, start, q.to, pricing);
    let rows: LedgerMonth[];
    if (scheme === 'net-metering') rows = bankLedger(flows, bankRatio(settings?.installationKw ?? 0));
    else rows = depositLedger(flows, settings?.refundCap ?? 0.2);
    const months = rows
      .filter((m) => m.month >= q.from)
      .map((m) => {
        const v = scheme === 'net-billing-rcem' ? rcemFor(m.month, choice, own) : null;
        const schemeless = scheme === 'none' || scheme === 'net-metering';
        return {
          ...m,
          price: schemeless ? null : m.price,
          missingPrice: schemeless ? false : m.missingPrice,
          priceSource: v ? v.source : scheme === 'net-billing-rce' && m.price !== null ? ('rce' as const) : null,
          priceUrl: v?.url ?? null,
        };
      });
    return {
      locationId: loc.id,
      scheme,
      settings,
      from: q.from,
      to: q.to,
      gridDeviceId: roles.grid?.id ?? null,
      energyEstimated: months.some((m) => m.energyEstimated),
      months,
    };
  }

  /**
   * The ledger a device's PDF report shows (issue 33): its location's months overlapping [from, to) (UTC ms, up
   * to the current month), for the location's grid meter or a production device of a location with a scheme;
   * null otherwise (no location, no scheme, another role, a period wholly in the future).
   */
  async reportLedger(userId: number, device: { id: number; location_id: number | null }, from: number, to: number): Promise<Ledger | null> {
    if (device.location_id === null) return null;
    const loc = await this.locations.findForUser(userId, device.location_id);
    if (!loc) return null;
    const settings = await this.settingsOf(loc.id);
    if (!settings || settings.scheme === 'none') return null;
    const role = (await this.rolesAt(userId, loc.id)).roles.get(device.id);
    if (role !== 'grid' && role !== 'production') return null;
    const current = this.currentMonth(loc.timezone);
    const first = monthOf(localDate(from, loc.timezone));
    let last = monthOf(localDate(Math.max(from, to - 1), loc.timezone));
    if (first > current) return null;
    if (last > current) last = current;
    const start = monthsApart(first, last) >= MAX_LEDGER_MONTHS ? addMonths(last, -(MAX_LEDGER_MONTHS - 1)) : first;
    return this.ledger(userId, loc.id, { from: start, to: last });
  }

  /** Hourly balance of whole local months `from`…`to`, up to now. */
  private hoursOfMonths(userId: number, loc: LocationRow, from: string, to: string, source: EnergySource) {
    const a = startOfDate(`${from}-01`, loc.timezone);
    const b = Math.min(startOfDate(`${addMonths(to, 1)}-01`, loc.timezone), Math.ceil(this.now() / HOUR) * HOUR);
    return this.hours(userId, loc, a, Math.max(a, b), source);
  }

  /**
   * `POST /api/prices/rce/csv`: a user's own RCE quarter prices (they win over imported ones for their
   * locations). Good lines are stored and bad ones listed; a file with a bad header or nothing to store is a
   * 400 naming the (first bad) line.
   */
  async uploadRceCsv(userId: number, csv: string): Promise<RceCsvResult> {
    const parsed = parseRceCsv(csv);
    const badLine = 'line' in parsed ? parsed.line : parsed.rows.length === 0 ? (parsed.refused[0]?.line ?? 2) : null;
    if (badLine !== null || 'line' in parsed)
      throw new ApiError(400, `csv: line ${badLine}: ${validationMessage('prosumer.errors.csv')}`, [
        { field: 'csv', message: `line ${badLine}: ${validationMessage('prosumer.errors.csv')}`, key: 'prosumer.errors.csv' },
      ]);
    await this.repo.saveRce(userId, parsed.rows);
    let from = Number.POSITIVE_INFINITY;
    let to = Number.NEGATIVE_INFINITY;
    for (const r of parsed.rows) {
      from = Math.min(from, r.ts);
      to = Math.max(to, r.ts + QUARTER);
    }
    return {
      imported: parsed.rows.length,
      refused: parsed.refused.length,
      refusedLines: parsed.refused.slice(0, RCE_CSV_REFUSED_LISTED),
      from,
      to,
    };
  }

  /**
   * `GET /api/prices/rce/days`: per business day (Polish date) in [from, to), how many quarter-hours have an
   * RCE price for the user, and from where (PSE's import, their own upload).
   */
  async rceDays(userId: number, q: { from: string; to: string }): Promise<RceDays> {
    if (!(q.from < q.to)) throw invalid('from', 'validation.dateOrder');
    if (periodDays(q.from, q.to) > MAX_RCE_DAYS) throw invalid('to', 'validation.rangeTooLong');
    const dates: string[] = [];
    for (let d = q.from; d < q.to; d = nextDate(d)) dates.push(d);
    const starts = [...dates, q.to].map((d) => startOfDate(d, RCE_ZONE));
    const rows = await this.repo.rceCoverage(userId, starts[0] as number, starts[dates.length] as number);
    const days: RceDays['days'] = dates.map((date, i) => ({
      date,
      expected: Math.round(((starts[i + 1] as number) - (starts[i] as number)) / QUARTER),
      priced: 0,
      imported: 0,
      uploaded: 0,
    }));
    let i = 0;
    let last = Number.NaN;
    for (const r of rows) {
      while (r.ts >= (starts[i + 1] as number)) i++;
      const day = days[i] as RceDays['days'][number];
      if (r.own) day.uploaded++;
      else day.imported++;
      if (r.ts !== last) day.priced++;
      last = r.ts;
    }
    return { timezone: RCE_ZONE, days };
  }

  /** RCE per clock hour (PLN/MWh) from the stored quarter prices, clamped as the setting says. */
  private async rceHours(userId: number, tz: string, from: number, to: number, clamp: RceClamp): Promise<Map<number, number>> {
    const quarters = new Map<number, number[]>();
    const offsetOf = offsetLookup(tz);
    for (const r of await this.repo.rce(userId, from, to)) {
      const h = clockHourStart(r.ts, tz, offsetOf);
      const list = quarters.get(h) ?? [];
      list.push(r.price);
      quarters.set(h, list);
    }
    const out = new Map<number, number>();
    for (const [h, q] of quarters) {
      const p = hourlyRce(q, clamp);
      if (p !== null) out.set(h, p);
    }
    return out;
  }
}

/** The calendar date after `date` (YYYY-MM-DD). */
function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** Months from `a` to `b` (b − a). */
function monthsApart(a: string, b: string): number {
  return Number(b.slice(0, 4)) * 12 + Number(b.slice(5, 7)) - (Number(a.slice(0, 4)) * 12 + Number(a.slice(5, 7)));
}

/**
 * Balance figures of hours: raw and netted grid energy, production, consumption = import − export +
 * production (+ other supplies), self-consumption = production − export (never below 0).
 */
function figures(hours: readonly BalanceHour[]): Omit<BalanceItem, 'start'> {
  let imp = 0;
  let exp = 0;
  let ni = 0;
  let ne = 0;
  let prod = 0;
  let other = 0;
  for (const h of hours) {
    imp += h.importKWh;
    exp += h.exportKWh;
    ni += h.nettedImportKWh;
    ne += h.nettedExportKWh;
    prod += h.productionKWh;
    other += h.otherKWh;
  }
  return {
    importKWh: r6(imp),
    exportKWh: r6(exp),
    nettedImportKWh: r6(ni),
    nettedExportKWh: r6(ne),
    productionKWh: r6(prod),
    consumptionKWh: r6(Math.max(0, imp - exp + prod + other)),
    selfConsumptionKWh: r6(Math.max(0, prod - exp)),
  };
}
