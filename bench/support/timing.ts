/**
 * Median of `runs` timed calls, after `warm` untimed ones (the last call's answer is returned, to be
 * compared): a server answers the same read many times, and the first calls of a read run its loops
 * before V8 has compiled them. `done` gets each answer that is not kept (the readings route gives its
 * columns back once it has written them, readings.columns.ts).
 */
export async function timed<T>(warm: number, runs: number, fn: () => Promise<T>, done?: (v: T) => void): Promise<{ ms: number; value: T }> {
  let value = await fn();
  for (let i = 1; i < warm; i++) {
    done?.(value);
    value = await fn();
  }
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    done?.(value);
    const t0 = performance.now();
    value = await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)] as number, value };
}
