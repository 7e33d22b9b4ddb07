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
 * page (waiting `retryMs`, doubled each time). Throws when a page keeps failing.
 */
export async function fetchRceDay(
  baseUrl: string,
  date: string,
  opts: { attempts?: number; retryMs?: number; fetchFn?: typeof fetch; signal?: AbortSignal } = {},
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
        const res = await f(url, { headers: { accept: 'application/json' }, ...(opts.signal ? { signal: opts.signal } : {}) });
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

/**
 * A user's CSV of RCE prices: a header line naming a time column (`dtime_utc` — the period's end in UTC,
 * as PSE exports it — or `start_utc`, the period's start) and `rce_pln`; `,` or `;` separated; a decimal
 * comma is accepted. Answers the rows, or the first bad line (1-based) for a 400.
 */
export function parseRceCsv(text: string): { rows: RceRow[] } | { line: number } {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const head = lines[0];
  if (!head) return { line: 1 };
  const sep = head.includes(';') ? ';' : ',';
  const cols = head.split(sep).map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase());
  const endCol = cols.indexOf('dtime_utc');
  const startCol = cols.indexOf('start_utc');
  const priceCol = cols.indexOf('rce_pln');
  if ((endCol < 0 && startCol < 0) || priceCol < 0) return { line: 1 };
  const rows: RceRow[] = [];
  for (let i = 1; i < lines.length; i++) {
    const cells = (lines[i] as string).split(sep).map((c) => c.trim().replace(/^"|"$/g, ''));
    const t = utcMs(cells[startCol >= 0 ? startCol : endCol] ?? '');
    const raw = cells[priceCol] ?? '';
    const price = /^-?\d+([.,]\d+)?$/.test(raw) ? Number(raw.replace(',', '.')) : Number.NaN;
    if (!Number.isFinite(t) || !Number.isFinite(price) || Math.abs(price) > 100_000) return { line: i + 1 };
    rows.push({ ts: startCol >= 0 ? t : t - Q, price, publishedAt: null });
  }
  return { rows };
}
