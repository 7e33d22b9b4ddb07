import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { deviceDetailPath } from '@phasewatch/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.js';
import { launchBrowser, screenshotDir, signedInShell } from '../support/browser.js';
import { type RunningServer, repoRoot, startServer } from '../support/server.js';

/**
 * What a new user and an outside probe found (issue 32), in Chromium against the built server, in English,
 * Polish and Turkish: sign-in follows the browser's language, the export dialog says why a start was
 * refused (a full queue: the busy message only; the hourly limit: when to try again), and the tariff
 * editor's season tabs pass axe (the add button is beside the tab list, not in it).
 */

const LANGS = ['en', 'pl', 'tr'] as const;
type Lang = (typeof LANGS)[number];

type Tree = { [k: string]: string | Tree };
const localeDir = path.join(repoRoot, 'apps/web/src/i18n/locales');
/** A language's catalogue as the app merges it: the core file and every feature area's file. */
function catalogue(lang: Lang): Tree {
  const merge = (a: Tree, b: Tree): Tree => {
    const out: Tree = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = typeof v === 'string' || typeof out[k] !== 'object' ? v : merge(out[k] as Tree, v);
    return out;
  };
  let c = JSON.parse(readFileSync(path.join(localeDir, `${lang}.json`), 'utf8')) as Tree;
  for (const area of readdirSync(localeDir, { withFileTypes: true }).filter((d) => d.isDirectory()))
    c = merge(c, JSON.parse(readFileSync(path.join(localeDir, area.name, `${lang}.json`), 'utf8')) as Tree);
  return c;
}
const catalogues = Object.fromEntries(LANGS.map((l) => [l, catalogue(l)])) as Record<Lang, Tree>;
function tr(lang: Lang, key: string): string {
  const v = key.split('.').reduce<Tree | string | undefined>((n, k) => (typeof n === 'object' ? n[k] : undefined), catalogues[lang]);
  if (typeof v !== 'string') throw new Error(`no text ${key} in ${lang}`);
  return v;
}
/** A text with `{{x}}` placeholders as a pattern that takes anything for them. */
const pattern = (text: string) =>
  new RegExp(
    text
      .split(/\{\{\w+\}\}/)
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+'),
  );

let server: RunningServer;
let chrome: { browser: Browser; close(): Promise<void> };
const contexts: BrowserContext[] = [];
const users = new Map<Lang, { email: string; token: string; deviceId: number; locationId: number }>();
const PASSWORD = 'secret-1234';

async function api<T>(token: string | null, method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.baseUrl}/api/${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
}

