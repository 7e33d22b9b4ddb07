/*
 * nginx with the shipped site (deploy/nginx-phasewatch.conf) in front of a few local instances: the site's
 * upstream servers replaced by the given ports, its listen by 127.0.0.1 on a free port, everything else as
 * shipped. Its own temp dir (config, pid, logs, proxy buffers), removed at stop; runs in the foreground
 * (`daemon off`), so stopping the child stops it all.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/testing/free-port.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface RunningNginx {
  port: number;
  url: string;
  child: ChildProcess;
  /** nginx's stderr and error log so far. */
  log(): string;
  stop(): Promise<void>;
}

export interface NginxOptions {
  /** `worker_processes` (default `auto`: one per core, as a distribution's nginx.conf has it). */
  workers?: number | 'auto';
  /** `worker_connections` (default 16,384: a live fleet holds two connections per hub client). */
  workerConnections?: number;
  /**
   * The listen socket's backlog (default 8,192, as the server's own: nginx's default of 511 drops the SYNs of
   * a fleet connecting within the same second, and a dropped SYN is sent again only after 1 s).
   */
  backlog?: number;
}

/** The shipped site's text for these upstream ports, listening on 127.0.0.1:`port` only. */
export function nginxSite(upstreams: number[], port: number, backlog = 8192): string {
  const shipped = readFileSync(path.join(repoRoot, 'deploy/nginx-phasewatch.conf'), 'utf8');
  const site = shipped
    .replace(/^[ \t]*server 127\.0\.0\.1:\d+ .*;\n/gm, '')
    .replace(
      /^([ \t]*)keepalive (\d+);$/m,
      (_, indent: string, n: string) =>
        `${upstreams.map((p) => `${indent}server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}\n${indent}keepalive ${n};`,
    )
    .replace(/^([ \t]*)listen 80[^;]*;$/m, `$1listen 127.0.0.1:${port} backlog=${backlog};`)
    .replace(/^[ \t]*listen \[::\]:80[^;]*;\n/m, '');
  if (!site.includes(`listen 127.0.0.1:${port}`) || !site.includes(`server 127.0.0.1:${upstreams[0]}`))
    throw new Error('deploy/nginx-phasewatch.conf: no "listen 80;" or no upstream "keepalive" line to replace');
  return site;
}

/** Starts nginx in front of `upstreams` (ports on 127.0.0.1) and waits until it answers /api/health. */
export async function startNginx(upstreams: number[], options: NginxOptions = {}): Promise<RunningNginx> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-nginx-'));
  // Run as root, nginx's workers run as another user: their temp files go here.
  chmodSync(dir, 0o777);
  for (const d of ['body', 'proxy', 'logs']) {
    mkdirSync(path.join(dir, d));
    chmodSync(path.join(dir, d), 0o777);
  }
  const port = await freePort();
  const workerConnections = options.workerConnections ?? 16_384;
  writeFileSync(path.join(dir, 'site.conf'), nginxSite(upstreams, port, options.backlog));
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      `worker_processes ${options.workers ?? 'auto'};`,
      `worker_rlimit_nofile ${workerConnections * 2};`,
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/logs/error.log warn;`,
      `events { worker_connections ${workerConnections}; }`,
      'http {',
      '  access_log off;',
      `  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;`,
      `  fastcgi_temp_path ${dir}/body; uwsgi_temp_path ${dir}/body; scgi_temp_path ${dir}/body;`,
      `  include ${dir}/site.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  const child = spawn('nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-4000);
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const log = () => {
    try {
      return err + readFileSync(path.join(dir, 'logs/error.log'), 'utf8').slice(-4000);
    } catch {
      return err;
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      // QUIT would wait for the hub's WebSockets to close; TERM is nginx's fast shutdown (the master stops
      // its workers). Should it hang, the workers are killed with it: a killed master leaves them running.
      const workers = childPids(child.pid as number);
      child.kill('SIGTERM');
      const t = setTimeout(() => {
        for (const pid of workers) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {}
        }
        child.kill('SIGKILL');
      }, 10_000);
      await exited;
      clearTimeout(t);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    await spawned;
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`nginx exited: ${log()}`);
      try {
        if ((await fetch(`${url}/api/health`)).ok) break;
      } catch {}
      if (Date.now() > deadline) throw new Error(`nginx did not answer /api/health: ${log()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { port, url, child, log, stop };
}

/** The processes whose parent is `pid` (nginx's workers), from /proc. */
export function childPids(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) found.push(Number(entry));
    } catch {
      // Ended meanwhile.
    }
  }
  return found;
}
