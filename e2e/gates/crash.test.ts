import { bucketEnergy, localDayStarts, type ReadingsResponse } from '@phasewatch/shared';
import { describe, expect, it } from 'vitest';
import { type RunningServer, registerUser, startServer } from '../support/server.js';

/**
 * The crash durability gate: devices ingest at once, the server is killed with SIGKILL at a random
 * moment, restarted on the same data, and then every reading answered 2xx must be stored with its
 * values, a batch cut off by the kill must be stored whole or not at all, and the rollups the readings
 * API answers (15 min, 1 h, local days) must equal a recomputation from the raw rows. It drives the
 * built server over HTTP only, so it keeps checking whatever the write path becomes.
 */
const ROUNDS = 3;
const DEVICES = 4;
const STEP_MS = 15_000;
const MAX_READINGS_PER_DEVICE = 8_000;
const TZ = 'Europe/Warsaw';

/** A seeded PRNG (mulberry32): each round kills at its own moment, the same one on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Reading {
  ts: number;
  values: { vave1: number; pave1: number; eai1: number };
}

/** Reading k of device d: instant values that vary, a counter that grows and is reset once. */
function reading(d: number, k: number, start: number): Reading {
  const counter = k < 3000 ? 1000 * (d + 1) + k * 0.013 : (k - 3000) * 0.011;
  return {
    ts: start + k * STEP_MS,
    values: { vave1: 220 + ((k * 7 + d) % 23) + 0.5, pave1: 300 + ((k * 13) % 500) - d, eai1: Math.round(counter * 1000) / 1000 },
  };
}

interface DeviceLog {
  id: number;
  key: string;
  acked: Reading[];
  /** Batches sent whose answer never came (cut off by the kill). */
  unanswered: Reading[][];
}

async function api<T>(s: RunningServer, token: string, url: string): Promise<T> {
  const res = await fetch(`${s.baseUrl}${url}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Sends batches of random size until stopped or the connection fails; records what was answered. */
async function ingestUntilKilled(s: RunningServer, log: DeviceLog, d: number, start: number, rand: () => number, stop: () => boolean) {
  let k = 0;
  while (!stop() && k < MAX_READINGS_PER_DEVICE) {
    const size = 1 + Math.floor(rand() * (rand() < 0.2 ? 2000 : 120));
    const batch = Array.from({ length: Math.min(size, MAX_READINGS_PER_DEVICE - k) }, (_, i) => reading(d, k + i, start));
    k += batch.length;
    try {
      const res = await fetch(`${s.baseUrl}/api/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-device-key': log.key },
        body: JSON.stringify({ readings: batch.map((r) => ({ ts: new Date(r.ts).toISOString(), values: r.values })) }),
      });
      if (res.status === 200) log.acked.push(...batch);
      else if (res.status >= 500) log.unanswered.push(batch);
      else throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('ingest answered')) throw err;
      log.unanswered.push(batch);
      return;
    }
  }
}

/** Per-bucket figures of the instant values recomputed from raw readings (avg, min, max). */
function recompute(raw: Reading[], edges: number[]) {
  const out = new Map<number, { n: number; sum: Record<string, number>; min: Record<string, number>; max: Record<string, number> }>();
  for (const r of raw) {
    let b = -1;
    for (let i = 0; i < edges.length - 1; i++) if (r.ts >= (edges[i] as number) && r.ts < (edges[i + 1] as number)) b = i;
    if (b < 0) continue;
    const at = edges[b] as number;
    const e = out.get(at) ?? { n: 0, sum: {}, min: {}, max: {} };
    e.n++;
    for (const p of ['vave1', 'pave1'] as const) {
      const v = r.values[p];
      e.sum[p] = (e.sum[p] ?? 0) + v;
      e.min[p] = Math.min(e.min[p] ?? v, v);
      e.max[p] = Math.max(e.max[p] ?? v, v);
    }
    out.set(at, e);
  }
  return { buckets: out };
}

