import type { ChartData } from './chart-data';

/** A row of the table view: a bucket's start and one value per column, as the chart draws them. */
export interface TableRow {
  index: number;
  ts: number;
  values: (number | null)[];
  estimated: boolean;
}

/** Sort by the time (`ts`) or by column i. */
export type SortKey = 'ts' | number;
export type SortDir = 'asc' | 'desc';

/** One row per bucket, in time order. */
export function tableRows(data: ChartData): TableRow[] {
  const est = new Set(data.estimated);
  return data.ts.map((ts, index) => ({
    index,
    ts,
    values: data.columns.map((c) => c.values[index] ?? null),
    estimated: est.has(index),
  }));
}

/** Rows sorted by a key; empty values go last either way, ties keep time order. */
export function sortRows(rows: readonly TableRow[], key: SortKey, dir: SortDir): TableRow[] {
  const sign = dir === 'asc' ? 1 : -1;
  const val = (r: TableRow) => (key === 'ts' ? r.ts : (r.values[key] ?? null));
  return [...rows].sort((a, b) => {
    const x = val(a);
    const y = val(b);
    if (x === null && y === null) return a.ts - b.ts;
    if (x === null) return 1;
    if (y === null) return -1;
    return x === y ? a.ts - b.ts : (x - y) * sign;
  });
}

/** Page `page` (1-based) of `size` rows, and the page count; a page past the end shows the last. */
export function pageOf<T>(rows: readonly T[], page: number, size: number): { rows: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const p = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  return { rows: rows.slice((p - 1) * size, p * size), page: p, pages };
}
