#!/usr/bin/env node
// `npm run collector -- --server URL --config FILE`: the server's collectors (Fox ENERGY, Shelly, Tasmota)
// as a small process beside the meters, sending through the public ingest API of a server that cannot
// reach them. Builds the server if stale.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureNodeModules, root } from './lib/ensure.mjs';

ensureNodeModules();
const build = spawnSync('npx', ['tsc', '-b'], { stdio: 'inherit', cwd: root });
if (build.status !== 0) process.exit(build.status ?? 1);
const r = spawnSync(process.execPath, [path.join(root, 'apps/server/dist/cli/collector.js'), ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: process.cwd(),
});
process.exit(r.status ?? 1);
