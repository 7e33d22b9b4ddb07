import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The server's module rules (docs/ARCHITECTURE.md, "Server modules"), read from the source as text:
 * (a) from outside `apps/server/src/modules/<x>/`, code imports that module only through its front,
 *     `modules/<x>/index.ts` (files inside the module, its tests included, may import its internals);
 * (b) no two server modules import each other, at run time or for types (one way only);
 * (c) migrations are frozen: a file of storage/migrations (its tests aside) imports nothing outside storage/;
 * (d) every module is a folder with a front; no loose files in modules/.
 * Every import is seen: `import`, `import type`, `export ... from`, `import()` (ts.preProcessFile).
 */

const root = path.resolve(import.meta.dirname, '../..');
const SERVER = path.join(root, 'apps/server/src');
const MODULES = path.join(SERVER, 'modules');
const STORAGE = path.join(SERVER, 'storage');
const MIGRATIONS = path.join(STORAGE, 'migrations');
/** Where code that may import the server lives. */
const ROOTS = ['apps/server/src', 'apps/simulator', 'bench', 'e2e'].map((r) => path.join(root, r));

const rel = (f: string) => path.relative(root, f);
const isTest = (f: string) => /\.test\.tsx?$/.test(f) || f.includes(`${path.sep}test${path.sep}`);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (/\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

interface Import {
  from: string;
  specifier: string;
  /** The file the specifier names (`.js` read as the `.ts` beside it). */
  target: string;
}

/** Every relative import of `file`, resolved to the file it names. */
function importsOf(file: string, text = readFileSync(file, 'utf8')): Import[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((i) => i.fileName)
    .filter((s) => s.startsWith('.'))
    .map((specifier) => {
      const resolved = path.resolve(path.dirname(file), specifier);
      const target = /\.(m?js)$/.test(resolved) ? resolved.replace(/\.(m?)js$/, '.$1ts') : resolved;
      return { from: file, specifier, target };
    });
}

/** The module a file belongs to (`devices` for modules/devices/devices.service.ts), or null outside modules/. */
function moduleOf(file: string): string | null {
  const r = path.relative(MODULES, file);
  if (r.startsWith('..') || path.isAbsolute(r)) return null;
  const parts = r.split(path.sep);
  return parts.length > 1 ? (parts[0] as string) : null;
}

const inside = (dir: string, file: string) => {
  const r = path.relative(dir, file);
  return !r.startsWith('..') && !path.isAbsolute(r);
};

/** Rule (a): the imports that reach past a module's front. */
function frontViolations(imports: readonly Import[]): string[] {
  const out: string[] = [];
  for (const i of imports) {
    const mod = moduleOf(i.target);
    if (!mod || moduleOf(i.from) === mod) continue;
    if (i.target === path.join(MODULES, mod, 'index.ts')) continue;
    out.push(
      `${rel(i.from)} imports '${i.specifier}' (${rel(i.target)}): code outside modules/${mod}/ imports it only through modules/${mod}/index.ts`,
    );
  }
  return out;
}

/** Rule (b): pairs of modules that import each other (non-test files; run-time and type imports alike). */
function twoWayPairs(imports: readonly Import[]): string[] {
  const edges = new Map<string, Import>();
  for (const i of imports) {
    const a = moduleOf(i.from);
    const b = moduleOf(i.target);
    if (!a || !b || a === b || isTest(i.from)) continue;
    if (!edges.has(`${a}>${b}`)) edges.set(`${a}>${b}`, i);
  }
  const out: string[] = [];
  for (const [key, i] of edges) {
    const [a, b] = key.split('>') as [string, string];
    const back = edges.get(`${b}>${a}`);
    if (!back || a > b) continue;
    out.push(
      `modules/${a} and modules/${b} import each other (${rel(i.from)} imports '${i.specifier}'; ${rel(back.from)} imports '${back.specifier}'): modules import one way only`,
    );
  }
  return out;
}

/** Rule (c): migration files importing live code (anything outside storage/). */
function migrationViolations(imports: readonly Import[]): string[] {
  return imports
    .filter((i) => inside(MIGRATIONS, i.from) && !isTest(i.from) && !inside(STORAGE, i.target))
    .map(
      (i) =>
        `${rel(i.from)} imports '${i.specifier}' (${rel(i.target)}): migrations are frozen and import only storage/ (copies of live code go to storage/migrations/legacy/)`,
    );
}

const files = ROOTS.filter((r) => existsSync(r)).flatMap((r) => sourceFiles(r));
const imports = files.flatMap((f) => importsOf(f));

describe('server modules: one front door each, imports one way, frozen migrations', () => {
  it('reads the whole server and every place that imports it', () => {
    expect(files.length).toBeGreaterThan(300);
    // The rules below would pass on nothing: the walk sees the modules' fronts and the imports through them.
    expect(imports.filter((i) => moduleOf(i.target) && i.target.endsWith(`${path.sep}index.ts`)).length).toBeGreaterThan(50);
  });

  it('(d) every module is a folder with a front, modules/<name>/index.ts', () => {
    const entries = readdirSync(MODULES);
    const loose = entries.filter((e) => !statSync(path.join(MODULES, e)).isDirectory()).map((e) => `modules/${e}`);
    expect(loose, 'files directly in modules/ (a module is a folder with an index.ts)').toEqual([]);
    const frontless = entries
      .filter((e) => statSync(path.join(MODULES, e)).isDirectory() && !existsSync(path.join(MODULES, e, 'index.ts')))
      .map((e) => `modules/${e}/ has no index.ts (its front)`);
    expect(frontless).toEqual([]);
  });

  it('(a) code outside a module imports it only through its index.ts', () => {
    expect(frontViolations(imports)).toEqual([]);
  });

  it('(b) no two modules import each other', () => {
    expect(twoWayPairs(imports)).toEqual([]);
  });

  it('(c) migrations import nothing outside storage/', () => {
    expect(migrationViolations(imports)).toEqual([]);
  });

  it('catches each kind of violation (planted imports, read as text)', () => {
    const at = (p: string) => path.join(SERVER, p);
    const planted = [
      ...importsOf(at('app.ts'), "import { DevicesService } from './modules/devices/devices.service.js';"),
      ...importsOf(at('modules/devices/devices.service.ts'), "import type { X } from '../collectors/index.js';"),
      ...importsOf(at('modules/collectors/collectors.service.ts'), "import { Y } from '../devices/index.js';"),
      ...importsOf(at('storage/migrations/0099-planted.ts'), "export { Z } from '../../modules/readings/index.js';"),
      ...importsOf(at('jobs/kinds.ts'), "const k = () => import('../modules/exports/export-job.js');"),
    ];
    expect(frontViolations(planted)).toEqual([
      expect.stringContaining("apps/server/src/app.ts imports './modules/devices/devices.service.js'"),
      expect.stringContaining("apps/server/src/jobs/kinds.ts imports '../modules/exports/export-job.js'"),
    ]);
    expect(twoWayPairs(planted)).toEqual([expect.stringContaining('modules/collectors and modules/devices import each other')]);
    expect(migrationViolations(planted)).toEqual([
      expect.stringContaining("apps/server/src/storage/migrations/0099-planted.ts imports '../../modules/readings/index.js'"),
    ]);
  });
});
