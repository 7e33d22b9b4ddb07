import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerUser, repoRoot, startServer } from '../support/server.js';

const ENV = { RATE_LIMIT_INGEST: '0', RATE_LIMIT_READS: '0' };
const BACKUP_CLI = path.join(repoRoot, 'apps/server/dist/cli/backup.js');
const RESTORE_CLI = path.join(repoRoot, 'apps/server/dist/cli/restore.js');

/**
 * `npm run backup` / `npm run restore` as cron or a person runs them (the scripts build first, then run
 * the CLI), without blocking this process: the test's writers keep sending meanwhile.
 */
function runScript(script: 'backup' | 'restore', dataDir: string, args: string[] = []) {
  const child = spawn(process.execPath, [path.join(repoRoot, `scripts/${script}.mjs`), ...args], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    }),
  );
}

/** The built restore CLI, at once (what the script runs after its build step). */
const restoreCli = (dataDir: string, file: string) =>
  spawnSync(process.execPath, [RESTORE_CLI, file], { cwd: repoRoot, env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' });

/**
 * Processes that keep both cores busy, so the backup and the writer compete for CPU as on a loaded host.
 * They end by themselves after 200 s, should the test be cut short before it kills them.
 */
function cpuBurners(n: number): ChildProcess[] {
  return Array.from({ length: n }, () =>
    spawn(process.execPath, ['-e', 'const end = Date.now() + 200000; while (Date.now() < end) {}'], { stdio: 'ignore' }),
  );
}

const backupsIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.sqlite')) : []);

describe('backups', () => {
  it('a backup under continuous ingest on a loaded machine finishes, holds every acknowledged reading, and npm run restore brings it back', async () => {
    const server = await startServer({ dialect: 'sqlite', env: ENV });
    const restoreDir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-restore-'));
    let restored: Awaited<ReturnType<typeof startServer>> | null = null;
    const burners: ChildProcess[] = [];
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
      // Reading i of a device is at start + i × step; its counter grows 12.5 Wh a minute.
      const ingest = (key: string, start: number, stepMs: number, first: number, count: number) =>
        fetch(`${server.baseUrl}/api/ingest`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-device-key': key },
          body: JSON.stringify({
            readings: Array.from({ length: count }, (_, i) => ({
              ts: new Date(start + (first + i) * stepMs).toISOString(),
              values: {
                vave1: 230 + (i % 7),
                vave2: 231 + (i % 5),
                vave3: 229 + (i % 3),
                pave1: 500 + (i % 50),
                pave2: 400 + (i % 40),
                pave3: 300 + (i % 30),
                iave1: 2.2,
                iave2: 1.7,
                iave3: 1.3,
                eai1: 4000 + (first + i) * 0.0125,
              },
            })),
          }),
        });
      const start = Math.floor((Date.now() - 3 * 86_400_000) / 60_000) * 60_000;
      const meter = await device('02:BA:00:00:00:01');
      for (let k = 0; k < 3; k++) expect((await ingest(meter.ingestKey, start, 60_000, k * 1440, 1440)).status).toBe(200);
      // A year of one-minute history beside it, so the copy takes a while (~100 MB).
      const history = await device('02:BA:00:00:00:02');
      const yearAgo = Math.floor((Date.now() - 370 * 86_400_000) / 60_000) * 60_000;
      for (let k = 0; k < 100; k++) expect((await ingest(history.ingestKey, yearAgo, 60_000, k * 5000, 5000)).status).toBe(200);
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

      // Writers commit all the time while the backup runs: each of eight devices sends 100 readings ten
      // seconds apart per request, one request after another, each batch after the last one's times.
      burners.push(...cpuBurners(2));
      const writers = await Promise.all(Array.from({ length: 8 }, (_, i) => device(`02:BA:00:00:01:0${i}`)));
      const liveStart = Math.floor((Date.now() - 6 * 86_400_000) / 60_000) * 60_000;
      const acknowledged = writers.map(() => 0);
      let writing = true;
      const loops = writers.map(async (w, d) => {
        while (writing && acknowledged[d] !== undefined && acknowledged[d] < 50_000) {
          const res = await ingest(w.ingestKey, liveStart, 10_000, acknowledged[d], 100);
          expect(res.status).toBe(200);
          acknowledged[d] += 100;
        }
      });
      await new Promise((r) => setTimeout(r, 1500));
      const ackedBefore = [...acknowledged];
      expect(Math.min(...ackedBefore)).toBeGreaterThan(0);
      const backup = await runScript('backup', server.dataDir);
      const ackedAfter = [...acknowledged];
      writing = false;
      await Promise.all(loops);
      for (const b of burners) b.kill('SIGKILL');
      // (The online backup API this replaced never finished here: it restarts whenever a writer commits.)
      expect(backup.status, backup.stderr + backup.stdout).toBe(0);
      // The writers kept committing while it ran: the backup did not stop them.
      expect(ackedAfter.reduce((a, b) => a + b, 0)).toBeGreaterThan(ackedBefore.reduce((a, b) => a + b, 0));
      const backupDir = path.join(server.dataDir, 'backups');
      const files = readdirSync(backupDir);
      // One file, complete: nothing else (no partial copy, no journal) beside it.
      expect(files, files.join(' ')).toHaveLength(1);
      expect(files[0]).toMatch(/^phasewatch-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.sqlite$/);
      expect(backup.stdout).toContain(files[0]);
      // Kept outside the server's data folder, which goes when the server stops.
      const backupFile = path.join(restoreDir, 'kept', files[0] as string);
      mkdirSync(path.dirname(backupFile));
      copyFileSync(path.join(backupDir, files[0] as string), backupFile);

      // While the app runs on the folder, a restore is refused and changes nothing.
      const sizeOf = (dir: string) => readdirSync(dir).sort().join(' ');
      const listing = sizeOf(server.dataDir);
      const refused = await runScript('restore', server.dataDir, [backupFile]);
      expect(refused.status, refused.stdout + refused.stderr).toBe(1);
      expect(refused.stderr).toContain('is in use');
      expect(sizeOf(server.dataDir)).toBe(listing);

      // Restored into a data folder with another database in it: that one is kept aside.
      copyFileSync(path.join(server.dataDir, 'jwt-secret'), path.join(restoreDir, 'jwt-secret'));
      writeFileSync(path.join(restoreDir, 'phasewatch.sqlite'), '');
      await server.stop();
      const r = await runScript('restore', restoreDir, [backupFile]);
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('kept as');
      expect(readdirSync(restoreDir).filter((f) => f.startsWith('phasewatch.sqlite.before-restore-'))).toHaveLength(1);
      expect(readdirSync(restoreDir).filter((f) => f.includes('partial'))).toEqual([]);
      restored = await startServer({ dialect: 'sqlite', dataDir: restoreDir, env: ENV });
      const login = await fetch(`${restored.baseUrl}/api/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'backup@example.com', password: 'secret1' }),
      });
      expect(login.status).toBe(200);
      const restoredToken = ((await login.json()) as { token: string }).token;
      expect(await figures(restored.baseUrl, restoredToken)).toEqual(before);
      // Every reading acknowledged before the backup started is in it (batch by batch, in time order).
      for (const [d, w] of writers.entries()) {
        const res = await fetch(
          `${restored.baseUrl}/api/devices/${w.device.id}/readings?from=${liveStart}&to=${liveStart + 7 * 86_400_000 - 1}&interval=raw&params=vave1`,
          { headers: { authorization: `Bearer ${restoredToken}` } },
        );
        const { ts } = (await res.json()) as { ts: number[] };
        const inBackup = ts.filter((t) => t < liveStart + (ackedBefore[d] ?? 0) * 10_000).length;
        expect(inBackup, `device ${d}`).toBe(ackedBefore[d]);
        expect(ts.length).toBeLessThanOrEqual(ackedAfter[d] ?? 0);
      }
    } finally {
      for (const b of burners) b.kill('SIGKILL');
      await restored?.stop();
      await server.stop();
      rmSync(restoreDir, { recursive: true, force: true });
    }
  }, 300_000);

  it('a killed backup leaves no file that looks like one; the next run clears its remains; a restore checks the file first', async () => {
    const server = await startServer({ dialect: 'sqlite', env: ENV });
    const other = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-restore-'));
    try {
      const { token } = await registerUser(server.baseUrl, 'killed@example.com');
      const res = await fetch(`${server.baseUrl}/api/devices`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'm', mac: '02:BB:00:00:00:01', typeCode: 13 }),
      });
      const { ingestKey } = (await res.json()) as { ingestKey: string };
      const yearAgo = Math.floor((Date.now() - 370 * 86_400_000) / 60_000) * 60_000;
      for (let k = 0; k < 60; k++) {
        const readings = Array.from({ length: 5000 }, (_, i) => ({
          ts: new Date(yearAgo + (k * 5000 + i) * 60_000).toISOString(),
          values: { vave1: 230 + (i % 7), pave1: 500 + (i % 50), eai1: 4000 + (k * 5000 + i) * 0.0125 },
        }));
        const r = await fetch(`${server.baseUrl}/api/ingest`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-device-key': ingestKey },
          body: JSON.stringify({ readings }),
        });
        expect(r.status).toBe(200);
      }
      const backupDir = path.join(server.dataDir, 'backups');
      // Killed at different moments of its copy: whatever is left, no file named like a backup is incomplete.
      for (const afterMs of [50, 250, 600]) {
        const child = spawn(process.execPath, [BACKUP_CLI], { env: { ...process.env, DATA_DIR: server.dataDir }, stdio: 'ignore' });
        await new Promise((r) => setTimeout(r, afterMs));
        child.kill('SIGKILL');
        await new Promise((r) => (child.exitCode === null && child.signalCode === null ? child.once('exit', r) : r(null)));
        for (const f of backupsIn(backupDir)) {
          const check = restoreCli(other, path.join(backupDir, f));
          expect(check.status, `${f}: ${check.stdout}${check.stderr}`).toBe(0);
          rmSync(path.join(backupDir, f));
        }
      }
      const done = spawnSync(process.execPath, [BACKUP_CLI, '--out', path.join(backupDir, 'last.sqlite')], {
        env: { ...process.env, DATA_DIR: server.dataDir },
        encoding: 'utf8',
      });
      expect(done.status, done.stderr).toBe(0);
      expect(readdirSync(backupDir)).toEqual(['last.sqlite']);

      // A restore refuses what is not a whole backup, and changes nothing then.
      const good = path.join(backupDir, 'last.sqlite');
      expect(restoreCli(other, good).status).toBe(0);
      const half = path.join(other, 'half.sqlite');
      writeFileSync(half, readFileSync(good).subarray(0, Math.floor(readFileSync(good).length / 2)));
      const withJournal = path.join(other, 'journal.sqlite');
      copyFileSync(good, withJournal);
      writeFileSync(`${withJournal}-journal`, 'x');
      const notOurs = path.join(other, 'other.sqlite');
      spawnSync(process.execPath, ['-e', `new (require('better-sqlite3'))(${JSON.stringify(notOurs)}).exec('CREATE TABLE t (x)')`], {
        cwd: repoRoot,
      });
      const target = path.join(other, 'phasewatch.sqlite');
      const kept = readFileSync(target);
      for (const [file, reason] of [
        [half, /failed its check|not a SQLite database|malformed/],
        [withJournal, /interrupted copy/],
        [notOurs, /not a Phasewatch database/],
        [path.join(other, 'missing.sqlite'), /does not exist/],
      ] as const) {
        const r = restoreCli(other, file);
        expect(r.status, `${file}: ${r.stdout}${r.stderr}`).toBe(1);
        expect(r.stderr).toMatch(reason);
        expect(readFileSync(target).equals(kept)).toBe(true);
      }
    } finally {
      await server.stop();
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('with DATABASE_URL set, names pg_dump and pg_restore instead of copying anything', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-nobackup-'));
    try {
      const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: 'postgres://u:secret@127.0.0.1:1/db' };
      const r = spawnSync(process.execPath, [BACKUP_CLI], { cwd: repoRoot, env, encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('pg_dump --format=custom');
      expect(r.stderr).not.toContain('secret');
      const restore = spawnSync(process.execPath, [RESTORE_CLI, 'x.dump'], { cwd: repoRoot, env, encoding: 'utf8' });
      expect(restore.status).toBe(2);
      expect(restore.stderr).toContain('pg_restore');
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
