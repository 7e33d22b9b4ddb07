#!/usr/bin/env node
// `npm start`: install what is missing, build what is stale, start the embedded default.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildStale, ensureNodeModules, root } from './lib/ensure.mjs';

ensureNodeModules();
buildStale();
const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], { stdio: 'inherit', cwd: root });
for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
