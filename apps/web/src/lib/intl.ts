/**
 * Intl formatters kept for reuse. Creating one costs far more than formatting with it (tens of µs to
 * milliseconds; the first for a locale or zone loads its data): a device page formats hundreds of
 * values — live values, energy figures, every axis label of every chart redraw — and made a new
 * formatter for each. Keyed by locale and options; bounded (the keys come from a few fixed option sets,
 * the user's locale and zone).
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const LIMIT = 128;

function kept<F>(cache: Map<string, F>, key: string, make: () => F): F {
  let f = cache.get(key);
  if (!f) {
    if (cache.size >= LIMIT) cache.clear();
    f = make();
    cache.set(key, f);
  }
  return f;
}

export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return kept(numberFormats, `${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));
}

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat {
  return kept(dateFormats, `${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}
