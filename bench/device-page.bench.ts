import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { localDate } from '@phasewatch/shared';
import { chromium, type Page } from 'playwright-core';
import { createModel } from '../apps/simulator/src/models/index.js';
import { registerUser, repoRoot, startServer } from '../e2e/support/server.js';
import type { BenchContext } from './run.js';

/**
 * The device page in Chromium against the built server:
 * - a year of 15-minute data (35,040 buckets × 3 voltage series) drawn by the page's chart vs uPlot alone
 *   given the same arrays in the same page (target: ≤ 2×);
 * - opening the energy detail page with a year selected until it is interactive (interactiveAt: the first
 *   screen's charts drawn, nothing in view loading, then 50 ms of idle main thread), as a user of the app
 *   opens it: from the dashboard of an open, signed-in tab (target: ≤ 1 s); also as a document load in an
 *   open tab and in a new tab (which adds Chromium's start of a tab), and at 15-minute buckets;
 * - the gzipped size of the chart chunk (not part of the dashboard's initial JavaScript).
 * The data: a simulated household meter (the demo fleet's model) stepped every 15 minutes for a year,
 * ingested over HTTP like any device, so the 15-minute rollups hold what the demo's would.
 */

const TZ = 'Europe/Warsaw';
const Q = 15 * 60_000;
const DAY = 86_400_000;
const RUNS = 5;
const dist = path.join(repoRoot, 'apps/web/dist/assets');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function loadYear(baseUrl: string, key: string, from: number, to: number) {
  const model = createModel('household', { seed: 1234, timeZone: TZ, gapsPerYear: 0 });
  let batch: { ts: string; values: Record<string, number> }[] = [];
  const send = async () => {
    const res = await fetch(`${baseUrl}/api/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-key': key },
      body: JSON.stringify({ readings: batch }),
    });
    if (!res.ok) throw new Error(`ingest ${res.status}: ${await res.text()}`);
    batch = [];
  };
  for (let t = from; t < to; t += Q) {
    model.step(t);
    const values: Record<string, number> = {};
    model.params.forEach((p, i) => {
      const d = model.decimals[i] ?? 3;
      values[p] = Number((model.values[i] as number).toFixed(d));
    });
    batch.push({ ts: new Date(t).toISOString(), values });
    if (batch.length === 5000) await send();
  }
  if (batch.length) await send();
}

/** Times of the page's voltage chart (React effect start → uPlot drawn), re-mounted `RUNS` times. */
async function pageChartTimes(page: Page): Promise<number[]> {
  const card = page.locator('[data-chart="voltage"]');
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await card.getByText('Table', { exact: true }).click();
    await card.locator('[data-readings-table]').waitFor();
    const before = await page.evaluate(() => performance.getEntriesByName('pw-chart:voltage').length);
    await card.getByText('Chart', { exact: true }).click();
    await page.waitForFunction((n) => performance.getEntriesByName('pw-chart:voltage').length > n, before);
    times.push(await page.evaluate(() => performance.getEntriesByName('pw-chart:voltage').at(-1)?.duration ?? Number.NaN));
  }
  return times;
}

/** uPlot alone: the same arrays, the same size, created and drawn `RUNS` times in the same page. */
async function bareUplotTimes(page: Page, url: string): Promise<{ times: number[]; points: number; series: number }> {
  const src = readFileSync(createRequire(import.meta.url).resolve('uplot/dist/uPlot.iife.min.js'), 'utf8');
  await page.evaluate(src);
  return page.evaluate(
    async ({ url, runs }) => {
      type U = new (o: unknown, d: unknown, el: HTMLElement) => { destroy(): void };
      const uPlot = (window as unknown as { uPlot: U }).uPlot;
      const token = localStorage.getItem('phasewatch.token');
      const res = (await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        ts: number[];
        series: Record<string, { avg: (number | null)[] }>;
      };
      const data = [res.ts, ...['vave1', 'vave2', 'vave3'].map((p) => res.series[p]?.avg ?? [])];
      const host = document.querySelector('[data-chart="voltage"] .u-over')?.parentElement as HTMLElement;
      const width = host?.clientWidth ?? 600;
      const el = document.createElement('div');
      document.body.append(el);
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const drawn = new Promise<number>((resolve) => {
          const u = new uPlot(
            {
              width,
              height: 240,
              ms: 1,
              legend: { show: false },
              series: [{}, { stroke: '#1c7ed6' }, { stroke: '#2f9e44' }, { stroke: '#ae3ec9' }],
              hooks: { draw: [() => resolve(performance.now() - t0)] },
            },
            data,
            el,
          );
          queueMicrotask(() => setTimeout(() => u.destroy(), 0));
        });
        times.push(await drawn);
        await new Promise((r) => setTimeout(r, 50));
      }
      el.remove();
      return { times, points: res.ts.length, series: data.length - 1 };
    },
    { url, runs: RUNS },
  );
}

/**
 * "Interactive", checked in the page: the first two charts and every chart whose card starts in the
 * viewport are drawn with their data, nothing in the viewport is still a loading placeholder
 * (`aria-busy`), and then the main thread stays idle for 50 ms (a chain of message-channel pings none of
 * which waits more than 12 ms, i.e. no task or frame longer than that in between). The time returned is the
 * start of that quiet window, on the page's `performance.now()` clock.
 */
export async function interactiveAt(page: Page): Promise<number> {
  await page.waitForFunction(() => {
    const h = window.innerHeight;
    const cards = [...document.querySelectorAll('[data-chart]')];
    if (cards.length < 2) return false;
    // (No named helper functions in here: the bench's TypeScript loader would wrap them in a helper the page lacks.)
    const pending = cards.filter(
      (c, i) =>
        (i < 2 || c.getBoundingClientRect().top < h) &&
        !(Number(c.querySelector('[data-chart-drawn]')?.getAttribute('data-chart-drawn')) > 0),
    );
    if (pending.length > 0) return false;
    return ![...document.querySelectorAll('[aria-busy="true"]')].some((el) => {
      const r = el.getBoundingClientRect();
      return r.height > 0 && r.bottom > 0 && r.top < h;
    });
  });
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const ch = new MessageChannel();
        let last = performance.now();
        let quietFrom = last;
        ch.port1.onmessage = () => {
          const now = performance.now();
          if (now - last > 12) quietFrom = now;
          last = now;
          if (now - quietFrom >= 50) {
            ch.port1.close();
            resolve(quietFrom);
          } else ch.port2.postMessage(0);
        };
        ch.port2.postMessage(0);
      }),
  );
}

/** A fresh load of the dashboard, its device list shown and the page idle, as a user would read it. */
export async function openDashboard(page: Page): Promise<void> {
  await page.goto('/dashboard');
  await page.locator('[data-device-row], [data-device-card]').first().waitFor();
  await page.waitForTimeout(1000);
}

/**
 * In-app navigation in an open, signed-in tab (what following a link inside the app does: React Router
 * sees the history entry change; no document load): from that moment until interactive.
 */
export async function navigateTime(page: Page, url: string): Promise<number> {
  const t0 = await page.evaluate((u) => {
    const t = performance.now();
    history.pushState(null, '', u);
    dispatchEvent(new PopStateEvent('popstate'));
    return t;
  }, url);
  return (await interactiveAt(page)) - t0;
}

/** A document load of the URL in the open tab (typed address, bookmark, reload): navigation start → interactive. */
export async function loadTime(page: Page, url: string): Promise<number> {
  await page.goto(url);
  return interactiveAt(page);
}

export default async function devicePage(ctx: BenchContext) {
  const server = await startServer({ env: { LOG_LEVEL: 'warn' } });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const email = 'bench@phasewatch.test';
    const { token } = await registerUser(server.baseUrl, email);
    const created = await fetch(`${server.baseUrl}/api/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'Bench meter', mac: '02:00:00:00:0B:01', typeCode: 13 }),
    });
    const { device, ingestKey } = (await created.json()) as { device: { id: number }; ingestKey: string };
    const to = Math.floor(Date.now() / Q) * Q;
    const from = to - 365 * DAY;
    const t0 = performance.now();
    await loadYear(server.baseUrl, ingestKey, from, to);
    ctx.report('load a year of 15-minute readings (household model)', (performance.now() - t0) / 1000, 's', '35,040 readings over HTTP');

    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, baseURL: server.baseUrl });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await page.goto('/sign-in');
    await page.getByLabel(/^Email/).fill(email);
    await page.getByLabel(/^Password/).fill('secret1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard');

    // 1. A year of 15-minute data on the page's chart vs uPlot alone.
    const fromDate = localDate(from, TZ);
    const toDate = localDate(to - 1, TZ);
    const detail = `/device-energy-details/${device.id}?from=${fromDate}&to=${toDate}&interval=15m`;
    await page.goto(detail);
    await page.locator('[data-chart="voltage"] [data-chart-drawn]').waitFor();
    const range = (await page.locator('[data-chart="voltage"]').getAttribute('data-range'))?.split('-') ?? [];
    const readingsUrl = `/api/devices/${device.id}/readings?from=${range[0]}&to=${range[1]}&interval=15m&params=vave1,vave2,vave3`;
    const ours = median(await pageChartTimes(page));
    const bare = await bareUplotTimes(page, readingsUrl);
    const base = median(bare.times);
    ctx.report(`uPlot alone: ${bare.points} points × ${bare.series} series`, base, 'ms', 'median of 5, same page');
    ctx.report('energy detail voltage chart, same arrays', ours, 'ms', `${(ours / base).toFixed(2)}× uPlot alone (target ≤ 2×)`);

    // 2. Opening the device page with a year selected. A new page of the same signed-in context each
    // time (nothing of the device page in its memory; assets in the HTTP cache as after any earlier visit).
    const year = `/device-energy-details/${device.id}?from=${fromDate}&to=${toDate}`;
    const opens = async <T>(n: number, f: (p: Page) => Promise<T>) => {
      const out: T[] = [];
      for (let i = 0; i < n; i++) {
        const p = await context.newPage();
        p.setDefaultTimeout(60_000);
        out.push(await f(p));
        await p.close();
      }
      return out;
    };
    const fromDashboard =
      (url: string) =>
      async (p: Page): Promise<[number, number]> => {
        await openDashboard(p);
        const first = await navigateTime(p, url);
        await p.goBack();
        await p.locator('[data-device-row], [data-device-card]').first().waitFor();
        await p.waitForTimeout(500);
        return [first, await navigateTime(p, url)];
      };
    /** One figure: the median of some opens, each open's time listed after it. */
    const reportOpens = (name: string, times: number[], note: string) =>
      ctx.report(name, median(times), 'ms', `median of ${times.length} (${times.map((x) => x.toFixed(0)).join(', ')}); ${note}`);
    /** Document loads of a URL in an open tab whose dashboard was shown (address typed, bookmark, reload). */
    const documentLoads = (url: string) =>
      opens(3, async (p) => {
        await openDashboard(p);
        return loadTime(p, url);
      });

    const pairs = await opens(3, fromDashboard(year));
    reportOpens(
      'open energy detail, 365 days daily, from the dashboard',
      pairs.map((x) => x[0]),
      'target ≤ 1000 ms: dashboard loaded and idle 1 s, in-app navigation → first-screen charts drawn, 50 ms idle',
    );
    reportOpens(
      '  … opened again in that tab',
      pairs.map((x) => x[1]),
      "its code loaded, its readings in the page's cache (5 min)",
    );
    reportOpens(
      '  … loaded as a document in an open tab',
      await documentLoads(year),
      'address typed or reload: navigation start → interactive',
    );
    reportOpens('  … loaded in a new tab', await opens(3, (p) => loadTime(p, year)), "adds Chromium's start of a tab and renderer");
    reportOpens(
      'open energy detail, 365 days at 15 min, from the dashboard',
      (await opens(3, fromDashboard(detail))).map((x) => x[0]),
      '35,040 buckets per chart',
    );
    reportOpens('  … loaded as a document in an open tab', await documentLoads(detail), 'navigation start → interactive');

    // 3. The chart chunk (uPlot + drawing code), loaded only by device pages.
    for (const prefix of ['uplot-chart-', 'device-details-']) {
      const file = readdirSync(dist).find((f) => f.startsWith(prefix) && f.endsWith('.js'));
      if (!file) throw new Error(`no ${prefix}*.js in ${dist}`);
      const bytes = readFileSync(path.join(dist, file));
      ctx.report(
        `${prefix.slice(0, -1)} chunk gzipped`,
        gzipSync(bytes, { level: 9 }).length / 1024,
        'KB',
        `${(bytes.length / 1024).toFixed(1)} KB raw`,
      );
    }
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}
