/**
 * RCEm, the monthly market price of electricity for prosumers (PLN/MWh, net of VAT and excise), as shipped
 * data: every value with its source and publication date, every later correction as a new version.
 *
 * Built from the research note `shared/tariffs/prosumer-settlement.md` §3 (its [Sn] sources are the URLs
 * below). Only values with a citable source are shipped; months marked "—" there (not found) and the note's
 * unverified candidates are left out, so a month without a value says so and no price is invented.
 *
 * - `publishedAt` is the date the value was published where a source gives it; where it does not, it is the
 *   11th of the following month (PSE publishes around then, [S6][S51][S3]) and `publishedAtEstimated` is true.
 *   Corrections taken from the Nov 2023 table [S5] carry 2023-11-01 (estimated) as their date.
 * - The 2026 values are secondary (parsed from the PSE table in a test file, [S14]); `secondary` marks them.
 * - April 2023: 505.60 is listed as the first publication (the note's reading, UNCERTAIN) and 505.44 [S5] as
 *   the corrected value. April 2024 ("about 250") has no exact figure and is not shipped.
 * - The user may enter their own value per month (from an invoice); it wins over both versions.
 */

export interface RcemVersion {
  /** PLN/MWh. */
  price: number;
  /** `YYYY-MM-DD`. */
  publishedAt: string;
  publishedAtEstimated: boolean;
  /** Where the value comes from (a public page). */
  source: string;
  /** Value from a secondary source (third-party code), not the PSE page itself. */
  secondary?: boolean;
}

/** Which shipped version of a month to use: the latest correction, or the value as first published (as invoiced). */
export const RCEM_VERSION_CHOICES = ['latest', 'first'] as const;
export type RcemVersionChoice = (typeof RCEM_VERSION_CHOICES)[number];

const S = {
  S1: 'https://www.gramwzielone.pl/energia-sloneczna/20148621/cena-energii-produkowanej-przez-prosumentow-wyraznie-spadla',
  S3: 'https://www.viessmann.pl/pl/prasa/aktualnosci-branzowe/Lipcowa-rynkowa-cena-miesieczna-dla-prosumentow-opublikowana.html',
  S4: 'https://globenergia.pl/prosumenci-znow-drozej-sprzedadza-energie-znamy-cene-rcem-za-grudzien/',
  S5: 'https://globenergia.pl/spadek-cen-o-prawie-100-zl-mwh-zla-wiadomosc-dla-prosumentow/',
  S6: 'https://globenergia.pl/cena-energii-dla-prosumentow-mocno-w-dol-czy-moze-byc-gorzej/',
  S7: 'https://globenergia.pl/cena-rcem-za-styczen-wraca-do-poziomow-z-lipca/',
  S8: 'https://globenergia.pl/cena-energii-dla-prosumentow-najnizsza-w-historii-tak-niska-nie-byla-od-poczatku-net-bilingu/',
  S9: 'https://gramwzielone.pl/energia-sloneczna/20214631/spadek-miesiecznej-ceny-energii-elektrycznej-jaka-jest-sytuacja-prosumentow',
  S10: 'https://gramwzielone.pl/energia-sloneczna/20306661/spadla-wartosc-energii-od-prosumentow-objetych-net-billingiem',
  S11: 'https://globenergia.pl/kolejny-rekord-rcem-stawka-dla-prosumentow-najnizsza-w-historii',
  S12: 'https://www.gramwzielone.pl/?p=20347157',
  S14: 'https://github.com/lkusinski/hass-energa-my-meter-api-net/blob/main/tests/test_deposit_rcem_rule.py',
} as const;

/** The 11th of the month after `month` (`YYYY-MM`): PSE's usual publication day. */
function usualPublication(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  return `${next}-11`;
}

type Row = [month: string, price: number, source: keyof typeof S, publishedAt?: string, secondary?: boolean];
const est = (month: string, price: number, source: keyof typeof S, secondary = false): RcemVersion => ({
  price,
  publishedAt: usualPublication(month),
  publishedAtEstimated: true,
  source: S[source],
  ...(secondary ? { secondary } : {}),
});
const at = (price: number, source: keyof typeof S, publishedAt: string, estimated: boolean): RcemVersion => ({
  price,
  publishedAt,
  publishedAtEstimated: estimated,
  source: S[source],
});
const NOV_2023 = '2023-11-01';

