import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The web's import rules (docs/ARCHITECTURE.md, "Web features"):
 * - a feature (`apps/web/src/features/<name>/`) is entered only through its front, `features/<name>/index.ts`;
 *   files of the feature itself (its tests too) use its other files directly. The one exception: an
 *   `import()` expression in a file under `app/` may name a feature's module (a route's lazy chunk, where a
 *   front would change the code-splitting);
 * - no two features import each other (in either direction, however indirect the files);
 * - `lib/` and `components/` (what several features use) import no feature.
 */

const root = path.resolve(import.meta.dirname, '../..');
const src = path.join(root, 'apps/web/src');
const features = path.join(src, 'features');

interface Import {
  /** The importing file, relative to apps/web/src. */
  from: string;
  /** The specifier as written. */
  spec: string;
  /** The file it names, relative to apps/web/src. */
  target: string;
  /** An `import()` expression (or `typeof import()`), not a declaration. */
  dynamic: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The file a specifier names: relative paths and the `@/` alias (apps/web/src); packages are not ours. */
function resolve(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = path.join(src, spec.slice(2));
  else if (spec.startsWith('./') || spec.startsWith('../')) base = path.resolve(path.dirname(from), spec);
  else return null;
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  throw new Error(`${path.relative(src, from)}: cannot resolve '${spec}'`);
}

/** Every import of a file: declarations, re-exports, `import()` and `typeof import()`. */
function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Import[] = [];
  const add = (node: ts.Node | undefined, dynamic: boolean) => {
    if (!node || !ts.isStringLiteralLike(node)) return;
    const target = resolve(file, node.text);
    if (target) found.push({ from: path.relative(src, file), spec: node.text, target: path.relative(src, target), dynamic });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier, false);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], true);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The feature a file (relative to apps/web/src) belongs to, or null. */
const featureOf = (file: string): string | null => {
  const parts = file.split(path.sep);
  return parts[0] === 'features' && parts.length > 2 ? (parts[1] as string) : null;
};

const files = sourceFiles(src);
const imports = files.flatMap(importsOf);
const featureNames = readdirSync(features, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

describe('web features: one front door each, imports one way', () => {
  it('reads the whole web source', () => {
    expect(files.length).toBeGreaterThan(250);
    expect(featureNames.length).toBeGreaterThan(10);
    // Features do use one another (through their fronts): the checks below have something to check.
    expect(
      imports.filter((i) => featureOf(i.target) && featureOf(i.from) && featureOf(i.from) !== featureOf(i.target)).length,
    ).toBeGreaterThan(20);
  });

  it('every feature has its front, index.ts', () => {
    expect(featureNames.filter((f) => !existsSync(path.join(features, f, 'index.ts')))).toEqual([]);
  });

  it('enters a feature from outside only through its index.ts (app/ may import() a lazy route chunk)', () => {
    const bad = imports
      .filter((i) => {
        const target = featureOf(i.target);
        if (!target || featureOf(i.from) === target) return false;
        if (i.target === path.join('features', target, 'index.ts')) return false;
        return !(i.dynamic && i.from.split(path.sep)[0] === 'app');
      })
      .map(
        (i) => `${i.from}: imports '${i.spec}' — another feature's internals; import '@/features/${featureOf(i.target)}' (its index.ts)`,
      );
    expect(bad).toEqual([]);
  });

  it('has no two features importing each other', () => {
    const uses = new Map<string, Import[]>();
    for (const i of imports) {
      const a = featureOf(i.from);
      const b = featureOf(i.target);
      if (!a || !b || a === b) continue;
      uses.set(`${a} -> ${b}`, [...(uses.get(`${a} -> ${b}`) ?? []), i]);
    }
    const bad: string[] = [];
    for (const [pair, list] of uses) {
      const [a, b] = pair.split(' -> ') as [string, string];
      const back = uses.get(`${b} -> ${a}`);
      if (a < b && back) {
        const first = (l: Import[]) => l.map((i) => `${i.from} imports '${i.spec}'`).join('; ');
        bad.push(`features ${a} and ${b} import each other (a two-way pair): ${first(list)} — and ${first(back)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('lib/ and components/ import no feature', () => {
    const bad = imports
      .filter((i) => ['lib', 'components'].includes(i.from.split(path.sep)[0] as string) && featureOf(i.target))
      .map((i) => `${i.from}: imports '${i.spec}' — lib/ and components/ are below the features and import none of them`);
    expect(bad).toEqual([]);
  });
});
