import type { CounterRules } from '@phasewatch/shared';
import { COUNT_PARAM, type Packed, type PackedRow, type PackedWrite, packedOf, spanOf } from './readings.packed.js';
import { foldLevel, type Level, type ParamSet, sliceLevel } from './readings.rollup.js';
import type { TableWrite, Tx } from './readings.sql.js';

/* The rollup tables' reads and writes in the shapes the SQL runner takes. */

export const inList = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** The stored spans of a level for some parameters (and the reading counts) in [lo, hi). */
export async function readPacked(
  tx: Tx,
  deviceId: number,
  width: number,
  names: readonly string[],
  lo: number,
  hi: number,
): Promise<Packed> {
  const params = [...names, COUNT_PARAM];
  const rows = await tx.blobArrays(
    `SELECT param, span, data FROM rollup_packed WHERE device_id = ? AND width = ? AND param IN (${inList(params.length)}) AND span >= ? AND span < ?`,
    [deviceId, width, ...params, spanOf(lo, width), Math.min(hi, Number.MAX_SAFE_INTEGER)],
  );
  return packedOf(rows.map(([param, span, data]) => ({ param, span, data }) as PackedRow));
}

export function packedTableWrite(deviceId: number, rows: readonly PackedWrite[]): TableWrite {
  return {
    table: 'rollup_packed',
    key: ['device_id', 'width', 'param', 'span'],
    cols: ['data'],
    count: rows.length,
    keepOld: false,
    rowsPerStatement: 80,
    fill(k, out, offset) {
      const w = rows[k] as PackedWrite;
      out[offset] = deviceId;
      out[offset + 1] = w.width;
      out[offset + 2] = w.param;
      out[offset + 3] = w.span;
      out[offset + 4] = w.data;
    },
  };
}

export interface DayRow {
  bucket: number;
  end: number;
  n: number;
  data: Buffer;
}

export function dayTableWrite(deviceId: number, tz: string, rows: readonly DayRow[]): TableWrite {
  return {
    table: 'rollup_day',
    key: ['device_id', 'bucket'],
    cols: ['bucket_end', 'tz', 'n', 'data'],
    count: rows.length,
    keepOld: false,
    rowsPerStatement: 50,
    fill(k, out, offset) {
      const r = rows[k] as DayRow;
      out[offset] = deviceId;
      out[offset + 1] = r.bucket;
      out[offset + 2] = r.end;
      out[offset + 3] = tz;
      out[offset + 4] = r.n;
      out[offset + 5] = r.data;
    },
  };
}

/** Quarter-hours folded into the local days whose starts are `edges` (plus the end of the last day). */
export function foldDays(m15: Level, edges: readonly number[], ps: ParamSet, rules: CounterRules): Level {
  let e = 0;
  return foldLevel(
    sliceLevel(m15, edges[0] as number, edges[edges.length - 1] as number, ps),
    ps,
    (t) => {
      while (t >= (edges[e + 1] as number)) e++;
      return edges[e] as number;
    },
    rules,
  );
}

/** The only code touching `readings` and the rollup tables. */
