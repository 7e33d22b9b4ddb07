import { zonedTimeToUtc } from '@phasewatch/shared';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ReadingsRepository } from '../modules/readings/index.js';
import { createTestStorage, DIALECTS, insertOwnerWithDevices, type TestStorage } from '../test/storage.js';
import { BatchWriter } from './batch-writer.js';

const TZ = 'Europe/Warsaw';
const SEC = 1000;

describe.each(DIALECTS)('BatchWriter (%s)', (dialect) => {
  let ts: TestStorage | undefined;
  let repo: ReadingsRepository | undefined;
  afterEach(async () => {
    await repo?.close();
    await ts?.dispose();
  });

  it('runs flushes side by side as the storage allows, never one device in two, and the later submission of a timestamp wins', async () => {
    ts = await createTestStorage(dialect);
    await insertOwnerWithDevices(ts.storage.db as never, 8, TZ);
    repo = new ReadingsRepository(ts.storage, { writerThread: true });
    const real = repo;
    // The real repository, watched: how many writes overlap, and whether a device is in two at once.
    let running = 0;
    let most = 0;
    const holding = new Set<number>();
    let overlapped = false;
    const watched = {
      async write(batches: Parameters<ReadingsRepository['write']>[0]) {
        running++;
        most = Math.max(most, running);
        for (const b of batches) {
          if (holding.has(b.deviceId)) overlapped = true;
          holding.add(b.deviceId);
        }
        try {
          await real.write(batches);
        } finally {
          for (const b of batches) holding.delete(b.deviceId);
          running--;
        }
      },
    };
    const concurrency = real.writeConcurrency(10);
    const writer = new BatchWriter(watched, pino({ level: 'silent' }), undefined, concurrency);
    const start = zonedTimeToUtc(TZ, 2026, 11, 20, 10);
    const submissions: Promise<void>[] = [];
    // 8 devices × 40 rounds; each round sends a reading, and resends the previous one with a new value.
    for (let round = 0; round < 40; round++) {
      for (let d = 1; d <= 8; d++) {
        submissions.push(writer.write({ deviceId: d, tz: TZ, readings: [{ ts: start + round * SEC, values: { vave1: 200 + round } }] }));
        if (round > 0) {
          submissions.push(
            writer.write({ deviceId: d, tz: TZ, readings: [{ ts: start + (round - 1) * SEC, values: { vave1: 1000 + round - 1 } }] }),
          );
        }
      }
      // Let some flushes start between rounds, as requests arrive over time.
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(submissions);
    await writer.flushed();
    expect(overlapped).toBe(false);
    expect(most).toBeLessThanOrEqual(concurrency);
    if (concurrency > 1) expect(most).toBeGreaterThan(1);
    for (let d = 1; d <= 8; d++) {
      const { ts: times, cols } = await real.raw(d, start, start + 40 * SEC, ['vave1']);
      expect(times).toHaveLength(40);
      const values = [...(cols[0] ?? [])];
      // Every second but the last was resent later with 1000 + round: the later submission is what is stored.
      expect(values).toEqual([...Array.from({ length: 39 }, (_, i) => 1000 + i), 239]);
    }
  });
});