beforeAll(async () => {
  mkdirSync(screenshotDir, { recursive: true });
  // No export ever runs (JOB_CONCURRENCY=0): one queued export fills the queue (JOB_QUEUE_LIMIT=1); refused
  // starts do not count against the user's limit (RATE_LIMIT_JOBS=3).
  server = await startServer({ env: { JOB_CONCURRENCY: '0', JOB_QUEUE_LIMIT: '1', RATE_LIMIT_JOBS: '3' } });
  for (const [i, lng] of LANGS.entries()) {
    const email = `trust-${lng}@e2e.test`;
    const reg = await api<{ token: string }>(null, 'POST', 'register', {
      email,
      password: PASSWORD,
      country: lng === 'tr' ? 'TR' : 'PL',
      fullName: `User ${lng}`,
      language: lng,
    });
    expect(reg.status).toBe(200);
    const token = reg.body.token;
    const dev = await api<{ device: { id: number }; ingestKey: string }>(token, 'POST', 'devices', {
      name: `Meter ${lng}`,
      mac: `02:E3:20:00:00:0${i + 1}`,
      typeCode: 13,
    });
    expect(dev.status).toBe(200);
    // Two days of 15-minute readings up to now: this month has data, last month none.
    const now = Date.now();
    const readings = [];
    for (let t = Math.floor((now - 2 * 86_400_000) / 900_000) * 900_000, e = 100; t <= now; t += 900_000, e += 0.25)
      readings.push({ ts: new Date(t).toISOString(), values: { eai1: e, pave1: 1000, vave1: 231 } });
    const ingest = await fetch(`${server.baseUrl}/api/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-key': dev.body.ingestKey },
      body: JSON.stringify({ readings }),
    });
    expect(ingest.status).toBe(200);
    const loc = await api<{ id: number }>(token, 'POST', 'locations', { name: `Home ${lng}` });
    expect(loc.status).toBe(200);
    users.set(lng, { email, token, deviceId: dev.body.device.id, locationId: loc.body.id });
  }
  chrome = await launchBrowser();
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await chrome?.close();
  await server?.stop();
});

async function openPage(opts: { width?: number; locale?: string } = {}): Promise<Page> {
  const width = opts.width ?? 1366;
  const ctx = await chrome.browser.newContext({
    viewport: { width, height: width < 576 ? 844 : 800 },
    baseURL: server.baseUrl,
    ...(opts.locale ? { locale: opts.locale } : {}),
  });
  contexts.push(ctx);
  const page = await ctx.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

async function signedIn(lng: Lang, width = 1366): Promise<Page> {
  const u = users.get(lng) as NonNullable<ReturnType<typeof users.get>>;
  const page = await openPage({ width });
  await page.goto('/sign-in');
  await page.locator('input[type=email]').fill(u.email);
  await page.locator('input[type=password]').fill(PASSWORD);
  await page.locator('form button[type=submit]').click();
  await page.waitForURL('**/dashboard');
  await signedInShell(page);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lng);
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(screenshotDir, `trust-${name}.png`), fullPage: true });

describe('sign-in and register follow the browser language', () => {
  it.each([
    ['pl-PL', 'pl'],
    ['tr-TR', 'tr'],
    ['en-GB', 'en'],
  ] as const)('a browser in %s sees sign-in and register in its language', async (locale, lng) => {
    const page = await openPage({ locale });
    await page.goto('/sign-in');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lng);
    await page.getByRole('button', { name: tr(lng, 'auth.signIn') }).waitFor();
    await page.goto('/register');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lng);
    await shot(page, `register-${lng}`);
  });
});

describe.each(LANGS)('in %s', (lng) => {
  it('the tariff editor passes axe (critical and serious): the add-season button is beside the tab list', { timeout: 90_000 }, async () => {
    const u = users.get(lng) as NonNullable<ReturnType<typeof users.get>>;
    const page = await signedIn(lng);
    await page.goto(`/locations/tariff-edit/${u.locationId}/new`);
    const add = page.getByRole('button', { name: tr(lng, 'tariffs.form.addSeason') });
    await add.waitFor();
    expect(
      await page
        .getByRole('tablist')
        .getByRole('button', { name: tr(lng, 'tariffs.form.addSeason') })
        .count(),
    ).toBe(0);
    expect(await axeViolations(page, ['critical', 'serious'])).toEqual([]);
    await add.click();
    await expect.poll(() => page.getByRole('tablist').first().getByRole('tab').count()).toBeGreaterThan(1);
    expect(await axeViolations(page, ['critical'])).toEqual([]);
    await shot(page, `tariff-editor-${lng}`);
  });

  it.each([1366, 390])(
    'the sum comparison offers this month vs last month and says how much of each period has data (%i px)',
    {
      timeout: 90_000,
    },
    async (width) => {
      const page = await signedIn(lng, width);
      await page.goto('/analytics?tab=sums');
      const table = page.locator('[data-sums-table]');
      await table.waitFor();
      const preset = page.getByRole('textbox', { name: tr(lng, 'analytics.sums.compare'), exact: true });
      expect(await preset.inputValue()).toBe(tr(lng, 'figures.sums.monthVsLastMonth'));
      // The preset's text fits its field.
      expect(await preset.evaluate((e) => (e as HTMLInputElement).scrollWidth <= (e as HTMLInputElement).clientWidth + 1)).toBe(true);
      await expect.poll(() => table.locator('[data-sum-item]').count()).toBe(2);
      const covered = Number(await table.locator('[data-sum-item="0"] [data-sum-coverage]').getAttribute('data-sum-coverage'));
      expect(covered).toBeGreaterThan(0);
      // Last month has no data here: its share says 0 %, and no percentage is given against it.
      expect(await table.locator('[data-sum-item="1"] [data-sum-coverage]').getAttribute('data-sum-coverage')).toBe('0');
      expect(await table.locator('[data-sum-item="1"] [data-sum-coverage]').textContent()).toMatch(
        pattern(tr(lng, 'figures.sums.coverage')),
      );
      const diff = (await table.locator('[data-sum-item="1"] [data-sum-difference]').textContent()) ?? '';
      expect(diff).not.toMatch(/%\)/);
      await shot(page, `sums-${lng}-${width}`);
    },
  );

  it('an offline device with 4 minutes of data: its last power is not "Power now", and the sparkline draws 4 minutes', {
    timeout: 90_000,
  }, async () => {
    const u = users.get(lng) as NonNullable<ReturnType<typeof users.get>>;
    const dev = await api<{ device: { id: number }; ingestKey: string }>(u.token, 'POST', 'devices', {
      name: `Brief ${lng}`,
      mac: `02:E3:21:00:00:0${LANGS.indexOf(lng) + 1}`,
      typeCode: 13,
      reportingIntervalSeconds: 60,
    });
    expect(dev.status).toBe(200);
    const end = Date.now() - 3 * 3_600_000;
    const readings = [0, 1, 2, 3, 4].map((m) => ({
      ts: new Date(end - (4 - m) * 60_000).toISOString(),
      values: { pave1: 800 + m * 50, vave1: 230, eai1: 10 + m * 0.01 },
    }));
    const ingest = await fetch(`${server.baseUrl}/api/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-key': dev.body.ingestKey },
      body: JSON.stringify({ readings }),
    });
    expect(ingest.status).toBe(200);
    const page = await signedIn(lng);
    await page.goto(`/device/overview/${dev.body.device.id}`);
    const label = page.locator('[data-overview-headline-label]');
    await label.waitFor();
    expect(await label.textContent()).toBe(tr(lng, 'figures.overview.lastPower'));
    expect(await label.textContent()).not.toBe(tr(lng, 'overview.powerNow'));
    // What the sparkline draws spans a few minutes of the 24 hours: a small part of its width, near the right.
    const svg = page.locator('[data-overview=sparkline] svg');
    await svg.waitFor();
    const xs = await svg.evaluate((el) =>
      [...el.querySelectorAll('path')].flatMap((p) =>
        [...(p.getAttribute('d') ?? '').matchAll(/[ML](-?[\d.]+) /g)].map((m) => Number(m[1])),
      ),
    );
    expect(xs.length).toBeGreaterThan(0);
    const width = Number((await svg.getAttribute('viewBox'))?.split(' ')[2]);
    expect(Math.max(...xs) - Math.min(...xs)).toBeLessThan(width * 0.05);
    expect(Math.min(...xs)).toBeGreaterThan(width * 0.8);
    await shot(page, `overview-offline-${lng}`);
  });

  it('the export dialog says why a start was refused: busy (503) alone, the hourly limit (429) with when to try again', {
    timeout: 90_000,
  }, async () => {
    const u = users.get(lng) as NonNullable<ReturnType<typeof users.get>>;
    // Another user's queued export fills the queue: this user's start answers 503.
    const other = LANGS[(LANGS.indexOf(lng) + 1) % LANGS.length] as Lang;
    const o = users.get(other) as NonNullable<ReturnType<typeof users.get>>;
    const page = await signedIn(lng, lng === 'tr' ? 390 : 1366);
    await page.goto(deviceDetailPath(13, u.deviceId));
    await page.locator('[data-export-open]').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.locator('input[name=allParameters]').check();
    await dialog.locator('input[type=radio][value=csv]').check();
    const queued = await api(o.token, 'POST', 'exports', {
      deviceId: o.deviceId,
      from: String(Date.now() - 3_600_000),
      to: String(Date.now()),
      parameters: [],
      allParameters: true,
      interval: '1h',
      format: 'csv',
      fileName: 'filler',
      language: other,
    });
    expect([202, 503, 429]).toContain(queued.status);
    const serverError = tr(lng, 'errors.server');
    let refusals = 0;
    for (let i = 0; i < 3; i++) {
      await dialog.locator('[data-export-submit]').click();
      const refused = dialog.locator('[data-export-refused]');
      await refused.waitFor();
      const kind = await refused.getAttribute('data-export-refused');
      if (kind === 'busy') {
        expect(await refused.textContent()).toBe(tr(lng, 'messages.exportBusy'));
        // The busy message only: no generic server error beside it.
        await page.waitForTimeout(500);
        expect(await page.getByText(serverError).count()).toBe(0);
        if (i === 0) await shot(page, `export-busy-${lng}`);
      } else {
        expect(kind).toBe('limit');
        const text = (await refused.textContent()) ?? '';
        expect(text).toMatch(pattern(tr(lng, 'figures.export.limitAt')));
        // A clock time in it ("14:05", "2:05 PM").
        expect(text).toMatch(/\d{1,2}[:.]\d{2}/);
        await shot(page, `export-limit-${lng}`);
        refusals++;
        break;
      }
      await refused.waitFor({ state: 'visible' });
    }
    // Starts refused with 503 are given back to RATE_LIMIT_JOBS (issue 28): three busy refusals in a row
    // leave the user under the hourly limit of 3, so a fourth start is still refused as busy, not as the limit.
    if (refusals === 0) {
      await dialog.locator('[data-export-submit]').click();
      await dialog.locator('[data-export-refused=busy]').waitFor();
    }
    expect(await page.getByText(serverError).count()).toBe(0);
  });
});
