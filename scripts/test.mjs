#!/usr/bin/env node
// `npm test`: its own set-up (npm packages, Debian packages, a build for the browser tests), then every
// test with Vitest. PostgreSQL clusters and Mosquitto brokers are started by the Vitest global setup of
// the projects that need them. Extra arguments go to Vitest (e.g. `npm test -- --project server`).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildStale, ensureDebianPackages, ensureNodeModules, ensurePostgres, root } from './lib/ensure.mjs';

ensureNodeModules();
ensureDebianPackages({
  chromium: 'chromium',
  mosquitto: 'mosquitto',
  // The scale-out test: two instances behind nginx (e2e/api/scale-out.test.ts).
  nginx: 'nginx',
  // Export tests: PDF text and fonts (pdftotext, pdffonts), the CSV read by Python's csv and pandas and by
  // LibreOffice Calc (headless, ~30 s to install: the check is worth it).
  'poppler-utils': 'pdftotext',
  'python3-pandas': '/usr/lib/python3/dist-packages/pandas/__init__.py',
  'libreoffice-calc-nogui': 'soffice',
});
ensurePostgres();
buildStale();

const out = path.join(root, '.tmp');
mkdirSync(out, { recursive: true });
const report = path.join(out, 'vitest-report.json');
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
const r = spawnSync('npx', args, {
  stdio: 'inherit',
  cwd: root,
  env: { RCE_IMPORT: 'off', ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1' },
});

try {
  const j = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
  console.log(`\nTests: ${j.numPassedTests} passed, ${j.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`);
  if (j.numTotalTests === 0) {
    console.error('✖ no test ran');
    process.exit(1);
  }
} catch {
  console.error('✖ no test report was written');
}
process.exit(r.status ?? 1);
