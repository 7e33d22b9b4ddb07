/** Relative-time formatters kept by locale and style (see intl.ts for why formatters are kept). */
const formats = new Map<string, Intl.RelativeTimeFormat>();

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/**
 * How long ago `ts` was, in the user's language: "3 seconds ago", "5 min. ago", "2 hours ago",
 * "3 days ago" (whole units, rounded down; "now" under a second). A time slightly in the future (a
 * device clock ahead) reads as now.
 */
export function timeAgo(ts: number, now: number, locale: string, style: Intl.RelativeTimeFormatStyle = 'long'): string {
  const key = `${locale}|${style}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.RelativeTimeFormat(locale, { style, numeric: 'auto' });
    if (formats.size < 16) formats.set(key, f);
  }
  const age = Math.max(0, now - ts);
  for (const [unit, ms] of UNITS) if (age >= ms) return f.format(-Math.floor(age / ms), unit);
  return f.format(0, 'second');
}
