import { addLocalDays, parameterInfo, type ReadingInterval, startOfLocalDay } from '@phasewatch/shared';
import { type ReadingsRepository, type ReadingsService, releaseColumns } from '../readings/index.js';

const DAY = 86_400_000;
const WIDTH: Record<Exclude<ReadingInterval, 'raw' | '24h'>, number> = { '15m': 900_000, '30m': 1_800_000, '1h': 3_600_000 };

/** What an export reads the device's data through. */
export interface ExportSource {
  readings: ReadingsService;
  repo: ReadingsRepository;
}

export interface ExportRange {
  deviceId: number;
  /** The owner's zone: local days of `24h` buckets, times of the file. */
  tz: string;
  /** Catalogue names, in the file's column order. */
  params: readonly string[];
  interval: ReadingInterval;
  from: number;
  to: number;
}

/**
 * A block of rows in time order: `ts[i]` is a reading's time (raw) or a bucket's start, `cols[j][i]` the
 * value of `params[j]` (NaN: none). Raw rows carry the values as sent (a counter's reading); buckets the
 * mean of an instantaneous parameter and the energy of a counter in the bucket. `done` is the share of the
 * range read so far (progress).
 */
export interface ExportBlock {
  ts: ArrayLike<number>;
  cols: ArrayLike<number>[];
  done: number;
}

/** The pieces the range is read in: a day of raw rows, a week of quarter-hours to hours, a month of days. */
export function exportPieces(r: Pick<ExportRange, 'interval' | 'from' | 'to' | 'tz'>): [number, number][] {
  const out: [number, number][] = [];
  if (r.interval === 'raw') {
    for (let a = r.from; a < r.to; a = Math.min(r.to, Math.floor(a / DAY) * DAY + DAY))
      out.push([a, Math.min(r.to, Math.floor(a / DAY) * DAY + DAY)]);
    return out;
  }
  if (r.interval === '24h') {
    for (let a = startOfLocalDay(r.from, r.tz); a < r.to; ) {
      const b = Math.min(r.to, addLocalDays(a, 31, r.tz));
      out.push([a, b]);
      a = b;
    }
    return out;
  }
  const w = WIDTH[r.interval];
  // Whole weeks are whole buckets of every width: a piece ends where the next one's first bucket starts.
  for (let a = Math.floor(r.from / w) * w; a < r.to; ) {
    const b = Math.min(r.to, a + 7 * DAY);
    out.push([a, b]);
    a = b;
  }
  return out;
}

/**
 * Parameters the device sent in the range, among `asked` (catalogue order), from the local-day rollups:
 * what "all parameters" exports, and how an export tells which asked-for ones hold anything.
 */
export async function presentParameters(src: ExportSource, r: Pick<ExportRange, 'deviceId' | 'tz' | 'from' | 'to'>): Promise<string[]> {
  const answer = await src.readings.readings(r.deviceId, r.tz, { from: r.from, to: r.to, interval: '24h' });
  const names = Object.keys(answer.series);
  releaseColumns(answer);
  // Raw rows newer than the rollups of a day in progress are in the answer too (the service joins them).
  return names;
}

/**
 * The range's rows, block by block (memory stays that of two blocks whatever the range). The next piece
 * is asked for while the caller formats the current one: on PostgreSQL the query's round trips then
 * overlap the formatting instead of adding to it.
 */
export async function* exportBlocks(src: ExportSource, r: ExportRange, signal?: AbortSignal): AsyncGenerator<ExportBlock> {
  const pieces = exportPieces(r);
  const span = Math.max(1, r.to - r.from);
  const counters = r.params.map((p) => parameterInfo(p)?.kind === 'counter');
  const read = async ([a, b]: [number, number]): Promise<{ block: ExportBlock; release?: () => void }> => {
    const done = Math.min(1, (b - r.from) / span);
    if (r.interval === 'raw') {
      const raw = await src.repo.raw(r.deviceId, a, b, r.params);
      return { block: { ts: raw.ts, cols: raw.cols, done } };
    }
    const answer = await src.readings.readings(r.deviceId, r.tz, { from: a, to: b, interval: r.interval, params: [...r.params] });
    const empty = new Float64Array(answer.ts.length).fill(Number.NaN);
    const cols = r.params.map((p, j) => {
      const s = answer.series[p];
      if (!s) return empty;
      if (s.kind === 'counter') return counters[j] ? s.delta : empty;
      if (s.kind === 'instant') return s.avg;
      return s.values;
    });
    return { block: { ts: answer.ts, cols, done }, release: () => releaseColumns(answer) };
  };
  let next: Promise<Awaited<ReturnType<typeof read>>> | null = pieces[0] ? read(pieces[0]) : null;
  for (let k = 0; next; k++) {
    signal?.throwIfAborted();
    const cur = await next;
    const following = pieces[k + 1];
    next = following ? read(following) : null;
    // A read ahead that fails while this block is written surfaces when it is awaited.
    next?.catch(() => {});
    try {
      yield cur.block;
    } finally {
      cur.release?.();
    }
  }
}

/** A value as the file writes it: decimal point, no exponent, no thousands separator; empty for none. */
export function plainNumber(v: number): string {
  if (Number.isNaN(v)) return '';
  const s = String(v);
  if (!s.includes('e')) return s;
  // Below 1e-6 JavaScript writes an exponent; a meter's value never needs more than 12 decimals.
  return v.toFixed(12).replace(/0+$/, '').replace(/\.$/, '');
}

/** The column header of a parameter: `<parameter> [<unit>]`. */
export function columnName(param: string): string {
  return `${param} [${parameterInfo(param)?.unit ?? ''}]`;
}
