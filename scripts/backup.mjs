#!/usr/bin/env node
// `npm run backup [-- --out <file>]`: a dated online copy of the SQLite database (the app may keep
// running); with DATABASE_URL set it prints the pg_dump advice instead. Builds the server if stale.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureNodeModules, root } from './lib/ensure.mjs';

ensureNodeModules();
const build = spawnSync('npx', ['tsc', '-b'], { stdio: 'inherit', cwd: root });
if (build.status !== 0) process.exit(build.status ?? 1);
// `--out` as the caller named it, relative to where they stand (npm runs scripts from the root).
const cwd = process.env.INIT_CWD ?? process.cwd();
const args = process.argv.slice(2).map((a, i, all) => (all[i - 1] === '--out' ? path.resolve(cwd, a) : a));
const r = spawnSync(process.execPath, [path.join(root, 'apps/server/dist/cli/backup.js'), ...args], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(r.status ?? 1);