describe.each(['sqlite', 'postgres'] as const)('crash durability gate on %s', (dialect) => {
  it.each(Array.from({ length: ROUNDS }, (_, i) => i + 1))(
    'round %i: SIGKILL during ingest from several devices loses no acknowledged reading; rollups match the raw rows',
    async (round) => {
      const rand = prng(round * 7919 + (dialect === 'postgres' ? 104_729 : 0));
      const env = { RATE_LIMIT_INGEST: '0', RATE_LIMIT_READS: '0', RAW_RETENTION_DAYS: '30' };
      let server = await startServer({ dialect, env });
      const { dataDir, databaseUrl } = server;
      try {
        const { token } = await registerUser(server.baseUrl, `crash-${dialect}-${round}@example.com`);
        const logs: DeviceLog[] = [];
        for (let d = 0; d < DEVICES; d++) {
          const res = await fetch(`${server.baseUrl}/api/devices`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name: `crash ${d}`, mac: `02:CC:00:00:0${round}:0${d}`, typeCode: 13 }),
          });
          const body = (await res.json()) as { device: { id: number }; ingestKey: string };
          logs.push({ id: body.device.id, key: body.ingestKey, acked: [], unanswered: [] });
        }
        // Two days back, so the readings span local midnights (24 h buckets) and never reach the future.
        const start = Math.floor((Date.now() - 2 * 86_400_000) / 60_000) * 60_000;
        let killed = false;
        const senders = logs.map((log, d) => ingestUntilKilled(server, log, d, start, prng(round * 31 + d), () => killed));
        // A random moment once ingest is under way (the first answer came).
        const begun = Date.now();
        while (logs.every((l) => l.acked.length === 0) && Date.now() - begun < 30_000) await new Promise((r) => setTimeout(r, 5));
        const killAfterMs = Math.floor(rand() * 1500);
        await new Promise((r) => setTimeout(r, killAfterMs));
        killed = true;
        await server.kill();
        await Promise.all(senders);
        const acked = logs.reduce((n, l) => n + l.acked.length, 0);
        expect(acked, 'some readings were acknowledged before the kill').toBeGreaterThan(0);

        server = await startServer({ dialect, dataDir, databaseUrl, env });
        const login = await fetch(`${server.baseUrl}/api/account/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: `crash-${dialect}-${round}@example.com`, password: 'secret1' }),
        });
        const auth = ((await login.json()) as { token: string }).token;
        const to = start + MAX_READINGS_PER_DEVICE * STEP_MS + STEP_MS;
        let cutOff = 0;
        for (const log of logs) {
          const q = (interval: string) =>
            `/api/devices/${log.id}/readings?from=${start}&to=${to}&interval=${interval}&params=vave1,pave1,eai1`;
          const raw = await api<ReadingsResponse>(server, auth, q('raw'));
          const series = raw.series as Record<string, { values?: (number | null)[]; value?: (number | null)[] }>;
          const stored: Reading[] = raw.ts.map((ts, i) => ({
            ts,
            values: {
              vave1: series.vave1?.values?.[i] as number,
              pave1: series.pave1?.values?.[i] as number,
              eai1: series.eai1?.value?.[i] as number,
            },
          }));
          const byTs = new Map(stored.map((r) => [r.ts, r]));
          // Every acknowledged reading, with its values.
          const lost = log.acked.filter((r) => {
            const s = byTs.get(r.ts);
            return !s || s.values.vave1 !== r.values.vave1 || s.values.pave1 !== r.values.pave1 || s.values.eai1 !== r.values.eai1;
          });
          expect(lost.length, `device ${log.id}: acknowledged readings missing or changed after the crash`).toBe(0);
          // A batch the kill cut off is there whole or not at all (one transaction).
          for (const batch of log.unanswered) {
            const present = batch.filter((r) => byTs.has(r.ts)).length;
            expect([0, batch.length], `device ${log.id}: a cut-off batch of ${batch.length} is partly stored`).toContain(present);
            if (present) cutOff++;
          }
          expect(stored.length).toBe(
            log.acked.length + log.unanswered.filter((b) => byTs.has((b[0] as Reading).ts)).reduce((n, b) => n + b.length, 0),
          );

          // Rollups: every interval's answer equals the same figures computed here from the raw rows.
          for (const [interval, edgesOf] of [
            ['15m', (a: number, b: number) => Array.from({ length: Math.ceil((b - a) / 900_000) + 1 }, (_, i) => a + i * 900_000)],
            ['1h', (a: number, b: number) => Array.from({ length: Math.ceil((b - a) / 3_600_000) + 1 }, (_, i) => a + i * 3_600_000)],
            ['24h', (a: number, b: number) => localDayStarts(a, b + 86_400_000, TZ)],
          ] as const) {
            const answer = await api<ReadingsResponse>(server, auth, q(interval));
            const edges = edgesOf(answer.from, to);
            const want = recompute(stored, edges);
            // Every bucket with readings is answered (buckets a gap's energy is spread over may be too).
            expect(
              answer.ts.filter((b) => want.buckets.has(b)),
              `${interval}: buckets`,
            ).toEqual([...want.buckets.keys()]);
            const s = answer.series as Record<
              string,
              { avg?: (number | null)[]; min?: (number | null)[]; max?: (number | null)[]; delta?: (number | null)[] }
            >;
            answer.ts.forEach((bucket, i) => {
              const w = want.buckets.get(bucket);
              if (!w) {
                expect(s.vave1?.avg?.[i] ?? null, `${interval} vave1 @${bucket} without readings`).toBeNull();
                return;
              }
              for (const p of ['vave1', 'pave1']) {
                // Averages are answered rounded (2 decimals for V and W).
                expect(
                  Math.abs((s[p]?.avg?.[i] ?? Number.NaN) - (w.sum[p] as number) / w.n),
                  `${interval} ${p} avg @${bucket}`,
                ).toBeLessThanOrEqual(0.005 + 1e-9);
                expect(s[p]?.min?.[i], `${interval} ${p} min @${bucket}`).toBe(w.min[p]);
                expect(s[p]?.max?.[i], `${interval} ${p} max @${bucket}`).toBe(w.max[p]);
              }
            });
            // Energy by the shared reference computation (counter rules, a gap's energy spread over the
            // buckets it spans): each answered bucket, and nothing left out of the answer.
            const energy = bucketEnergy(
              stored.map((r) => ({ ts: r.ts, value: r.values.eai1 })),
              edges,
            ).energy;
            const delta = s.eai1?.delta ?? [];
            answer.ts.forEach((bucket, i) => {
              const want = energy[edges.indexOf(bucket)] ?? 0;
              expect(Math.abs((delta[i] ?? 0) - want), `${interval} eai1 energy @${bucket}: ${delta[i]} vs ${want}`).toBeLessThanOrEqual(
                1e-6,
              );
            });
            const answered = delta.reduce<number>((a, v) => a + (v ?? 0), 0);
            const all = energy.reduce((a, v) => a + v, 0);
            expect(Math.abs(answered - all), `${interval} eai1 energy ${answered} vs ${all}`).toBeLessThanOrEqual(
              1e-6 * (answer.ts.length + 1),
            );
          }
        }
        // The restarted server keeps taking readings.
        const more = await fetch(`${server.baseUrl}/api/ingest`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-device-key': (logs[0] as DeviceLog).key },
          body: JSON.stringify({ readings: [{ ts: new Date(Date.now() - 1000).toISOString(), values: { vave1: 230 } }] }),
        });
        expect(more.status).toBe(200);
        console.log(
          `Crash gate ${dialect} round ${round}: killed after ${killAfterMs} ms; ${acked} readings acknowledged by ${DEVICES} devices, all stored; ${logs.reduce((n, l) => n + l.unanswered.length, 0)} batches cut off (${cutOff} stored whole, the rest not at all); rollups 15m/1h/24h equal the raw recomputation`,
        );
      } finally {
        await server.stop();
        const { rmSync } = await import('node:fs');
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
