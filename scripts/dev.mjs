#!/usr/bin/env node
// `npm run dev`: the server in watch mode (tsx) on :8080 and the Vite dev server (proxying /api and
// /hubs to it) on :5173. Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { ensureNodeModules, root } from './lib/ensure.mjs';

ensureNodeModules();
const procs = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'apps/server/src/server.ts'], { stdio: 'inherit', cwd: root }),
  spawn('npm', ['run', 'dev', '-w', '@phasewatch/web'], { stdio: 'inherit', cwd: root }),
];
const stop = () => {
  for (const p of procs) p.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const p of procs) p.on('exit', (code) => code && code !== 0 && stop());
