import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { registerUser, repoRoot, startServer } from '../e2e/support/server.js';
import type { BenchContext } from './run.js';

/**
 * The weight of `/dashboard`: the JavaScript a browser needs before the dashboard's device list is
 * visible, gzipped (target ≤ 200 KB), and that no chart code (uPlot and the chart components) is part of
 * it.
 *
 * Measured in Chromium as a user opens it (signed in, a fresh load, no cache): every script that has
 * arrived by the moment the first device row is on screen, by the Resource Timing of the page (bytes as
 * sent, gzip over plain HTTP), whatever asked for it — the entry, the route, the language's core catalogue
 * (feature areas' texts load with their screens: src/i18n/index.ts), and anything started early (idle prefetches, menus, the hub
 * client, other languages) that happened to arrive first. What arrives after is printed apart.
 *
 * Also from the Vite manifest (the static part): the entry chunk, the dashboard route's chunk and the
 * language's core catalogue (`locales/<lng>.json`), with every chunk
 * they import statically; and a second load with every other script refused, which must still show the
 * list. The baseline of the same run is all JavaScript of the build.
 */

const TARGET_KB = 200;
const web = path.join(repoRoot, 'apps/web');
const dist = path.join(web, 'dist');
const manifestFile = path.join(dist, '.vite/manifest.json');

interface Chunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, Chunk>;

