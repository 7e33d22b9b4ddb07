// The ingest endpoint is built in parallel with the simulator, so these tests send to a tiny real HTTP
// server of their own (testing/fake-api.ts) that records every request; the end-to-end test against the
// real server lives in e2e/.
import { afterEach, describe, expect, it } from 'vitest';
import { PhasewatchClient } from './api-client.js';
import { type BackfillProgress, runBackfill } from './backfill.js';
import { DAY_MS, MINUTE_MS } from './models/environment.js';
import { createModel, type SimulatedKind } from './models/index.js';
import { type FakeApi, startFakeApi } from './testing/fake-api.js';

const FROM = Date.UTC(2026, 2, 27);
let api: FakeApi | null = null;

afterEach(async () => {
  await api?.close();
  api = null;
});

async function registerAll(fake: FakeApi, kinds: SimulatedKind[]): Promise<{ client: PhasewatchClient; keys: string[] }> {
  const client = new PhasewatchClient(fake.url);
  const token = await client.login('demo@example.com', 'demo1234');
  const keys: string[] = [];
  for (const [i, kind] of kinds.entries()) {
    const r = await client.registerDevice(token, { name: kind, mac: `02:00:00:00:00:0${i}`, typeCode: 13, model: 'x' });
    keys.push(r.ingestKey);
  }
  return { client, keys };
}

/** Every minute of [from, to] the model does not deliberately skip. */
function expectedTimes(kind: SimulatedKind, seed: number, gapsPerYear: number, from: number, to: number): string[] {
  const m = createModel(kind, { seed, gapsPerYear });
  const out: string[] = [];
  for (let ts = from; ts <= to; ts += MINUTE_MS) if (!m.isGap(ts)) out.push(new Date(ts).toISOString());
  return out;
}

describe('backfill', () => {
  it('sends batches of at most 5,000 in strictly increasing order per device, skipping only deliberate gaps', async () => {
    api = await startFakeApi();
    const kinds: SimulatedKind[] = ['household', 'solar', 'thermostat'];
    const { client, keys } = await registerAll(api, kinds);
    const to = FROM + 4 * DAY_MS;
    const progress: BackfillProgress[] = [];
    const summary = await runBackfill({
      devices: kinds.map((kind, i) => ({
        model: createModel(kind, { seed: i + 1, gapsPerYear: 200 }),
        fromTs: FROM,
        toTs: to,
        send: (lines, signal) => client.ingest(keys[i] ?? '', lines, signal),
      })),
      concurrency: 2,
      onProgress: (p) => progress.push(p),
    });
    const slots = 4 * 1440 + 1;
    let sent = 0;
    for (const [i, kind] of kinds.entries()) {
      const d = api.devices[i];
      if (!d) throw new Error('device missing');
      expect(Math.max(...d.batches)).toBeLessThanOrEqual(5000);
      expect(d.batches.length).toBeGreaterThanOrEqual(2);
      const times = d.readings.map((r) => r.ts);
      expect(times.filter((t, k) => k > 0 && Date.parse(t) <= Date.parse(times[k - 1] ?? ''))).toEqual([]);
      const expected = expectedTimes(kind, i + 1, 200, FROM, to);
      // 200 gaps a year over four days: some minutes are deliberately missing, and only those.
      expect(expected.length).toBeLessThan(slots);
      expect(times).toEqual(expected);
      sent += times.length;
    }
    expect(summary.sent).toBe(sent);
    expect(summary.requests).toBe(api.ingestRequests);
    expect(api.maxInFlight).toBeLessThanOrEqual(2);
    expect(api.maxInFlight).toBeGreaterThanOrEqual(1);
    const last = progress[progress.length - 1];
    expect(last?.done).toBe(3 * slots);
    expect(last?.total).toBe(3 * slots);
    expect(progress.every((p, k) => k === 0 || p.done >= (progress[k - 1]?.done ?? 0))).toBe(true);
  });

  it('resumes from a snapshot with exactly the readings of an uninterrupted run', async () => {
    api = await startFakeApi();
    const { client, keys } = await registerAll(api, ['household', 'household']);
    const to = FROM + 3 * DAY_MS;
    const send = (i: number) => (lines: readonly string[], signal: AbortSignal) => client.ingest(keys[i] ?? '', lines, signal);
    // Device 0 in one go; device 1 in two runs, the second from the snapshot the first committed.
    await runBackfill({
      devices: [{ model: createModel('household', { seed: 5, gapsPerYear: 0 }), fromTs: FROM, toTs: to, send: send(0) }],
    });
    const first = createModel('household', { seed: 5, gapsPerYear: 0 });
    let committed: ReturnType<typeof first.snapshot> | null = null;
    const middle = FROM + DAY_MS + 17 * MINUTE_MS;
    await runBackfill({
      devices: [{ model: first, fromTs: FROM, toTs: middle, send: send(1) }],
      batchSize: 700,
      onCommitted: (_, s) => {
        committed = s;
      },
    });
    const saved = JSON.parse(JSON.stringify(committed)) as ReturnType<typeof first.snapshot>;
    expect(saved.ts).toBe(middle);
    const second = createModel('household', { seed: 5, gapsPerYear: 0 });
    second.restore(saved);
    await runBackfill({ devices: [{ model: second, fromTs: middle + MINUTE_MS, toTs: to, send: send(1) }] });
    const [a, b] = api.devices;
    // 1 day + 17 minutes + 1 readings in batches of 700, then the rest in one batch.
    expect(b?.batches).toEqual([700, 700, 58, 3 * 1440 + 1 - 1458]);
    expect(b?.readings).toEqual(a?.readings);
    expect(a?.readings.length).toBeGreaterThan(3 * 1400);
  });

  it('splits a batch the server finds too large and retries a busy server', async () => {
    api = await startFakeApi({ maxBatch: 1000, failFirst: 2 });
    const { client, keys } = await registerAll(api, ['thermostat']);
    const to = FROM + 2 * DAY_MS;
    const summary = await runBackfill({
      devices: [
        {
          model: createModel('thermostat', { seed: 1, gapsPerYear: 0 }),
          fromTs: FROM,
          toTs: to,
          send: (l, s) => client.ingest(keys[0] ?? '', l, s),
        },
      ],
    });
    const d = api.devices[0];
    expect(d?.readings.length).toBe(2 * 1440 + 1);
    expect(summary.sent).toBe(2 * 1440 + 1);
    expect(Math.max(...(d?.batches ?? [0]))).toBeLessThanOrEqual(1000);
    expect(api.rejected413).toBeGreaterThan(0);
  });

  it('stops when aborted and reports the abort', async () => {
    api = await startFakeApi();
    const { client, keys } = await registerAll(api, ['household']);
    const controller = new AbortController();
    const run = runBackfill({
      devices: [
        {
          model: createModel('household', { seed: 1 }),
          fromTs: FROM,
          toTs: FROM + 60 * DAY_MS,
          send: async (l, s) => {
            await client.ingest(keys[0] ?? '', l, s);
            controller.abort();
          },
        },
      ],
      signal: controller.signal,
    });
    await expect(run).rejects.toBeDefined();
    expect(api.devices[0]?.readings.length).toBeLessThan(60 * 1440);
  });
});
