import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import type { CheckpointerData } from './checkpointer.js';

/**
 * The checkpointer thread (see checkpointer.ts): its own connection, a passive checkpoint whenever the
 * WAL changed since the last one, at most every `everyMs`.
 */
const { file, everyMs } = workerData as CheckpointerData;
const sqlite = new SqliteDatabase(file);
// A checkpoint copies frames from the WAL file to the database file: no page cache worth keeping.
sqlite.pragma('cache_size = -512');
// This connection never writes, and must not checkpoint when it closes (the others may be writing).
sqlite.pragma('wal_autocheckpoint = 0');

let seen = '';
const timer = setInterval(() => {
  let stamp: string;
  try {
    const s = statSync(`${file}-wal`);
    stamp = `${s.size}:${s.mtimeMs}`;
  } catch {
    return; // no WAL (yet, or the database is closed)
  }
  if (stamp === seen) return;
  seen = stamp;
  try {
    // PASSIVE: copies what no reader still needs, never waits for or blocks the writers and readers.
    const [r] = sqlite.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    parentPort?.postMessage({ log: r?.log ?? 0, checkpointed: r?.checkpointed ?? 0 });
  } catch (err) {
    parentPort?.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
}, everyMs);

parentPort?.on('message', (m: { cmd: 'stop' }) => {
  if (m.cmd !== 'stop') return;
  clearInterval(timer);
  sqlite.close();
  parentPort?.postMessage({ stopped: true });
});
