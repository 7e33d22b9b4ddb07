import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerUser, repoRoot, startServer } from '../support/server.js';

const ENV = { RATE_LIMIT_INGEST: '0', RATE_LIMIT_READS: '0' };

describe('backups', () => {
  it('npm run backup copies the SQLite database while the app runs and ingests; a restore answers the same energy figures', async () => {
    const server = await startServer({ dialect: 'sqlite', env: ENV });
    const restoreDir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-restore-'));
    let restored: Awaited<ReturnType<typeof startServer>> | null = null;
    try {
      const { token } = await registerUser(server.baseUrl, 'backup@example.com');
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const device = async (mac: string) => {
        const res = await fetch(`${server.baseUrl}/api/devices`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ name: mac, mac, typeCode: 13 }),
        });
        return (await res.json()) as { device: { id: number }; ingestKey: string };
      };
      // Reading i of a device is at start + i minutes; its counter grows 12.5 Wh a minute.
      const ingest = (key: string, first: number, count: number) =>
        fetch(`${server.baseUrl}/api/ingest`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-device-key': key },
          body: JSON.stringify({
            readings: Array.from({ length: count }, (_, i) => ({
              ts: new Date(start + (first + i) * 60_000).toISOString(),
              values: { vave1: 230 + (i % 7), pave1: 500 + (i % 50), eai1: 4000 + (first + i) * 0.0125 },
            })),
          }),
        });
      const start = Math.floor((Date.now() - 3 * 86_400_000) / 60_000) * 60_000;
      const meter = await device('02:BA:00:00:00:01');
      for (let k = 0; k < 3; k++) expect((await ingest(meter.ingestKey, k * 1440, 1440)).status).toBe(200);
      const figures = async (baseUrl: string, bearer: string) => {
        const get = async (url: string) => (await fetch(`${baseUrl}${url}`, { headers: { authorization: `Bearer ${bearer}` } })).json();
        const energy = (await get(`/api/devices/${meter.device.id}/energy`)) as Record<string, unknown>;
        return {
          total: energy.total,
          measuredTotalKwh: energy.measuredTotalKwh,
          daily: await get(
            `/api/devices/${meter.device.id}/readings?from=${start}&to=${start + 3 * 86_400_000}&interval=24h&params=eai1,vave1`,
          ),
          hourly: await get(
            `/api/devices/${meter.device.id}/readings?from=${start}&to=${start + 3 * 86_400_000}&interval=1h&params=eai1,pave1`,
          ),
        };
      };
      const before = await figures(server.baseUrl, token);
      expect(before.measuredTotalKwh).toBeGreaterThan(50);

      // Another device keeps writing while the backup runs: the app is online throughout.
      const busy = await device('02:BA:00:00:00:02');
      let writing = true;
      const writer = (async () => {
        let k = 0;
        while (writing) {
          const res = await ingest(busy.ingestKey, (k * 500) % 4000, 500);
          expect(res.status).toBe(200);
          k++;
        }
        return k;
      })();
      await new Promise((r) => setTimeout(r, 100));
      const backup = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/backup.mjs')], {
        cwd: repoRoot,
        env: { ...process.env, DATA_DIR: server.dataDir },
        encoding: 'utf8',
        timeout: 120_000,
      });
      writing = false;
      expect(await writer).toBeGreaterThan(0);
      expect(backup.status, backup.stderr + backup.stdout).toBe(0);
      const files = readdirSync(path.join(server.dataDir, 'backups'));
      expect(files, files.join(' ')).toHaveLength(1);
      expect(files[0]).toMatch(/^phasewatch-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.sqlite$/);
      expect(backup.stdout).toContain(files[0]);

      // Restore: the copy becomes the database of a new data dir (with the same signing key).
      copyFileSync(path.join(server.dataDir, 'backups', files[0] as string), path.join(restoreDir, 'phasewatch.sqlite'));
      copyFileSync(path.join(server.dataDir, 'jwt-secret'), path.join(restoreDir, 'jwt-secret'));
      await server.stop();
      restored = await startServer({ dialect: 'sqlite', dataDir: restoreDir, env: ENV });
      const login = await fetch(`${restored.baseUrl}/api/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'backup@example.com', password: 'secret1' }),
      });
      expect(login.status).toBe(200);
      const after = await figures(restored.baseUrl, ((await login.json()) as { token: string }).token);
      expect(after).toEqual(before);
    } finally {
      await restored?.stop();
      await server.stop();
      rmSync(restoreDir, { recursive: true, force: true });
    }
  });

  it('with DATABASE_URL set, names pg_dump instead of copying anything', () => {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'apps/server/dist/cli/backup.js')], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'phasewatch-nobackup-')),
        DATABASE_URL: 'postgres://u:secret@127.0.0.1:1/db',
      },
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('pg_dump --format=custom');
    expect(r.stderr).not.toContain('secret');
  });
});
