/** [from, to] in canvas pixels where a line series is not drawn (uPlot's `Series.gaps`). */
export type PixelGaps = [from: number, to: number][];

/**
 * The most time between two neighbouring points a line may bridge: one missing bucket is a gap (a device
 * offline for a quarter-hour shows as one, not as a straight line across it); raw readings, whose spacing
 * is the device's, are bridged up to 15 minutes (the energy rules' gap limit).
 */
export function maxBridgeMs(interval: string, bucketMs: number): number {
  return interval === 'raw' ? 15 * 60_000 : 1.5 * bucketMs;
}

/**
 * uPlot's gaps of a series (from null values) with the spans where two neighbouring points are further
 * apart in time than `maxDeltaMs` added, merged and in order: answers leave buckets without data out,
 * so without this a line would join the readings either side of a day without data.
 */
export function withTimeGaps(
  xs: ArrayLike<number>,
  ys: ArrayLike<number | null | undefined>,
  i0: number,
  i1: number,
  maxDeltaMs: number,
  toPx: (x: number) => number,
  nullGaps: PixelGaps,
): PixelGaps {
  const added: PixelGaps = [];
  let prev = -1;
  for (let i = i0; i <= i1; i++) {
    const y = ys[i];
    if (y === null || y === undefined) continue;
    if (prev >= 0 && (xs[i] as number) - (xs[prev] as number) > maxDeltaMs) {
      added.push([Math.round(toPx(xs[prev] as number)), Math.round(toPx(xs[i] as number))]);
    }
    prev = i;
  }
  if (added.length === 0) return nullGaps;
  const all = [...nullGaps, ...added].sort((a, b) => a[0] - b[0]);
  const out: PixelGaps = [];
  for (const g of all) {
    const last = out[out.length - 1];
    if (last && g[0] <= last[1]) last[1] = Math.max(last[1], g[1]);
    else out.push([g[0], g[1]]);
  }
  return out;
}

/**
 * Indices of values a line cannot show (no neighbour it joins: the one before and the one after are
 * missing, or further away than `maxDeltaMs`): drawn as points, so a device with one reading, or one
 * bucket between gaps, shows it instead of an empty chart.
 */
export function isolatedPoints(
  xs: ArrayLike<number>,
  ys: ArrayLike<number | null | undefined>,
  i0: number,
  i1: number,
  maxDeltaMs: number,
): number[] {
  const has = (i: number) => i >= i0 && i <= i1 && ys[i] !== null && ys[i] !== undefined;
  const out: number[] = [];
  for (let i = i0; i <= i1; i++) {
    if (!has(i)) continue;
    const joinsBefore = has(i - 1) && (xs[i] as number) - (xs[i - 1] as number) <= maxDeltaMs;
    const joinsAfter = has(i + 1) && (xs[i + 1] as number) - (xs[i] as number) <= maxDeltaMs;
    if (!joinsBefore && !joinsAfter) out.push(i);
  }
  return out;
}
