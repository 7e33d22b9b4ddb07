import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

export interface PgCluster {
  url: string;
  stop(): void;
}

const isRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary; as root it runs as the `postgres` user, since PostgreSQL refuses root. */
function pgRun(bin: string, args: string[]): void {
  const cmd = isRoot ? 'runuser' : bin;
  const argv = isRoot ? ['-u', 'postgres', '--', bin, ...args] : args;
  const r = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout || r.error}`);
}

function findBin(name: string): string {
  for (const dir of ['/usr/lib/postgresql/15/bin', '/usr/local/bin', '/usr/bin']) {
    const p = path.join(dir, name);
    try {
      execFileSync('test', ['-x', p]);
      return p;
    } catch {
      // try the next place
    }
  }
  return name;
}

/**
 * A throw-away PostgreSQL cluster: initdb into a temp dir, pg_ctl start on a free loopback port with
 * durability off (test data only), and stop() removes it.
 */
export async function startPgCluster(): Promise<PgCluster> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-pg-'));
  chmodSync(dir, 0o777);
  const dataDir = path.join(dir, 'data');
  if (isRoot) execFileSync('chown', ['postgres', dir]);
  const port = await freePort();
  pgRun(findBin('initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--locale=C']);
  const opts = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
    '-c shared_buffers=128MB',
  ].join(' ');
  pgRun(findBin('pg_ctl'), ['-D', dataDir, '-o', opts, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        pgRun(findBin('pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
