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
 * - opening the energy detail page with a year selected until its first charts are drawn and the page
 *   answers input (target: ≤ 1 s);
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

/** From navigation start until the charts in view are drawn and the page answers a frame and a task. */
async function openTime(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await page.waitForFunction(() => {
    const cards = [...document.querySelectorAll('[data-chart]')].slice(0, 2);
    return cards.length === 2 && cards.every((c) => Number(c.querySelector('[data-chart-drawn]')?.getAttribute('data-chart-drawn')) > 0);
  });
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0));
      }),
  );
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

    // 2. Opening the device page with a year selected (first open, then warm opens).
    const year = `/device-energy-details/${device.id}?from=${fromDate}&to=${toDate}`;
    const cold = await openTime(await context.newPage(), year);
    const warm: number[] = [];
    for (let i = 0; i < 3; i++) {
      const p = await context.newPage();
      warm.push(await openTime(p, year));
      await p.close();
    }
    ctx.report(
      'open energy detail, last 365 days (daily buckets), first',
      cold,
      'ms',
      'navigation → first charts drawn + idle (target ≤ 1000 ms)',
    );
    ctx.report('open energy detail, last 365 days (daily buckets), median', median(warm), 'ms', 'of 3 more opens');
    const fine: number[] = [];
    for (let i = 0; i < 3; i++) {
      const p = await context.newPage();
      fine.push(await openTime(p, detail));
      await p.close();
    }
    ctx.report('open energy detail, last 365 days at 15 min, median', median(fine), 'ms', '35,040 buckets per chart (of 3 opens)');

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
