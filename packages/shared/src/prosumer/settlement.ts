import { localParts, zonedTimeToUtc } from '../energy/zoned-time.js';
import type { NettedHour } from './netting.js';

/**
 * Settlement of a Polish household prosumer's netted energy, month by month, as the sellers do it. Rules
 * and sources: `shared/tariffs/prosumer-settlement.md`; the uncertain points are settings or documented
 * choices (README "Prosumers").
 *
 * **Net-billing (deposit, PLN).** The month M's netted export becomes a tranche
 *     value = Σ hours netted export × price × coefficient
 * (price: the RCEm of M for every hour, or the hour's RCE; coefficient: 1.23 for energy fed in from
 * 27 Dec 2024, 1.0 before), rounded to the grosz, **assigned in M+1** and usable in M+1 … M+12. Each month's
 * energy cost (netted import × the energy part of the price in force, by zone) is paid from the tranches
 * available, the oldest first. What a tranche still holds when it expires (at the start of M+13) is refunded
 * up to `refundCap` × its value (20 %, or 30 % for an RCEm→RCE switcher), the rest is lost; both are shown
 * in the month M+13. All money is kept in whole grosz, so every figure is exact to the grosz.
 *
 * **Net-metering (bank, kWh).** The month's netted export × ratio (0.8 up to 10 kW, 0.7 above) enters the
 * bank; the month's netted import is taken from it, oldest kWh first (the same month's kWh included, as the
 * seller's monthly settlement does). kWh that entered in month M are usable in M … M+11 (365 days counted
 * by billing months) and the rest is lost at the start of M+12. The offset kWh save the energy part of the
 * price (`used`: the month's energy cost × offset ÷ netted import); the kWh-based network charges they also
 * save are not in the price list and are not counted. kWh are kept in whole micro-kWh.
 */

export const PROSUMER_SCHEMES = ['none', 'net-metering', 'net-billing-rcem', 'net-billing-rce'] as const;
export type ProsumerScheme = (typeof PROSUMER_SCHEMES)[number];

/**
 * How an hour's RCE is made of its four quarter prices (UNCERTAIN in the sources): `quarter` zeroes each
 * negative quarter, then averages (ha-rce-pse; the default); `hour` averages, then zeroes a negative mean.
 */
export const RCE_CLAMPS = ['quarter', 'hour'] as const;
export type RceClamp = (typeof RCE_CLAMPS)[number];

/** The statutory date from which the coefficient (1.23) applies to energy fed in (Dz.U. 2024 poz. 1847). */
export const COEFFICIENT_FROM = '2024-12-27';
export const DEFAULT_COEFFICIENT = 1.23;

/** The net-metering ratio of an installation: 0.8 up to 10 kW, 0.7 above. */
export const bankRatio = (installationKw: number) => (installationKw > 10 ? 0.7 : 0.8);

/** An hour's RCE (PLN/MWh) from its quarter prices (missing quarters left out), or null with none. */
export function hourlyRce(quarters: readonly (number | null | undefined)[], clamp: RceClamp = 'quarter'): number | null {
  const q = quarters.filter((p): p is number => typeof p === 'number' && Number.isFinite(p));
  if (q.length === 0) return null;
  if (clamp === 'quarter') return q.reduce((s, p) => s + Math.max(0, p), 0) / q.length;
  return Math.max(0, q.reduce((s, p) => s + p, 0) / q.length);
}

/** Whole grosz of an amount in PLN, half up (x + ε so that 2.5749999… from binary fractions rounds as 2.575). */
export const toGrosz = (pln: number) => Math.round(pln * 100 + 1e-7 * Math.sign(pln));
const toMicroKWh = (kWh: number) => Math.round(kWh * 1e6);
const pln = (grosz: number) => grosz / 100;
const kwh = (micro: number) => micro / 1e6;

/** `YYYY-MM` of a month `n` months after `month` (n may be negative). */
export function addMonths(month: string, n: number): string {
  const i = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
}

