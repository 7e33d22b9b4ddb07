#!/usr/bin/env node
// `npm run bench`: set-up as for the tests, then every benchmark in bench/*.bench.ts (or those named:
// `npm run bench -- ingest`). Figures are printed, not asserted.
import { spawnSync } from 'node:child_process';
import { buildStale, ensureDebianPackages, ensureNodeModules, ensurePostgres, root } from './lib/ensure.mjs';

ensureNodeModules();
ensureDebianPackages({ mosquitto: 'mosquitto' });
ensurePostgres();
buildStale();
const r = spawnSync('npx', ['tsx', 'bench/run.ts', ...process.argv.slice(2)], { stdio: 'inherit', cwd: root });
process.exit(r.status ?? 1);
