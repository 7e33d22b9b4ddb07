import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';

/**
 * The Grafana dashboards of deploy/grafana/ (issue 31): loaded as Grafana would, every Prometheus query
 * names metrics /metrics exposes, and every SQL query (panels and the device variable) runs against a
 * PostgreSQL database with readings, as the read-only role the README describes, which reads the
 * grafana_* views and nothing else.
 */

const dir = path.resolve(import.meta.dirname, '../../../../../deploy/grafana');
type Target = { expr?: string; rawSql?: string; datasource?: { uid: string } };
type Panel = { id: number; title: string; datasource: { uid: string; type: string }; targets: Target[]; gridPos: object };
type Dashboard = { uid: string; title: string; panels: Panel[]; templating: { list: { name: string; query: string }[] } };
const load = (name: string) => JSON.parse(readFileSync(path.join(dir, 'dashboards', name), 'utf8')) as Dashboard;
const provisioning = readFileSync(path.join(dir, 'provisioning/datasources/phasewatch.yml'), 'utf8');

describe('Grafana dashboards', () => {
  it('load as dashboards whose data sources are the provisioned ones', () => {
    for (const name of ['phasewatch-operator.json', 'phasewatch-readings.json']) {
      const d = load(name);
      expect(d.uid).toMatch(/^phasewatch-/);
      expect(d.panels.length).toBeGreaterThan(2);
      expect(new Set(d.panels.map((p) => p.id)).size).toBe(d.panels.length);
      for (const p of d.panels) {
        expect(provisioning, `${name}: ${p.title}`).toContain(`uid: ${p.datasource.uid}`);
        expect(p.targets.length, p.title).toBeGreaterThan(0);
      }
    }
  });

  describe('operator dashboard over /metrics', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp('sqlite', { metricsToken: 'grafana-metrics-token-0123456789' });
    });
    afterAll(async () => t?.close());

    it('every query names metrics the server exposes', async () => {
      // Some traffic, so the histograms have their series.
      await signUp(t.app);
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer grafana-metrics-token-0123456789' },
      });
      expect(res.statusCode).toBe(200);
      const exposed = new Set([...res.body.matchAll(/^# TYPE (\S+) (\w+)/gm)].map((m) => `${m[1]} ${m[2]}`));
      const names = new Map([...exposed].map((e) => e.split(' ') as [string, string]));
      const d = load('phasewatch-operator.json');
      const used = new Set<string>();
      for (const p of d.panels)
        for (const target of p.targets) {
          const expr = target.expr as string;
          const metrics = [...expr.matchAll(/\b(phasewatch_[a-z_]+)\b/g)].map((m) => m[1] as string);
          expect(metrics.length, `${p.title}: ${expr}`).toBeGreaterThan(0);
          for (const m of metrics) {
            const base = m.replace(/_(bucket|sum|count)$/, '');
            const type = names.get(m) ?? names.get(base);
            expect(type, `${p.title}: ${m} is not in /metrics`).toBeDefined();
            if (m !== base) expect(names.get(base), m).toBe('histogram');
            if (expr.includes(`histogram_quantile`) && m.endsWith('_bucket')) expect(type).toBe('histogram');
            used.add(base);
          }
          // Balanced parentheses and a range on every rate().
          expect([...expr].filter((c) => c === '(').length, expr).toBe([...expr].filter((c) => c === ')').length);
          for (const r of expr.matchAll(/rate\(([^()]*)\)/g)) expect(r[1], expr).toMatch(/\[\d+[smh]\]$/);
        }
      // What the issue asks the operator to see.
      for (const m of [
        'phasewatch_ingest_readings_total',
        'phasewatch_writer_queue_readings',
        'phasewatch_hub_connections',
        'phasewatch_http_request_duration_seconds',
        'phasewatch_job_queue_depth',
      ])
        expect(used, m).toContain(m);
    });
  });

  describe('readings dashboard on PostgreSQL', () => {
    let t: TestApp;
    let deviceId = 0;
    const role = `grafana_reader_${Math.random().toString(36).slice(2, 8)}`;
    let url = '';
    const now = Date.now();
    beforeAll(async () => {
      t = await buildTestApp('postgres');
      const u = await signUp(t.app);
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/devices',
        headers: u.auth,
        payload: { name: 'Grafana meter', mac: '02:6F:00:00:00:01', typeCode: 13 },
      });
      const body = created.json() as { device: { id: number }; ingestKey: string };
      deviceId = body.device.id;
      const start = now - 2 * 86_400_000;
      const readings = Array.from({ length: 180 }, (_, i) => ({
        ts: new Date(start + i * 15 * 60_000).toISOString(),
        values: { pave1: 100 + i, pave2: 50, pave3: 25, vave1: 230, vave2: 231, vave3: 229, eai1: 10 + i * 0.1, eae1: 1 },
      }));
      const ing = await t.app.inject({
        method: 'POST',
        url: '/api/ingest',
        headers: { 'x-device-key': body.ingestKey },
        payload: { readings },
      });
      expect(ing.statusCode, ing.body).toBe(200);
      const admin = t.ctx.storage.pgPool as pg.Pool & { options: { connectionString: string } };
      // The README's read-only role.
      await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'reader-secret'`);
      await admin.query(`GRANT SELECT ON grafana_devices, grafana_power, grafana_voltage, grafana_daily_energy TO ${role}`);
      const u2 = new URL(admin.options.connectionString);
      u2.username = role;
      u2.password = 'reader-secret';
      url = u2.toString();
    });
    afterAll(async () => {
      const admin = t?.ctx.storage.pgPool;
      if (admin) {
        await admin
          .query(`REVOKE ALL ON grafana_devices, grafana_power, grafana_voltage, grafana_daily_energy FROM ${role}`)
          .catch(() => {});
        await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => {});
      }
      await t?.close();
    });

    /** A query as Grafana sends it: its macros filled. */
    const fill = (q: string) =>
      q
        .replaceAll('$device', String(deviceId))
        .replaceAll('$__from', String(now - 3 * 86_400_000))
        .replaceAll('$__to', String(now + 60_000));

    it('every panel and the device variable run as the read-only role and find the readings', async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const d = load('phasewatch-readings.json');
        const variable = d.templating.list.find((v) => v.name === 'device');
        const devices = await client.query(fill(variable?.query ?? ''));
        expect(devices.rows.map((r: { __value: number }) => Number(r.__value))).toContain(deviceId);
        for (const p of d.panels)
          for (const target of p.targets) {
            expect(target.rawSql, p.title).toBeDefined();
            const res = await client.query(fill(target.rawSql as string));
            expect(res.rows.length, p.title).toBeGreaterThan(0);
            expect(res.fields[0]?.name, p.title).toBe('time');
          }
        const power = await client.query(fill(d.panels[0]?.targets[0]?.rawSql as string));
        expect(power.rows[0]).toMatchObject({ L1: 100, L2: 50, L3: 25 });
        const energy = await client.query(fill(d.panels[2]?.targets[0]?.rawSql as string));
        const total = energy.rows.reduce((a: number, r: { Import: number }) => a + Number(r.Import), 0);
        expect(total).toBeGreaterThan(0);
        // Nothing else: the accounts and raw tables are not the role's.
        await expect(client.query('SELECT email FROM users')).rejects.toThrow(/permission denied/);
        await expect(client.query('SELECT * FROM readings LIMIT 1')).rejects.toThrow(/permission denied/);
        await expect(client.query('SELECT ingest_key_hash FROM devices')).rejects.toThrow(/permission denied/);
      } finally {
        await client.end();
      }
    });
  });
});
