import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_COUNTER_RULES } from '@phasewatch/shared';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { WriterThread } from './readings.writer-thread.js';

const MIN = 60_000;

describe.each(['sqlite', 'postgres'] as const)('writer thread on %s', (dialect) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
    user = await signUp(t.app);
  });
  afterAll(async () => t.close());

  it('ingest on the thread and writes on the app connection at the same time all succeed, and reads see every commit', async () => {
    const devices = await Promise.all(
      [1, 2, 3].map(async (n) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/devices',
          headers: user.auth,
          payload: { name: `d${n}`, mac: `30:00:00:00:00:0${n}`, typeCode: 20 },
        });
        return res.json() as { device: { id: number }; ingestKey: string };
      }),
    );
    const start = Date.UTC(2026, 0, 5);
    const requests: Promise<{ statusCode: number; body: string }>[] = [];
    for (let round = 0; round < 8; round++) {
      devices.forEach((d, n) => {
        const readings = Array.from({ length: 300 }, (_, i) => {
          const k = round * 300 + i;
          return { ts: new Date(start + k * MIN).toISOString(), values: { vave1: 230 + n, eai1: 10 + k * 0.01 } };
        });
        requests.push(
          t.app.inject({ method: 'POST', url: '/api/ingest', headers: { 'x-device-key': d.ingestKey }, payload: { readings } }),
        );
        // Writes of the app's own connection in between: device settings and the profile.
        requests.push(
          t.app.inject({
            method: 'PUT',
            url: `/api/devices/${d.device.id}`,
            headers: user.auth,
            payload: { friendlyName: `round ${round}` },
          }),
        );
      });
      requests.push(
        t.app.inject({
          method: 'POST',
          url: '/api/account/update',
          headers: user.auth,
          payload: { fullName: `R${round}`, country: 'PL', timezone: 'Europe/Warsaw', language: 'en' },
        }),
      );
    }
    const answers = await Promise.all(requests);
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);

    for (const [n, d] of devices.entries()) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/devices/${d.device.id}/readings?from=${start}&to=${start + 2400 * MIN}&interval=1h&params=vave1,eai1`,
        headers: user.auth,
      });
      const body = res.json();
      expect(body.ts).toHaveLength(40);
      expect(body.series.vave1.avg.every((v: number) => v === 230 + n)).toBe(true);
      const energy = body.series.eai1.delta.reduce((a: number, b: number) => a + b, 0);
      expect(energy).toBeCloseTo(23.99, 6);
      // Concurrent renames commit in any order on both dialects (each request's token check ends on the
      // thread pool; PostgreSQL's pool adds its own): one of them is what is read.
      const dev = await t.app.inject({ method: 'GET', url: `/api/devices/${d.device.id}`, headers: user.auth });
      expect(dev.json().friendlyName).toMatch(/^round [0-7]$/);
      // And a rename after them all is what the next read sees.
      const renamed = await t.app.inject({
        method: 'PUT',
        url: `/api/devices/${d.device.id}`,
        headers: user.auth,
        payload: { friendlyName: `after ${n}` },
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      const again = await t.app.inject({ method: 'GET', url: `/api/devices/${d.device.id}`, headers: user.auth });
      expect(again.json().friendlyName).toBe(`after ${n}`);
    }
  });

  it('a thread that cannot start fails its calls instead of hanging, and a closed thread refuses new ones', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-writer-'));
    try {
      // SQLite: a folder that does not exist; PostgreSQL: a port nobody listens on.
      const broken = new WriterThread(
        dialect === 'sqlite'
          ? { dialect, file: path.join(dir, 'missing', 'x.sqlite') }
          : { dialect, url: 'postgres://postgres@127.0.0.1:1/none', poolSize: 2 },
        DEFAULT_COUNTER_RULES,
      );
      await expect(broken.call('deleteDevice', [1])).rejects.toThrow();
      await broken.close();
      await expect(broken.call('deleteDevice', [1])).rejects.toThrow('closed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('writer thread on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('postgres');
  });
  afterAll(async () => t.close());

  it('runs PostgreSQL writes side by side on its own pool, and closing it ends its sessions', async () => {
    const pool = t.ctx.storage.pgPool as pg.Pool;
    const url = new URL((pool.options as { connectionString: string }).connectionString);
    url.searchParams.set('application_name', 'writer-thread-test');
    const sessions = async () =>
      Number((await pool.query("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'writer-thread-test'")).rows[0].n);
    const thread = new WriterThread({ dialect: 'postgres', url: url.href, poolSize: 3 }, DEFAULT_COUNTER_RULES);
    // Three calls at once hold three connections: one call behind another would need only one.
    await Promise.all([1, 2, 3].map((n) => thread.call('deleteRawBefore', [0, [1_000_000 + n]])));
    expect(await sessions()).toBe(3);
    await thread.close();
    // The pool ended its sessions before the thread stopped (the server notices at once).
    for (let i = 0; i < 50 && (await sessions()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await sessions()).toBe(0);
  });
});