/** The months from `from` to `to`, both inclusive. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = from; m <= to; m = addMonths(m, 1)) out.push(m);
  return out;
}

/** One month's netted energy and its prices, the input of the ledgers. */
export interface MonthFlows {
  month: string;
  nettedImportKWh: number;
  nettedExportKWh: number;
  /** Netted import × the energy part of the price in force (PLN, unrounded); null: no price list. */
  energyCost: number | null;
  /** The tranche the month's export makes (PLN, unrounded; net-billing), or null where a price is missing. */
  exportValue: number | null;
  /** Netted export of hours without a price (kWh): credited nothing, the statement says so. */
  unpricedExportKWh: number;
  /** The price shown for the month (PLN/MWh): RCEm, or the export-weighted mean of the hours' RCE. */
  price: number | null;
  /** The energy cost used a whole price where the energy part was not entered. */
  energyEstimated: boolean;
}

/** What the hours of a month need priced. */
export interface MonthPricing {
  /** The energy part of the price in force at an hour (PLN/kWh), or null without a price list. */
  energyPrice: (hourStart: number) => { price: number; estimated: boolean } | null;
  /** The export price of an hour (PLN/MWh, ≥ 0), or null where it is missing. */
  exportPrice: (hourStart: number, month: string) => number | null;
  /** The coefficient of energy fed in at an hour. */
  coefficient: (hourStart: number) => number;
  /** Whether the month's price is one per month (RCEm) rather than per hour. */
  monthly: boolean;
}

/**
 * Sums netted hours into local calendar months (`from`…`to` inclusive, `YYYY-MM`; months without hours are
 * zero) and prices them: the energy cost of the netted import and the value of the netted export.
 */
export function monthlyFlows(hours: readonly NettedHour[], tz: string, from: string, to: string, pricing: MonthPricing): MonthFlows[] {
  const months = monthsBetween(from, to);
  const index = new Map(months.map((m, i) => [m, i]));
  const acc = months.map((month) => ({
    month,
    imp: 0,
    exp: 0,
    cost: 0,
    costed: false,
    noCost: false,
    estimated: false,
    value: 0,
    valuedKWh: 0,
    weighted: 0,
    unpriced: 0,
  }));
  let monthStart = Number.NaN;
  let monthEnd = Number.NaN;
  let lastMonth = '';
  for (const h of hours) {
    // The local month of an hour: looked up once per month crossed.
    if (!(h.start >= monthStart && h.start < monthEnd)) {
      const p = localParts(h.start, tz);
      lastMonth = `${p.year}-${String(p.month).padStart(2, '0')}`;
      monthStart = zonedTimeToUtc(tz, p.year, p.month, 1);
      monthEnd = zonedTimeToUtc(tz, p.month === 12 ? p.year + 1 : p.year, p.month === 12 ? 1 : p.month + 1, 1);
    }
    const i = index.get(lastMonth);
    if (i === undefined) continue;
    const a = acc[i] as (typeof acc)[number];
    if (h.nettedImportKWh > 0) {
      a.imp += h.nettedImportKWh;
      const e = pricing.energyPrice(h.start);
      if (e) {
        a.cost += h.nettedImportKWh * e.price;
        a.costed = true;
        if (e.estimated) a.estimated = true;
      } else a.noCost = true;
    }
    if (h.nettedExportKWh > 0) {
      a.exp += h.nettedExportKWh;
      const p = pricing.exportPrice(h.start, lastMonth);
      if (p === null) a.unpriced += h.nettedExportKWh;
      else {
        a.value += (h.nettedExportKWh * Math.max(0, p) * pricing.coefficient(h.start)) / 1000;
        a.valuedKWh += h.nettedExportKWh;
        a.weighted += h.nettedExportKWh * Math.max(0, p);
      }
    }
  }
  return acc.map((a) => {
    let price: number | null = null;
    if (pricing.monthly) price = pricing.exportPrice(Number.NaN, a.month);
    else if (a.valuedKWh > 0) price = Math.round((a.weighted / a.valuedKWh) * 100) / 100;
    const allUnpriced = a.exp > 0 && a.valuedKWh === 0;
    return {
      month: a.month,
      nettedImportKWh: a.imp,
      nettedExportKWh: a.exp,
      energyCost: a.noCost && !a.costed ? null : a.cost,
      exportValue: allUnpriced ? null : a.value,
      unpricedExportKWh: a.unpriced,
      price,
      energyEstimated: a.estimated,
    };
  });
}

