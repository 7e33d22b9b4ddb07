/** A reading as the live cache and the device answers hold it: epoch ms and parameter values. */
export interface LatestReading {
  ts: number;
  values: Record<string, number>;
}

/**
 * The newer of the reading loaded with the page and the last one the hub pushed. A module of its own so
 * the dashboard needs neither the readings query nor date parsing in its first chunk.
 */
export function newestReading(pushed: LatestReading | null, loaded: LatestReading | null | undefined): LatestReading | null {
  if (!loaded) return pushed;
  if (!pushed) return loaded;
  return pushed.ts >= loaded.ts ? pushed : loaded;
}
