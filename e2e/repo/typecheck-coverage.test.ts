import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

/** The projects `npm run typecheck` checks (package.json), each as `tsc -p` takes it. */
const PROJECTS = ['packages/shared', 'apps/simulator', 'apps/server', 'tsconfig.tests.json', 'e2e', 'bench', 'apps/web'];

function filesOf(project: string): string[] {
  const out = execFileSync(process.execPath, [tsc, '-p', path.join(root, project), '--listFilesOnly'], { cwd: root, encoding: 'utf8' });
  return out
    .split('\n')
    .filter((f) => f && !f.includes('/node_modules/'))
    .map((f) => path.relative(root, f));
}

describe('npm run typecheck', () => {
  it('runs every project listed here', async () => {
    const { readFile } = await import('node:fs/promises');
    const script: string = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')).scripts.typecheck;
    for (const p of ['tsc -b', 'tsconfig.tests.json', '-p e2e', '-p bench', 'typecheck -w @phasewatch/web']) expect(script).toContain(p);
  });

  it('covers every TypeScript and JavaScript file of the repository, tests and scripts included', () => {
    const covered = new Set(PROJECTS.flatMap(filesOf));
    const tracked = execFileSync('git', ['ls-files', '*.ts', '*.tsx', '*.mts', '*.mjs', '*.js'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    expect(tracked.length).toBeGreaterThan(300);
    expect(tracked.filter((f) => !covered.has(f))).toEqual([]);
  }, 120_000);
});
