import { PARAMETER_NAMES } from '@phasewatch/shared';
import type { ReadingsCommitted } from '../events/bus.js';

/** A commit of reading objects (JSON bodies, MQTT messages) as the bus announces it. */
export class CommittedObjects implements ReadingsCommitted {
  readonly count: number;
  readonly ts: number[];

  constructor(
    readonly deviceId: number,
    readonly userId: number,
    private readonly readings: readonly { ts: number; values: Record<string, number> }[],
  ) {
    this.count = readings.length;
    this.ts = readings.map((r) => r.ts);
  }

  column(name: string): ArrayLike<number> | undefined {
    const list = this.readings;
    // A live reading: no typed array for one value.
    if (list.length === 1) {
      const v = list[0]?.values[name];
      return v === undefined ? undefined : [v];
    }
    let out: Float64Array | undefined;
    for (let i = 0; i < list.length; i++) {
      const v = list[i]?.values[name];
      if (v === undefined) continue;
      if (!out) out = new Float64Array(list.length).fill(Number.NaN);
      out[i] = v;
    }
    return out;
  }
}

/** A commit read into columns (`ParsedIngest`): the columns as they are, no copy. */
export class CommittedColumns implements ReadingsCommitted {
  private byName: Map<string, Float64Array> | null = null;

  constructor(
    readonly deviceId: number,
    readonly userId: number,
    readonly count: number,
    readonly ts: Float64Array,
    private readonly index: readonly number[],
    private readonly cols: readonly Float64Array[],
  ) {}

  column(name: string): ArrayLike<number> | undefined {
    if (!this.byName) {
      this.byName = new Map();
      for (let j = 0; j < this.index.length; j++)
        this.byName.set(PARAMETER_NAMES[this.index[j] as number] as string, this.cols[j] as Float64Array);
    }
    return this.byName.get(name);
  }
}
