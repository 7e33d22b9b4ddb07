import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { registerUser, repoRoot, startServer } from '../e2e/support/server.js';
import type { BenchContext } from './run.js';

/**
 * The weight of `/dashboard`: the JavaScript a browser needs before the dashboard shows, gzipped
 * (target ≤ 200 KB), and that no chart code (uPlot and the chart components) is part of it.
 *
 * Static figure: from the Vite manifest, the entry chunk, the dashboard route's chunk and the English
 * catalogue with every chunk they import statically. Checked in Chromium: /dashboard, signed in, with
 * every other script request refused, still shows its devices (what arrives after the first paint, the
 * header menus and the hub client, is printed apart). The baseline of the same run is all JavaScript.
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
  // The user's catalogue is loaded before the first render (dynamic imports, counted here: English): the
  // core file and every feature area's (`locales/<area>/en.json`).
  const catalogues = Object.keys(m).filter((k) => /src\/i18n\/locales\/([^/]+\/)?en\.json$/.test(k));
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
    `${initial.length} chunks, ${((100 * initialGz) / allGz).toFixed(0)} % of all; target ≤ ${TARGET_KB} KB ${initialGz <= TARGET_KB ? '✓' : '✖'}`,
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
    const page = await (await browser.newContext({ viewport: { width: 1366, height: 900 }, baseURL: server.baseUrl })).newPage();
    await page.goto('/sign-in');
    await page.getByLabel(/^Email/).fill(email);
    await page.getByLabel(/^Password/).fill('secret1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard');
    // A fresh load of /dashboard with only the initial files allowed: the list must show without the rest
    // (menus, the hub client and other languages arrive after the first paint).
    const allowed = new Set(initial);
    const blocked: string[] = [];
    await page.route('**/assets/*.js', (r) => {
      const file = new URL(r.request().url()).pathname.replace(/^\//, '');
      if (allowed.has(file)) return r.continue();
      blocked.push(file);
      return r.abort();
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const sizes = new Map<string, number>();
    const urls = new Map<string, string>();
    cdp.on('Network.responseReceived', (e) => {
      if (e.type === 'Script') urls.set(e.requestId, e.response.url);
    });
    cdp.on('Network.loadingFinished', (e) => {
      const u = urls.get(e.requestId);
      if (u) sizes.set(u, e.encodedDataLength);
    });
    await page.goto('/dashboard');
    await page.locator('[data-device-row]').first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1000);
    const wire = [...sizes.values()].reduce((a, b) => a + b, 0) / 1024;
    ctx.report(
      '/dashboard shows its devices with the initial JavaScript only',
      sizes.size,
      'files',
      `✓ ${blocked.length} later files held back`,
    );
    ctx.report('/dashboard initial JavaScript on the wire', wire, 'KB', 'as sent (gzip to Chromium over plain HTTP), incl. headers');
    const later = [...new Set(blocked)];
    const laterGz = later.filter((f) => existsSync(path.join(dist, f))).reduce((s, f) => s + gz(f), 0) / 1024;
    ctx.report('loaded after the first paint (menus, hub client, …)', laterGz, 'KB', `${later.length} files, gzipped`);
    const browserCharts = [...sizes.keys()]
      .map((u) => new URL(u).pathname.replace(/^\//, ''))
      .filter((f) => existsSync(path.join(dist, f)) && isChartCode(f));
    ctx.report('chart files fetched', browserCharts.length, '', browserCharts.length ? `✖ ${browserCharts.join(', ')}` : '✓ none');
  } finally {
    await browser.close();
    await server.stop();
  }
}
