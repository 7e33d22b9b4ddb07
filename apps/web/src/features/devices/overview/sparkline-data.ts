import type { DeviceKind, ReadingsResponse } from '@phasewatch/shared';

/** The parameters the overview's sparkline asks for: what the dashboard shows as the device's figure. */
export function sparkParameters(kind: DeviceKind): string[] {
  switch (kind) {
    case 'thermostat':
      return ['tempmain'];
    case 'singlePhase':
      return ['pave1'];
    default:
      return ['power3phases', 'pave1', 'pave2', 'pave3'];
  }
}

export interface SparkSeries {
  /** Bucket starts (epoch ms) and the mean of each bucket; null where the device sent nothing. */
  ts: number[];
  values: (number | null)[];
  unit: string;
  min: number | null;
  max: number | null;
  mean: number | null;
}

/**
 * One line from a readings answer: total power (`power3phases`, else the sum of the phase powers that
 * bucket has), a single-phase meter's power or a thermostat's temperature.
 */
export function sparkSeries(res: Pick<ReadingsResponse, 'ts' | 'series'>, kind: DeviceKind): SparkSeries {
  const avg = (name: string): (number | null)[] | undefined => {
    const s = res.series[name];
    return s && s.kind === 'instant' ? s.avg : s && s.kind === 'raw' ? s.values : undefined;
  };
  const unit = kind === 'thermostat' ? '°C' : 'W';
  const total = avg('power3phases');
  const phases = ['pave1', 'pave2', 'pave3'].map(avg).filter((p): p is (number | null)[] => !!p);
  const primary = kind === 'thermostat' ? avg('tempmain') : kind === 'singlePhase' ? avg('pave1') : undefined;
  const values = res.ts.map((_, i) => {
    if (primary) return primary[i] ?? null;
    const t = total?.[i];
    if (typeof t === 'number') return t;
    const parts = phases.map((p) => p[i]).filter((v): v is number => typeof v === 'number');
    return parts.length ? parts.reduce((a, b) => a + b, 0) : null;
  });
  const present = values.filter((v): v is number => v !== null);
  return {
    ts: res.ts,
    values,
    unit,
    min: present.length ? Math.min(...present) : null,
    max: present.length ? Math.max(...present) : null,
    mean: present.length ? present.reduce((a, b) => a + b, 0) / present.length : null,
  };
}

/**
 * Where the values sit on the time axis: each at its time in the window `[from, to]`, so 4 minutes of data
 * take 4 minutes of a 24-hour axis, not all of it. Without it, values are spread evenly (index order).
 */
export interface SparkPlace {
  ts: readonly number[];
  from: number;
  to: number;
}

/** The sparkline's vertical scale: a little margin top and bottom; a flat line sits in the middle. */
function scaleOf(values: readonly (number | null)[], width: number, height: number, place?: SparkPlace) {
  const present = values.filter((v): v is number => v !== null);
  const min = Math.min(...present);
  const max = Math.max(...present);
  const span = max - min || 1;
  const pad = 2;
  const flat = max === min;
  return {
    x: (i: number) =>
      place && place.to > place.from
        ? Math.min(width, Math.max(0, (((place.ts[i] ?? place.from) - place.from) / (place.to - place.from)) * width))
        : values.length <= 1
          ? width / 2
          : (i / (values.length - 1)) * width,
    y: (v: number) => (flat ? height / 2 : pad + (1 - (v - min) / span) * (height - 2 * pad)),
  };
}

/**
 * SVG path data of the values no line passes through (both neighbours missing: one reading, a bucket
 * between gaps), as zero-length sub-paths: drawn with round caps they are dots. Empty when there are none.
 */
export function sparkDots(values: readonly (number | null)[], width: number, height: number, place?: SparkPlace): string {
  if (!values.some((v) => v !== null)) return '';
  const { x, y } = scaleOf(values, width, height, place);
  let d = '';
  values.forEach((v, i) => {
    if (v === null || values[i - 1] != null || values[i + 1] != null) return;
    d += `M${x(i).toFixed(1)} ${y(v).toFixed(1)}h0`;
  });
  return d;
}

/**
 * SVG path data of a line through the values in a `width` × `height` box (a little margin top and bottom):
 * one sub-path per run of values, so a gap stays a gap. Empty when there is nothing to draw.
 */
export function sparkPath(values: readonly (number | null)[], width: number, height: number, place?: SparkPlace): string {
  if (!values.some((v) => v !== null)) return '';
  const { x, y } = scaleOf(values, width, height, place);
  let d = '';
  let open = false;
  values.forEach((v, i) => {
    if (v === null) {
      open = false;
      return;
    }
    d += `${open ? 'L' : 'M'}${x(i).toFixed(1)} ${y(v).toFixed(1)}`;
    open = true;
  });
  return d;
}
