import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type BuildOptions, buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';

/** The parameters a single-phase meter sends, as benchmark rows carry them. */
export const BENCH_PARAMS = ['vave1', 'vmin1', 'vmax1', 'iave1', 'pave1', 'pfave1', 'frq1', 'eai1', 'eae1', 'rssi'] as const;

/** Deterministic readings every `stepMs` from `start`: a wandering voltage and a growing counter, rounded as a meter sends them. */
export function benchReadings(start: number, count: number, stepMs: number) {
  const out: { ts: number; values: Record<string, number> }[] = [];
  let e = 1000;
  for (let i = 0; i < count; i++) {
    const ts = start + i * stepMs;
    const p = 300 + 200 * Math.sin(i / 50) + (i % 7) * 10;
    e += (p * stepMs) / 3_600_000_000;
    const v = 230 + 3 * Math.sin(i / 30);
    const r = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
    out.push({
      ts,
      values: {
        vave1: r(v, 1),
        vmin1: r(v - 1, 1),
        vmax1: r(v + 1, 1),
        iave1: r(p / v, 3),
        pave1: r(p, 1),
        pfave1: 0.95,
        frq1: 50,
        eai1: r(e, 3),
        eae1: 0,
        rssi: -60,
      },
    });
  }
  return out;
}

/** A real app (SQLite in a temp dir, or a fresh database in the bench cluster) with a user and a device. */
export async function benchApp(dialect: 'sqlite' | 'postgres', pgUrl: string, options: Pick<BuildOptions, 'notifications'> = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-bench-'));
  let databaseUrl = '';
  const name = `bench_${Date.now().toString(36)}`;
  if (dialect === 'postgres') {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(pgUrl);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
  }
  const config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: 'bench-secret-0123456789-0123456789',
      DATABASE_URL: databaseUrl,
      COLLECTOR_DISCOVERY_ADDRESS: '127.0.0.1:9',
      RCE_IMPORT: 'off',
    }),
    demo: null,
    simulate: false,
    webDistDir: '/nonexistent',
    logLevel: 'silent',
    mqttUrl: '',
    rawRetentionDays: 36_500,
    // Throughput is the figure here: the per-device ingest limit would cap it.
    rateLimits: { ingest: { max: 0, windowMs: 60_000 }, reads: { max: 0, windowMs: 60_000 }, jobs: { max: 0, windowMs: 60_000 } },
  };
  const { app, ctx } = await buildApp(config, { logger: false, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const reg = await fetch(`${base}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'secret1', country: 'PL' }),
  });
  const { token, user } = (await reg.json()) as { token: string; user: { id: number } };
  const dev = await fetch(`${base}/api/devices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'bench', mac: '00:11:22:33:44:55', typeCode: 20 }),
  });
  const { device, ingestKey } = (await dev.json()) as { device: { id: number }; ingestKey: string };
  return {
    app,
    ctx,
    base,
    token,
    userId: user.id,
    deviceId: device.id,
    ingestKey,
    dataDir,
    async close() {
      await app.close();
      if (dialect === 'postgres') {
        const admin = new pg.Client({ connectionString: pgUrl });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
