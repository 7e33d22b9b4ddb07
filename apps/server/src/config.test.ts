import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Every non-test TypeScript file of the server's sources. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test' ? [] : sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** The variables the server reads: `env.NAME` (loadConfig's argument) and `process.env.NAME`. */
function variablesRead(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(path.join(repoRoot, 'apps/server/src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\benv\.([A-Z][A-Z0-9_]+)\b/g)) names.add(m[1] as string);
  }
  return names;
}

/** The variables the README's configuration table names (first column, one or more `NAME`s). */
function variablesDocumented(): Set<string> {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const section = readme.split('## Configuration')[1]?.split('\n## ')[0] ?? '';
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    const first = line.startsWith('| `') ? line.split('|')[1] : undefined;
    for (const m of first?.matchAll(/`([A-Z][A-Z0-9_]+)`/g) ?? []) names.add(m[1] as string);
  }
  return names;
}

describe('configuration', () => {
  it('documents in the README every environment variable the server reads, and only those', () => {
    const read = variablesRead();
    const documented = variablesDocumented();
    // Sanity: both sides were found (a renamed heading would make the comparison vacuous).
    expect(read.size).toBeGreaterThan(20);
    expect(documented.has('DATABASE_URL')).toBe(true);
    expect([...read].filter((v) => !documented.has(v)).sort(), 'read by the server, missing from the README').toEqual([]);
    expect([...documented].filter((v) => !read.has(v)).sort(), 'in the README, read nowhere').toEqual([]);
  });

  it('refuses a malformed number with the variable named', () => {
    expect(() => loadConfig({ DATA_DIR: '/tmp/pw-config-test', JWT_SECRET: 'x', PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATA_DIR: '/tmp/pw-config-test', JWT_SECRET: 'x', ENERGY_JITTER_RATIO: '1.5' })).toThrow(
      /ENERGY_JITTER_RATIO/,
    );
  });
});
