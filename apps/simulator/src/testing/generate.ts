import type { DeviceModel } from '../models/device-model.js';
import { ReadingSerializer } from '../serialize.js';

export interface Row {
  ts: number;
  iso: string;
  gap: boolean;
  /** Whether a deliberate reset happened since the previous row. */
  reset: boolean;
  v: Record<string, number>;
}

/**
 * Steps a model from `from` to `to` (inclusive) every `stepMs` and returns every reading as the ingest
 * endpoint would receive it (serialised and parsed back), including the ones inside deliberate gaps.
 */
export function generate(model: DeviceModel, from: number, to: number, stepMs = 60_000): Row[] {
  const s = new ReadingSerializer(model);
  const rows: Row[] = [];
  let prev: number | null = model.lastTs;
  for (let ts = from; ts <= to; ts += stepMs) {
    model.step(ts);
    const parsed = JSON.parse(s.reading(ts)) as { ts: string; values: Record<string, number> };
    rows.push({ ts, iso: parsed.ts, gap: model.isGap(ts), reset: prev !== null && model.resetBetween(prev, ts), v: parsed.values });
    prev = ts;
  }
  return rows;
}

/** A value of a row that must be present. */
export function val(row: Row, name: string): number {
  const x = row.v[name];
  if (x === undefined) throw new Error(`${name} missing at ${row.iso}`);
  return x;
}