/** Single-version months: [month, price, source]. */
const SINGLE: Row[] = [
  ['2022-09', 710.03, 'S5'],
  ['2022-10', 575.48, 'S5'],
  ['2022-11', 701.67, 'S5'],
  ['2023-01', 594.59, 'S5'],
  ['2023-02', 668.51, 'S5'],
  ['2023-03', 508.9, 'S5'],
  ['2023-05', 381.44, 'S6', '2023-06-11'],
  ['2023-06', 454.62, 'S5'],
  ['2023-07', 440.38, 'S5'],
  ['2023-08', 413.37, 'S5'],
  ['2023-09', 405.51, 'S5'],
  ['2023-10', 311.67, 'S5'],
  ['2023-12', 308.33, 'S8'],
  ['2024-01', 437.02, 'S7'],
  ['2024-03', 249.12, 'S8'],
  ['2024-06', 330.47, 'S9'],
  ['2024-07', 283.59, 'S9'],
  ['2024-12', 468.28, 'S12'],
  ['2025-01', 480.01, 'S10'],
  ['2025-02', 442.02, 'S10'],
  ['2025-03', 182.96, 'S11'],
  ['2025-04', 163.19, 'S11'],
  ['2025-06', 136.3, 'S12'],
  ['2025-11', 382.88, 'S12'],
  ['2025-12', 466.08, 'S12'],
  ['2026-03', 191.95, 'S14', undefined, true],
  ['2026-04', 132.92, 'S14', undefined, true],
  ['2026-05', 191.37, 'S14', undefined, true],
  ['2026-06', 273.2, 'S14', undefined, true],
  ['2026-07', 262.88, 'S14', undefined, true],
  ['2026-08', 294.53, 'S14', undefined, true],
];

function build(): Record<string, readonly RcemVersion[]> {
  const t: Record<string, RcemVersion[]> = {};
  for (const [month, price, source, publishedAt, secondary] of SINGLE)
    t[month] = [publishedAt ? at(price, source, publishedAt, false) : est(month, price, source, secondary ?? false)];
  // Months with corrections, oldest version first.
  t['2022-06'] = [est('2022-06', 659.29, 'S3'), at(648.16, 'S3', '2022-08-11', false), at(656.04, 'S5', NOV_2023, true)];
  t['2022-07'] = [at(799.79, 'S3', '2022-08-11', false), at(796.27, 'S5', NOV_2023, true)];
  t['2022-08'] = [est('2022-08', 1019.06, 'S1'), at(1017.27, 'S5', NOV_2023, true)];
  t['2022-12'] = [est('2022-12', 716.8, 'S4'), at(723.49, 'S5', NOV_2023, true)];
  t['2023-04'] = [est('2023-04', 505.6, 'S10'), at(505.44, 'S5', NOV_2023, true)];
  return t;
}

/** Shipped RCEm versions per month `YYYY-MM`, oldest version first. */
export const RCEM_TABLE: Readonly<Record<string, readonly RcemVersion[]>> = build();

/** The value in force for a month: the user's own, else the shipped version chosen. */
export interface RcemInForce {
  month: string;
  price: number;
  publishedAt: string | null;
  source: 'shipped' | 'user';
  /** The shipped version's page (null for a user's value). */
  url: string | null;
  /** 1-based index of the shipped version used, and how many there are (0 for a user's value). */
  version: number;
  versions: number;
}

/**
 * RCEm in force for a month, or null when neither the user nor the table has one (the statement then says
 * the price is missing and credits nothing for that month).
 */
export function rcemFor(
  month: string,
  choice: RcemVersionChoice,
  userValues: ReadonlyMap<string, { price: number; enteredAt: string }> = new Map(),
  table: Readonly<Record<string, readonly RcemVersion[]>> = RCEM_TABLE,
): RcemInForce | null {
  const own = userValues.get(month);
  const shipped = table[month];
  if (own)
    return { month, price: own.price, publishedAt: own.enteredAt, source: 'user', url: null, version: 0, versions: shipped?.length ?? 0 };
  if (!shipped || shipped.length === 0) return null;
  const i = choice === 'first' ? 0 : shipped.length - 1;
  const v = shipped[i] as RcemVersion;
  return { month, price: v.price, publishedAt: v.publishedAt, source: 'shipped', url: v.source, version: i + 1, versions: shipped.length };
}
