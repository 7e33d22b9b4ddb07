// Set-up steps shared by `npm start`, `npm test` and `npm run bench`: install what is missing,
// build what is stale. Plain Node (no dependencies), since it runs before node_modules exists.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');

/**
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} [opts]
 */
function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.status !== 0) {
    console.error(`\n✖ ${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
}

/** @param {string} p */
function mtime(p) {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return 0;
  }
}

/** Newest modification time of the files under the paths (node_modules and dist skipped). */
/** @param {string[]} paths */
function newest(paths) {
  let max = 0;
  /** @param {string} p */
  const walk = (p) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const e of readdirSync(p)) if (e !== 'node_modules' && e !== 'dist') walk(path.join(p, e));
    } else if (st.mtimeMs > max) max = st.mtimeMs;
  };
  for (const p of paths) walk(path.join(root, p));
  return max;
}

/** npm packages: installs when node_modules is missing or older than the lock file. */
export function ensureNodeModules() {
  const marker = path.join(root, 'node_modules/.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (existsSync(marker) && mtime(marker) >= mtime(lock)) return;
  console.log('▸ Installing npm packages…');
  run('npm', [process.env.CI ? 'ci' : 'install', '--no-audit', '--no-fund']);
}

const isRoot = process.getuid?.() === 0;
let aptUpdated = false;

/** @param {string} cmd */
function hasCommand(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Debian packages, given as { package: command-it-provides } (or an absolute path of a file it installs,
 * for a package without a command, such as a Python module). As root they are installed with apt-get;
 * otherwise the missing ones are named and the script stops.
 *
 * @param {Record<string, string>} pkgs
 */
export function ensureDebianPackages(pkgs) {
  const missing = Object.entries(pkgs)
    .filter(([, cmd]) => (cmd.startsWith('/') ? !existsSync(cmd) : !hasCommand(cmd)))
    .map(([pkg]) => pkg);
  if (missing.length === 0) return;
  if (!isRoot) {
    console.error(
      `\n✖ Missing Debian packages: ${missing.join(', ')}\n  Install them with: sudo apt-get install -y ${missing.join(' ')}\n`,
    );
    process.exit(1);
  }
  console.log(`▸ Installing Debian packages: ${missing.join(', ')}…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    run('apt-get', ['update', '-qq'], { env });
    aptUpdated = true;
  }
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
}

/** PostgreSQL server binaries: on the machines already; installed from Debian when absent. */
export function ensurePostgres() {
  const candidates = ['/usr/lib/postgresql/15/bin/initdb', '/usr/local/bin/initdb'];
  if (candidates.some((p) => existsSync(p)) || hasCommand('initdb')) return;
  ensureDebianPackages({ 'postgresql-15': '/usr/lib/postgresql/15/bin/initdb' });
}

/** TypeScript projects (incremental: near-instant when nothing changed) and the web bundle when stale. */
export function buildStale({ quiet = false } = {}) {
  if (!quiet) console.log('▸ Building (TypeScript)…');
  run('npx', ['tsc', '-b']);
  const webIndex = path.join(root, 'apps/web/index.html');
  if (!existsSync(webIndex)) return;
  const built = mtime(path.join(root, 'apps/web/dist/index.html'));
  const sources = newest([
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/build',
    'apps/web/public',
    'packages/shared/src',
    'package-lock.json',
  ]);
  if (built >= sources) return;
  console.log('▸ Building the web app (Vite)…');
  run('npm', ['run', 'build', '-w', '@phasewatch/web']);
}

export function gitRevision() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}