/** One month of a ledger (the contract's fields; money in PLN rounded to the grosz, energy in kWh). */
export interface LedgerMonth {
  month: string;
  nettedImportKWh: number;
  nettedExportKWh: number;
  /** Export price of the month (PLN/MWh), null where missing. */
  price: number | null;
  /** Value of the month's netted export: the tranche it makes, assigned next month (net-billing). */
  credited: number;
  /** Deposit spent on the month's energy cost (net-billing), or the energy part the bank's kWh saved (net-metering). */
  used: number;
  /** What tranches expiring this month return … */
  refunded: number;
  /** … and forfeit. */
  lost: number;
  /** Deposit available at the month's end. */
  balance: number;
  /** Deposit that expires at the start of next month unless used (shown as "expiring next"). */
  expiringNext: number;
  /** Netted import × the energy part of the price, by zone; null without a price list. */
  energyCost: number | null;
  cashForEnergy: number | null;
  /** kWh left in the bank at the month's end (net-metering; 0 otherwise). */
  bankKWh: number;
  /** Net-metering: kWh that entered, were taken and were lost this month. */
  bankCreditedKWh: number;
  bankUsedKWh: number;
  bankLostKWh: number;
  /** Netted export without a price (credited nothing). */
  unpricedExportKWh: number;
  /** No export price for the month at all. */
  missingPrice: boolean;
  /** The energy cost was estimated with the whole price (no energy part entered). */
  energyEstimated: boolean;
}

interface Tranche {
  made: string;
  assigned: string;
  expires: string;
  value: number;
  left: number;
}

/** A tranche available before the first month (e.g. from an invoice), in PLN. */
export interface OpeningTranche {
  /** The month it was made from (assigned the month after). */
  made: string;
  value: number;
  /** What is left of it (defaults to its value). */
  left?: number;
}

const emptyMonth = (f: MonthFlows): LedgerMonth => ({
  month: f.month,
  nettedImportKWh: kwh(toMicroKWh(f.nettedImportKWh)),
  nettedExportKWh: kwh(toMicroKWh(f.nettedExportKWh)),
  price: f.price,
  credited: 0,
  used: 0,
  refunded: 0,
  lost: 0,
  balance: 0,
  expiringNext: 0,
  energyCost: f.energyCost === null ? null : pln(toGrosz(f.energyCost)),
  cashForEnergy: f.energyCost === null ? null : pln(toGrosz(f.energyCost)),
  bankKWh: 0,
  bankCreditedKWh: 0,
  bankUsedKWh: 0,
  bankLostKWh: 0,
  unpricedExportKWh: kwh(toMicroKWh(f.unpricedExportKWh)),
  missingPrice: f.nettedExportKWh > 0 && f.exportValue === null,
  energyEstimated: f.energyEstimated,
});

/**
 * The net-billing deposit ledger over consecutive months (rules at the top). `opening` tranches are
 * available from the month after they were made, like any other.
 */
