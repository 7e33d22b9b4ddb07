#!/usr/bin/env node
// `npm run audit`: `npm audit --omit=dev` (what the server installs in production), failing on any high or
// critical advisory. CI runs it (.ci/run). When the advisory service cannot be reached (a registry mirror
// or proxy that refuses its POST), it says so plainly and fails only with AUDIT_REQUIRED=1: an audit that
// did not run is reported as not run, never as passed.
import { spawnSync } from 'node:child_process';
import { root } from './lib/ensure.mjs';

const r = spawnSync('npm', ['audit', '--omit=dev', '--json'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
let report;
try {
  report = JSON.parse(r.stdout);
} catch {
  report = null;
}
const counts = report?.metadata?.vulnerabilities;
if (!counts) {
  const reason = report?.message ?? report?.error?.summary ?? (r.stderr || r.stdout || 'no answer').trim().split('\n').slice(-3).join(' ');
  console.error(`✖ npm audit could not run: ${reason}`);
  console.error('  The advisory database was not consulted; nothing is known about advisories.');
  process.exit(process.env.AUDIT_REQUIRED === '1' ? 1 : 0);
}
const serious = Object.values(report.vulnerabilities ?? {}).filter((v) => v.severity === 'high' || v.severity === 'critical');
console.log(
  `npm audit --omit=dev: ${counts.critical} critical, ${counts.high} high, ${counts.moderate} moderate, ${counts.low} low, ${counts.info} info (${report.metadata.dependencies?.prod ?? '?'} production packages)`,
);
for (const v of serious) {
  const via = v.via
    .map((/** @type {string | {title: string, url: string}} */ x) => (typeof x === 'string' ? x : `${x.title} (${x.url})`))
    .join('; ');
  console.log(`  ${v.severity} ${v.name} ${v.range}: ${via}`);
}
process.exit(serious.length > 0 ? 1 : 0);
