import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { freePort } from '../../scripts/testing/free-port.js';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  baseUrl: string;
  port: number;
  dataDir: string;
  databaseUrl: string;
  /** The server process's id (a job queue's `claimed_by` names it: `<host>:<pid>:<random>`). */
  pid: number;
  /** Everything the process printed (stdout + stderr), for assertions and failure messages. */
  output(): string;
  stop(): Promise<void>;
  /** Kills the process with SIGKILL, as a crash or a power cut of the host would end it (data dir kept). */
  kill(): Promise<void>;
}

export interface StartOptions {
  dialect?: 'sqlite' | 'postgres';
  /** Extra environment (e.g. DEMO_ACCOUNT, SIMULATE, MQTT_URL, JWT_SECRET). */
  env?: Record<string, string>;
  /** Reuse a database (PostgreSQL URL) or data dir, e.g. for two instances on one database. */
  databaseUrl?: string;
  dataDir?: string;
}

let dbCounter = 0;

/** A fresh PostgreSQL database in the test cluster; returns its URL. */
export async function createPgDatabase(): Promise<string> {
  const admin = inject('pgUrl');
  const name = `e2e_${process.pid}_${Date.now().toString(36)}_${dbCounter++}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Starts the built server (`apps/server/dist/server.js`, built by `npm test`) as its own process on a
 * free loopback port with a fresh data dir, and waits until /api/health answers. No demo data and no
 * simulator unless `env` asks for them.
 */
export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const ownDataDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'phasewatch-e2e-'));
  const databaseUrl = opts.databaseUrl ?? (opts.dialect === 'postgres' ? await createPgDatabase() : '');
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    DEMO_ACCOUNT: 'off',
    SIMULATE: '0',
    // Tests talk to this machine only: collectors reach loopback alone, discovery never broadcasts.
    COLLECTOR_NETWORKS: '127.0.0.0/8,::1/128',
    COLLECTOR_DISCOVERY_ADDRESS: '127.0.0.1:9',
    // No daily RCE import from PSE's public API (a test that wants one sets RCE_SOURCE_URL to a fake on 127.0.0.1).
    RCE_IMPORT: 'off',
    LOG_LEVEL: 'warn',
    ...opts.env,
  };
  let out = '';
  const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, 'apps/server/dist/server.js')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const code = await Promise.race([exited, new Promise<'wait'>((r) => setTimeout(() => r('wait'), 100))]);
    if (code !== 'wait') throw new Error(`server exited (${code}) before it was ready:\n${out}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become ready in 60 s:\n${out}`);
    }
  }
  return {
    baseUrl,
    port,
    dataDir,
    databaseUrl,
    pid: child.pid ?? 0,
    output: () => out,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(t);
      }
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Registers a user over HTTP and returns the access token. */
export async function registerUser(baseUrl: string, email: string, password = 'secret1'): Promise<{ token: string; userId: number }> {
  const res = await fetch(`${baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, country: 'PL', fullName: 'E2E User' }),
  });
  if (!res.ok) throw new Error(`register ${email}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: string; user: { id: number } };
  return { token: body.token, userId: body.user.id };
}