export function depositLedger(months: readonly MonthFlows[], refundCap: number, opening: readonly OpeningTranche[] = []): LedgerMonth[] {
  const tranches: Tranche[] = opening.map((o) => {
    const value = toGrosz(o.value);
    return { made: o.made, assigned: addMonths(o.made, 1), expires: addMonths(o.made, 13), value, left: toGrosz(o.left ?? o.value) };
  });
  const out: LedgerMonth[] = [];
  for (const f of months) {
    const row = emptyMonth(f);
    const x = f.month;
    // 1. Tranches expiring now: refund up to the cap of their value, the rest lost.
    let refunded = 0;
    let lost = 0;
    for (const t of tranches) {
      if (t.expires === x && t.left > 0) {
        const r = Math.min(t.left, Math.round(t.value * refundCap + 1e-7));
        refunded += r;
        lost += t.left - r;
        t.left = 0;
      }
    }
    // 2. Pay the month's energy cost from the available tranches, oldest first.
    const cost = f.energyCost === null ? 0 : toGrosz(f.energyCost);
    let due = cost;
    let used = 0;
    const available = tranches
      .filter((t) => t.assigned <= x && t.expires > x)
      .sort((a, b) => (a.assigned < b.assigned ? -1 : a.assigned > b.assigned ? 1 : 0));
    for (const t of available) {
      if (due <= 0) break;
      const take = Math.min(t.left, due);
      t.left -= take;
      due -= take;
      used += take;
    }
    // 3. The month's export makes a tranche assigned next month.
    const credited = f.exportValue === null ? 0 : toGrosz(f.exportValue);
    if (credited > 0) tranches.push({ made: x, assigned: addMonths(x, 1), expires: addMonths(x, 13), value: credited, left: credited });
    let balance = 0;
    let expiringNext = 0;
    const next = addMonths(x, 1);
    for (const t of tranches) {
      if (t.assigned <= x && t.expires > x) balance += t.left;
      if (t.expires === next && t.assigned <= x) expiringNext += t.left;
    }
    row.credited = pln(credited);
    row.used = pln(used);
    row.refunded = pln(refunded);
    row.lost = pln(lost);
    row.balance = pln(balance);
    row.expiringNext = pln(expiringNext);
    row.cashForEnergy = f.energyCost === null ? null : pln(cost - used);
    out.push(row);
  }
  return out;
}

/** A bank entry before the first month (kWh already credited, e.g. from an invoice). */
export interface OpeningBankEntry {
  /** The month it entered. */
  made: string;
  kWh: number;
}

/** The net-metering bank over consecutive months (rules at the top). */
export function bankLedger(months: readonly MonthFlows[], ratio: number, opening: readonly OpeningBankEntry[] = []): LedgerMonth[] {
  const entries = opening.map((o) => ({ made: o.made, expires: addMonths(o.made, 12), left: toMicroKWh(o.kWh) }));
  const out: LedgerMonth[] = [];
  for (const f of months) {
    const row = emptyMonth(f);
    const x = f.month;
    row.missingPrice = false;
    let lostKWh = 0;
    for (const e of entries) {
      if (e.expires === x && e.left > 0) {
        lostKWh += e.left;
        e.left = 0;
      }
    }
    const credited = Math.round(toMicroKWh(f.nettedExportKWh) * ratio);
    if (credited > 0) entries.push({ made: x, expires: addMonths(x, 12), left: credited });
    const imp = toMicroKWh(f.nettedImportKWh);
    let due = imp;
    let usedKWh = 0;
    for (const e of entries) {
      if (due <= 0) break;
      if (e.expires <= x) continue;
      const take = Math.min(e.left, due);
      e.left -= take;
      due -= take;
      usedKWh += take;
    }
    let bank = 0;
    for (const e of entries) if (e.expires > x) bank += e.left;
    const cost = f.energyCost === null ? null : toGrosz(f.energyCost);
    const saved = cost === null || imp === 0 ? 0 : Math.round((cost * usedKWh) / imp);
    row.used = pln(saved);
    row.cashForEnergy = cost === null ? null : pln(cost - saved);
    row.bankKWh = kwh(bank);
    row.bankCreditedKWh = kwh(credited);
    row.bankUsedKWh = kwh(usedKWh);
    row.bankLostKWh = kwh(lostKWh);
    out.push(row);
  }
  return out;
}
