import type { QuarterEnergy } from '@phasewatch/shared';
import { type ReadingsColumns, type ReadingsService, releaseColumns } from '../readings/index.js';

const Q = 15 * 60_000;
/** Active import energy: the 3-phase total where a device sends it, else the sum of its phases. */
const TOTAL = 'energy3phases_import';
const PHASES = ['eai1', 'eai2', 'eai3'] as const;
const PARAMS = [TOTAL, ...PHASES];

/** Where quarter-hours come from: the stored rollups (always), or folded from raw rows (the benchmark's baseline). */
export type EnergySource = 'rollups' | 'raw';

/**
 * Quarter-hour energy of devices for tariff costs, read through the readings service (stored rollups
 * below each device's watermark, raw rows only above it: never a scan of raw rows for a long range).
 * A bucket's energy is the device's `energy3phases_import`, or the sum of `eai1…3` where the total is
 * absent; the devices' energies are added bucket by bucket.
 */
export class QuarterEnergyReader {
  constructor(private readonly readings: ReadingsService) {}

  /** The summed energy of each quarter-hour in [from, to) (UTC ms; `from` floored to a quarter-hour). */
  async read(deviceIds: readonly number[], tz: string, from: number, to: number, source: EnergySource = 'rollups'): Promise<QuarterEnergy> {
    const start = Math.floor(from / Q) * Q;
    const n = Math.max(0, Math.ceil((to - start) / Q));
    const ts = new Float64Array(n);
    const kWh = new Float64Array(n);
    for (let k = 0; k < n; k++) ts[k] = start + k * Q;
    if (n === 0) return { ts, kWh };
    for (const id of deviceIds) {
      const q = { from: start, to, interval: '15m' as const, params: PARAMS };
      const answer: ReadingsColumns =
        source === 'raw' ? await this.readings.readingsFromRaw(id, tz, q) : await this.readings.readings(id, tz, q);
      try {
        addImport(answer, start, kWh);
      } finally {
        releaseColumns(answer);
      }
    }
    return { ts, kWh };
  }
}

/** Adds an answer's import energy per bucket into `kWh` (slot = (bucket − start) / 15 min). */
function addImport(answer: ReadingsColumns, start: number, kWh: Float64Array): void {
  const delta = (p: string) => {
    const s = answer.series[p];
    return s?.kind === 'counter' ? s.delta : undefined;
  };
  const total = delta(TOTAL);
  const phases = PHASES.map(delta).filter((c): c is Float64Array => c !== undefined);
  for (let i = 0; i < answer.ts.length; i++) {
    const slot = Math.round(((answer.ts[i] as number) - start) / Q);
    if (slot < 0 || slot >= kWh.length) continue;
    let e = total ? (total[i] as number) : Number.NaN;
    if (Number.isNaN(e)) {
      e = 0;
      for (const c of phases) {
        const v = c[i] as number;
        if (!Number.isNaN(v)) e += v;
      }
    }
    kWh[slot] = (kWh[slot] as number) + e;
  }
}
