#!/usr/bin/env node
// `npm run restore -- <file>`: a backup of `npm run backup` becomes the SQLite database of DATA_DIR, with
// the app stopped (refused while anything has the database open); the replaced database is kept beside
// it. Builds the server if stale.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureNodeModules, root } from './lib/ensure.mjs';

ensureNodeModules();
const build = spawnSync('npx', ['tsc', '-b'], { stdio: 'inherit', cwd: root });
if (build.status !== 0) process.exit(build.status ?? 1);
// The file as the caller named it, relative to where they stand (npm runs scripts from the root).
const cwd = process.env.INIT_CWD ?? process.cwd();
const args = process.argv.slice(2).map((a) => (a.startsWith('-') ? a : path.resolve(cwd, a)));
const r = spawnSync(process.execPath, [path.join(root, 'apps/server/dist/cli/restore.js'), ...args], { stdio: 'inherit', cwd: root });
process.exit(r.status ?? 1);