/** The manifest of a build as fresh as the sources (builds when there is none or it is older). */
function manifest(): Manifest {
  const newest = (p: string): number => {
    const s = statSync(p);
    if (!s.isDirectory()) return s.mtimeMs;
    return Math.max(
      s.mtimeMs,
      ...execFileSync('find', [p, '-type', 'f'], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((f) => statSync(f).mtimeMs),
    );
  };
  const sources = Math.max(newest(path.join(web, 'src')), newest(path.join(web, 'vite.config.ts')));
  if (!existsSync(manifestFile) || statSync(manifestFile).mtimeMs < sources) {
    execFileSync('npm', ['run', 'build', '-w', '@phasewatch/web'], { cwd: repoRoot, stdio: 'ignore' });
  }
  return JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
}

/** The chunks a chunk needs before it runs: itself and its static imports, transitively. */
function closure(m: Manifest, keys: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const walk = (k: string) => {
    if (seen.has(k) || !m[k]) return;
    seen.add(k);
    for (const i of m[k].imports ?? []) walk(i);
  };
  for (const k of keys) walk(k);
  return seen;
}

const gz = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
/** Chart code: uPlot (its class names are in its code) or the app's chart chunks. */
const isChartCode = (file: string) => /uplot|chart/i.test(file) || readFileSync(path.join(dist, file), 'utf8').includes('u-over');

export default async function dashboardWeight(ctx: BenchContext) {
  const m = manifest();
  const entry = Object.keys(m).find((k) => m[k]?.isEntry);
  const route = Object.keys(m).find((k) => k.endsWith('src/app/routes/dashboard.tsx'));
  if (!entry || !route) throw new Error('manifest has no entry or no dashboard route chunk');
  // The user's core catalogue is loaded before the first render (a dynamic import, counted here: English);
  // feature areas' texts load with the screens that show them (src/i18n/index.ts).
  const catalogues = Object.keys(m).filter((k) => k.endsWith('src/i18n/locales/en.json'));
  const initial = [...closure(m, [entry, route, ...catalogues])].map((k) => m[k]?.file as string);
  const initialGz = initial.reduce((s, f) => s + gz(f), 0) / 1024;
  const allJs = [...new Set(Object.values(m).map((c) => c.file))].filter((f) => f.endsWith('.js'));
  const allGz = allJs.reduce((s, f) => s + gz(f), 0) / 1024;
  const charts = initial.filter(isChartCode);
  ctx.report('all JavaScript of the build, gzipped (baseline)', allGz, 'KB', `${allJs.length} chunks`);
  ctx.report(
    '/dashboard initial JavaScript (manifest), gzipped',
    initialGz,
    'KB',
    `${initial.length} chunks (${catalogues.length} catalogue files), ${((100 * initialGz) / allGz).toFixed(0)} % of all; target ≤ ${TARGET_KB} KB ${initialGz <= TARGET_KB ? '✓' : '✖'}`,
  );
  ctx.report('chart chunks in it', charts.length, '', charts.length ? `✖ ${charts.join(', ')}` : '✓ none (uPlot loads with device pages)');

  // The same in a browser: what opening /dashboard fetches.
  const server = await startServer({ env: { LOG_LEVEL: 'warn' } });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const email = 'weight@phasewatch.test';
    const { token } = await registerUser(server.baseUrl, email);
    await fetch(`${server.baseUrl}/api/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'Bench meter', mac: '02:00:00:00:0C:01', typeCode: 13 }),
    });
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, baseURL: server.baseUrl });
    // The moment the first device row is on screen, seen by the page itself. (A string: tsx wraps named
    // functions of this file in a helper the page does not have.)
    await context.addInitScript(`
      new MutationObserver(() => {
        const row = document.querySelector('[data-device-row], [data-device-card]');
        if (window.__listVisible === undefined && row && row.getBoundingClientRect().height > 0) window.__listVisible = performance.now();
      }).observe(document, { childList: true, subtree: true });
    `);
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel(/^Email/).fill(email);
    await page.getByLabel(/^Password/).fill('secret1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });

    // 1. As a user opens it: nothing refused. Median of three loads.
    type Loaded = { file: string; bytes: number; end: number };
    const loads: { before: Loaded[]; after: Loaded[]; visible: number }[] = [];
    for (let run = 0; run < 3; run++) {
      await page.goto('/dashboard');
      await page.locator('[data-device-row]').first().waitFor({ timeout: 30_000 });
      // What is started early (idle prefetches, menus, the hub client) has time to arrive.
      await page.waitForTimeout(4000);
      const seen = await page.evaluate(() => {
        const visible = (window as unknown as { __listVisible?: number }).__listVisible ?? Number.POSITIVE_INFINITY;
        const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((e) => new URL(e.name).pathname.endsWith('.js'))
          .map((e) => ({ file: new URL(e.name).pathname.replace(/^\//, ''), bytes: e.encodedBodySize, end: e.responseEnd }));
        return { visible, scripts };
      });
      loads.push({
        visible: seen.visible,
        before: seen.scripts.filter((x) => x.end <= seen.visible),
        after: seen.scripts.filter((x) => x.end > seen.visible),
      });
    }
    const kb = (xs: Loaded[]) => xs.reduce((a, x) => a + x.bytes, 0) / 1024;
    loads.sort((a, b) => kb(a.before) - kb(b.before));
    const median = loads[1] as (typeof loads)[number];
    const beforeKb = kb(median.before);
    ctx.report(
      '/dashboard JavaScript before its list is visible (browser)',
      beforeKb,
      'KB',
      `${median.before.length} files as sent (gzip), list visible at ${median.visible.toFixed(0)} ms; loads ${loads.map((l) => kb(l.before).toFixed(1)).join(' / ')} KB; target ≤ ${TARGET_KB} KB ${beforeKb <= TARGET_KB ? '✓' : '✖'}`,
    );
    const extra = median.before.filter((x) => !initial.includes(x.file));
    ctx.report(
      '  of it beyond the static part',
      kb(extra),
      'KB',
      extra.length ? extra.map((x) => `${x.file} ${(x.bytes / 1024).toFixed(1)}`).join(', ') : 'none',
    );
    ctx.report('after the list is visible (menus, hub client, prefetches, …)', kb(median.after), 'KB', `${median.after.length} files`);
    const browserCharts = median.before.map((x) => x.file).filter((f) => existsSync(path.join(dist, f)) && isChartCode(f));
    ctx.report('chart files before the list', browserCharts.length, '', browserCharts.length ? `✖ ${browserCharts.join(', ')}` : '✓ none');

    // 2. With only the static part allowed: the list must show without the rest.
    const allowed = new Set(initial);
    const blocked: string[] = [];
    await page.route('**/assets/*.js', (r) => {
      const file = new URL(r.request().url()).pathname.replace(/^\//, '');
      if (allowed.has(file)) return r.continue();
      blocked.push(file);
      return r.abort();
    });
    await page.goto('/dashboard');
    await page.locator('[data-device-row]').first().waitFor({ timeout: 30_000 });
    ctx.report(
      '/dashboard shows its devices with the static part only',
      initial.length,
      'files',
      `✓ ${new Set(blocked).size} later files held back`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}
