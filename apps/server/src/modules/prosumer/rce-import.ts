/**
 * RCE prices (PLN/MWh per 15-minute settlement period) from PSE's public API and from a user's CSV file
 * (issue 33). Self-contained: plain data in, plain rows out, no storage, so the lead can move it into a job
 * or worker. Rows are keyed by the period's **start** in UTC ms: the API's `dtime_utc` is the period's end,
 * so start = end − 15 min (which also keys the autumn DST day's repeated hour apart; research note §4).
 */

const Q = 15 * 60_000;
/** PSE's endpoint (OData-style; `$filter=business_date eq 'YYYY-MM-DD'`, follow `nextLink`). */
export const DEFAULT_RCE_SOURCE_URL = 'https://api.raporty.pse.pl/api/rce-pln';

export interface RceRow {
  /** Start of the 15-minute period, UTC ms. */
  ts: number;
  /** PLN/MWh, net of VAT, may be negative. */
  price: number;
  publishedAt: number | null;
}

/** `YYYY-MM-DD HH:MM[:SS]` in UTC as epoch ms, or NaN. */
function utcMs(text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(text.trim());
  if (!m) return Number.NaN;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
}

/** Rows of one API page (`value` entries with `dtime_utc`, `rce_pln`, `publication_ts_utc`); malformed entries are skipped. */
export function rowsOfPage(page: unknown): { rows: RceRow[]; next: string | null } {
  const body = page as { value?: unknown; nextLink?: unknown; '@odata.nextLink'?: unknown };
  const rows: RceRow[] = [];
  for (const v of Array.isArray(body?.value) ? body.value : []) {
    const e = v as { dtime_utc?: unknown; rce_pln?: unknown; publication_ts_utc?: unknown };
    const end = typeof e.dtime_utc === 'string' ? utcMs(e.dtime_utc) : Number.NaN;
    const price = typeof e.rce_pln === 'number' ? e.rce_pln : typeof e.rce_pln === 'string' ? Number(e.rce_pln) : Number.NaN;
    if (!Number.isFinite(end) || !Number.isFinite(price)) continue;
    const pub = typeof e.publication_ts_utc === 'string' ? utcMs(e.publication_ts_utc) : Number.NaN;
    rows.push({ ts: end - Q, price, publishedAt: Number.isFinite(pub) ? pub : null });
  }
  const next =
    typeof body?.nextLink === 'string' ? body.nextLink : typeof body?.['@odata.nextLink'] === 'string' ? body['@odata.nextLink'] : null;
  return { rows, next: next as string | null };
}

/**
 * One business day's RCE from the API at `baseUrl`, following `nextLink`, with up to `attempts` tries per
 * page (waiting `retryMs`, doubled each time), each request bounded by `timeoutMs`. Throws when a page keeps
 * failing.
 */
export async function fetchRceDay(
  baseUrl: string,
  date: string,
  opts: { attempts?: number; retryMs?: number; fetchFn?: typeof fetch; signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<RceRow[]> {
  const attempts = opts.attempts ?? 3;
  const f = opts.fetchFn ?? fetch;
  const params = new URLSearchParams({ $filter: `business_date eq '${date}'`, $first: '200' });
  let url: string | null = `${baseUrl}?${params}`;
  const out: RceRow[] = [];
  for (let pages = 0; url && pages < 20; pages++) {
    let wait = opts.retryMs ?? 1000;
    let page: unknown;
    for (let a = 1; ; a++) {
      try {
        // Each request gives up after `timeoutMs` (30 s): a source that never answers must not hold the import.
        const timeout = AbortSignal.timeout(opts.timeoutMs ?? 30_000);
        const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
        const res = await f(url, { headers: { accept: 'application/json' }, signal });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        page = await res.json();
        break;
      } catch (err) {
        if (a >= attempts || opts.signal?.aborted) throw err;
        await new Promise((r) => setTimeout(r, wait));
        wait *= 2;
      }
    }
    const { rows, next } = rowsOfPage(page);
    out.push(...rows);
    url = next;
  }
  return out;
}

/** A CSV line not stored: its 1-based number and why. */
export interface RceCsvRefused {
  line: number;
  reason: 'time' | 'price' | 'columns' | 'duplicate';
}

/**
 * A user's CSV of RCE prices: a header line naming a time column (`dtime_utc` — the period's end in UTC,
 * as PSE exports it — or `start_utc`, the period's start) and `rce_pln`; `,` or `;` separated; a decimal
 * comma is accepted. Answers the good rows and the refused lines (1-based, with the reason: a time or price
 * that does not read, too few cells, a quarter given again — the first is kept), or `{ line: 1 }` when the
 * header names no such columns.
 */
export function parseRceCsv(text: string): { rows: RceRow[]; refused: RceCsvRefused[] } | { line: number } {
  const lines = text.split(/\r?\n/);
  let h = 0;
  while (h < lines.length && (lines[h] as string).trim() === '') h++;
  const head = lines[h];
  if (head === undefined) return { line: 1 };
  const sep = head.includes(';') ? ';' : ',';
  const cols = head.split(sep).map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase());
  const endCol = cols.indexOf('dtime_utc');
  const startCol = cols.indexOf('start_utc');
  const priceCol = cols.indexOf('rce_pln');
  if ((endCol < 0 && startCol < 0) || priceCol < 0) return { line: h + 1 };
  const timeCol = startCol >= 0 ? startCol : endCol;
  const rows: RceRow[] = [];
  const refused: RceCsvRefused[] = [];
  const seen = new Set<number>();
  for (let i = h + 1; i < lines.length; i++) {
    const text = lines[i] as string;
    if (text.trim() === '') continue;
    const line = i + 1;
    const cells = text.split(sep).map((c) => c.trim().replace(/^"|"$/g, ''));
    if (cells.length <= Math.max(timeCol, priceCol)) {
      refused.push({ line, reason: 'columns' });
      continue;
    }
    const t = utcMs(cells[timeCol] as string);
    const raw = cells[priceCol] as string;
    const price = /^-?\d+([.,]\d+)?$/.test(raw) ? Number(raw.replace(',', '.')) : Number.NaN;
    if (!Number.isFinite(t)) refused.push({ line, reason: 'time' });
    else if (!Number.isFinite(price) || Math.abs(price) > 100_000) refused.push({ line, reason: 'price' });
    else {
      const ts = startCol >= 0 ? t : t - Q;
      if (seen.has(ts)) refused.push({ line, reason: 'duplicate' });
      else {
        seen.add(ts);
        rows.push({ ts, price, publishedAt: null });
      }
    }
  }
  return { rows, refused };
}
