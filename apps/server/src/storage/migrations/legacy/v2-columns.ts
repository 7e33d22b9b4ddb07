/*
 * FROZEN: a copy of modules/readings/readings.columns.ts as it was when migrations 0006 and 0010 were written (the v2
 * rollups: packed blobs of quarter-hour and hour levels, local-day rows), so those migrations keep their
 * behaviour when the live code moves on. Do not change it; nothing outside storage/migrations may import it.
 */
/**
 * Reused memory for the long columns of a read. A 10-parameter year of quarter-hours builds ~100
 * columns of 35,040 doubles (the level read from the packed rows, its runs placed on the grid, the
 * answer): ~27 MB of fresh array buffers a request. Fresh, they cost the page faults of first touch
 * (~30 µs each on this VM, ~1,000 a read) and, as external memory, a full garbage collection every
 * second or third read; together they doubled a read's median time over its fastest. Columns taken
 * here and given back when the answer is written come from the same pages next time.
 *
 * Only columns taken here and not yet given back are accepted back (so giving one twice, or giving a
 * column some other code allocated, does nothing); the pool is bounded, and emptied when idle.
 */

/** Shorter columns are allocated fresh: cheap, and malloc reuses their memory by itself. */
const MIN_POOLED = 4096;
/** Bytes of free columns kept at most (a 10-parameter year read takes ~27 MB). */
const MAX_POOLED_BYTES = 64 * 1024 * 1024;
/** Free columns are dropped after this long without a read giving any back. */
const IDLE_MS = 30_000;

const free = new Map<number, Float64Array[]>();
const lent = new WeakSet<Float64Array>();
let pooledBytes = 0;
let idleTimer: NodeJS.Timeout | null = null;

function clearFree(): void {
  free.clear();
  pooledBytes = 0;
}

/** A column of `size` doubles with undefined content: the caller writes every element (or fills it). */
export function takeColumn(size: number): Float64Array {
  if (size < MIN_POOLED) return new Float64Array(size);
  const col = free.get(size)?.pop();
  if (col) pooledBytes -= col.byteLength;
  const out = col ?? new Float64Array(size);
  lent.add(out);
  return out;
}

/** A column of `size` doubles set to `v`. */
export function filledColumn(size: number, v: number): Float64Array {
  return takeColumn(size).fill(v);
}

/** Gives a column back once nothing reads it any more. Anything not taken here (or given back already) is ignored. */
export function giveColumn(col: unknown): void {
  if (!(col instanceof Float64Array) || !lent.has(col)) return;
  lent.delete(col);
  if (pooledBytes + col.byteLength > MAX_POOLED_BYTES) clearFree();
  let list = free.get(col.length);
  if (!list) {
    list = [];
    free.set(col.length, list);
  }
  list.push(col);
  pooledBytes += col.byteLength;
  if (idleTimer) idleTimer.refresh();
  else
    idleTimer = setTimeout(() => {
      clearFree();
      idleTimer = null;
    }, IDLE_MS).unref();
}

/** Bytes held by free columns (for tests). */
export function pooledColumnBytes(): number {
  return pooledBytes;
}
