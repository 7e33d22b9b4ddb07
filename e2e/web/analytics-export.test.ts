import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { deviceDetailPath, localDate } from '@phasewatch/shared';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshotDir, signedInShell } from '../support/browser.js';
import { type RunningServer, startServer } from '../support/server.js';

/**
 * Export, heatmap and saved comparisons in Chromium against the built server, in English, Polish and
 * Turkish, at 1366 and 390 px: the export dialog from the click on a device page to the downloaded file
 * (and its validation), the heatmap (hover, click to the device's chart), a comparison saved and found
 * again after a reload. Their date fields show dates in the app's language (a native date input showed
 * 10/29/2026 in Polish) and are set from their calendars.
 */

const LANGS = ['en', 'pl', 'tr'] as const;
type Lang = (typeof LANGS)[number];
const core = (lng: Lang) =>
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../../apps/web/src/i18n/locales/${lng}.json`), 'utf8')) as {
    messages: Record<string, string>;
    validation: Record<string, string>;
    ux: { calendar: Record<string, string> };
  };
const area = (lng: Lang) =>
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../../apps/web/src/i18n/locales/analytics/${lng}.json`), 'utf8')) as {
    analytics: { tabs: Record<string, string>; from: string; to: string; sums: { compare: string; presets: Record<string, string> } };
    exports: { from: string; downloadNamed: string };
  };

let server: RunningServer;
let chrome: { browser: Browser; close(): Promise<void> };
const contexts: BrowserContext[] = [];
const users = new Map<Lang, { email: string; password: string; deviceId: number; tz: string }>();
const DAY = 86_400_000;

beforeAll(async () => {
  mkdirSync(screenshotDir, { recursive: true });
  server = await startServer();
  const now = Date.now();
  for (const lng of LANGS) {
    const email = `export-${lng}@e2e.test`;
    const password = 'secret-1234';
    const country = lng === 'tr' ? 'TR' : 'PL';
    const reg = await fetch(`${server.baseUrl}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, country, fullName: `User ${lng}`, language: lng }),
    });
    expect(reg.status).toBe(200);
    const { token, user } = (await reg.json()) as { token: string; user: { timezone: string } };
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${server.baseUrl}/api/devices`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        name: lng === 'pl' ? 'Łódź – licznik' : lng === 'tr' ? 'Şişli sayaç' : 'Main meter',
        mac: `02:E0:00:00:00:0${LANGS.indexOf(lng) + 1}`,
        typeCode: 13,
      }),
    });
    const { device, ingestKey } = (await created.json()) as { device: { id: number }; ingestKey: string };
    // Four days of 15-minute readings up to now: a daily rhythm of power and energy.
    const start = Math.floor((now - 4 * DAY) / 900_000) * 900_000;
    const readings = [];
    let e = 100;
    for (let t = start; t <= now; t += 900_000) {
      const hour = new Date(t).getUTCHours();
      const kw = hour >= 17 && hour <= 21 ? 2 : hour >= 7 ? 0.6 : 0.2;
      readings.push({
        ts: new Date(t).toISOString(),
        values: { pave1: kw * 1000, vave1: 230 + (hour % 4), eai1: Math.round(e * 1000) / 1000 },
      });
      e += kw / 4;
    }
    const ingest = await fetch(`${server.baseUrl}/api/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-key': ingestKey },
      body: JSON.stringify({ readings }),
    });
    expect(ingest.status).toBe(200);
    users.set(lng, { email, password, deviceId: device.id, tz: user.timezone });
  }
  chrome = await launchBrowser();
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await chrome?.close();
  await server?.stop();
});

async function signedIn(lng: Lang, width: number): Promise<Page> {
  const u = users.get(lng) as NonNullable<ReturnType<typeof users.get>>;
  const ctx = await chrome.browser.newContext({
    viewport: { width, height: width < 576 ? 844 : 800 },
    baseURL: server.baseUrl,
    acceptDownloads: true,
  });
  contexts.push(ctx);
  const page = await ctx.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto('/sign-in');
  await page.locator('input[type=email]').fill(u.email);
  await page.locator('input[type=password]').fill(u.password);
  await page.locator('form button[type=submit]').click();
  await page.waitForURL('**/dashboard');
  await signedInShell(page);
  // The profile's language is shown once signed in.
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lng);
  return page;
}

const utcDay = (iso: string) => new Date(`${iso}T00:00:00Z`);
const plusDays = (iso: string, n: number) => new Date(utcDay(iso).getTime() + n * DAY).toISOString().slice(0, 10);
/** A date as a date field shows it in the language ("29 października 2026", "October 29, 2026"). */
const shown = (lng: Lang, iso: string) =>
  new Intl.DateTimeFormat(lng, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(utcDay(iso));
/** A day's name in the calendar: "D MMMM YYYY" in the language ("29 października 2026", "29 October 2026"). */
function dayName(lng: Lang, iso: string): string {
  const parts = new Intl.DateTimeFormat(lng, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).formatToParts(
    utcDay(iso),
  );
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value;
  return `${part('day')} ${part('month')} ${part('year')}`;
}

/** Opens a date field's calendar from the keyboard and picks a day (`YYYY-MM-DD`), a month back or on if needed. */
async function pickDate(page: Page, lng: Lang, field: Locator, iso: string) {
  await field.focus();
  await page.keyboard.press('Enter');
  const calendar = page.locator('[data-dates-dropdown]');
  await calendar.waitFor();
  const day = calendar.locator(`button[aria-label="${dayName(lng, iso)}"]:not([data-outside]):not([data-hidden])`);
  const { previousMonth, nextMonth } = core(lng).ux.calendar;
  for (const step of [previousMonth, nextMonth, nextMonth]) {
    if ((await day.count()) > 0) break;
    await calendar.getByRole('button', { name: step }).click();
  }
  await day.click();
  await calendar.waitFor({ state: 'hidden' });
}

/** Every date field's text fits its field (none cut off), and the page does not scroll sideways. */
async function datesFit(page: Page) {
  const cut = await page
    .locator('button[data-dates-input]')
    .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent));
  expect(cut).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(screenshotDir, `analytics-${name}.png`), fullPage: true });

describe.each(LANGS.flatMap((lng) => [1366, 390].map((w) => [lng, w] as const)))('analytics and export in %s at %i px', (lng, width) => {
  it('exports a CSV from the device page to a downloaded file', { timeout: 120_000 }, async () => {
    const u = users.get(lng) as NonNullable<ReturnType<typeof users.get>>;
    const page = await signedIn(lng, width);
    const today = localDate(Date.now(), u.tz);
    const from = localDate(Date.now() - 3 * DAY, u.tz);
    await page.goto(`${deviceDetailPath(13, u.deviceId)}?from=${from}&to=${today}`);
    await page.locator('[data-export-open]').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // No file type chosen: the spec's message, nothing sent.
    await dialog.locator('[data-export-submit]').click();
    await dialog.getByText(core(lng).validation.fileType as string).waitFor();
    expect(await dialog.locator('input[name=from]').inputValue()).toBe(from);
    // The range from the page, in the language; a day earlier from the calendar.
    const fromField = dialog.getByLabel(area(lng).exports.from);
    expect(await fromField.textContent()).toBe(shown(lng, from));
    const earlier = plusDays(from, -1);
    await pickDate(page, lng, fromField, earlier);
    expect(await dialog.locator('input[name=from]').inputValue()).toBe(earlier);
    expect(await fromField.textContent()).toBe(shown(lng, earlier));
    expect(await dialog.locator('input[name=fileName]').inputValue()).toContain(`${earlier} – ${today}`);
    await datesFit(page);
    await dialog.locator('input[name=allParameters]').check();
    await dialog.locator('input[type=radio][value=csv]').check();
    const fileName = `readings ${lng} ${width}`;
    await dialog.locator('input[name=fileName]').fill(fileName);
    await dialog.locator('[data-export-submit]').click();
    // Ready in the dialog (its alert), and told about app-wide (the notice outside the dialog, offering the file).
    const ready = dialog.locator('[data-export-ready]');
    await ready.waitFor({ timeout: 60_000 });
    expect(await ready.textContent()).toContain(core(lng).messages.dataExported as string);
    const notice = page.locator('.mantine-Notification-root', { hasText: core(lng).messages.dataExported as string });
    await notice.waitFor();
    expect(await notice.count()).toBe(1);
    // The notice is not inside the dialog, and names the file to download.
    expect(await dialog.locator('.mantine-Notification-root').count()).toBe(0);
    await notice.getByRole('button', { name: area(lng).exports.downloadNamed.replace('{{name}}', `${fileName}.csv`) }).waitFor();
    if (width === 1366) await shot(page, `export-ready-${lng}`);
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.locator('[data-download]').click()]);
    expect(download.suggestedFilename()).toBe(`${fileName}.csv`);
    const csv = readFileSync(await download.path(), 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('time,pave1 [W],vave1 [V],eai1 [kWh]');
    // Hourly buckets of the days before today (readings start 4 days ago) and today so far.
    expect(lines.length).toBeGreaterThan(3 * 24);
    for (const l of lines.slice(1)) expect(l).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00[+-]\d\d:\d\d,[\d.]+,[\d.]+,[\d.]+$/);
    // The recent exports list offers it again.
    await expect.poll(() => dialog.locator('[data-recent-exports] tr').count()).toBeGreaterThan(0);
    await dialog.locator('[data-recent-exports]').getByText(`${fileName}.csv`).waitFor();
  });

  it('shows a heatmap whose cells open the device chart', { timeout: 90_000 }, async () => {
    const u = users.get(lng) as NonNullable<ReturnType<typeof users.get>>;
    const page = await signedIn(lng, width);
    await page.goto('/analytics');
    await page.getByRole('tab', { name: area(lng).analytics.tabs.heatmap }).waitFor();
    const canvas = page.locator('[data-heatmap=daily] canvas');
    await canvas.waitFor();
    expect(Number(await page.locator('[data-heatmap]').getAttribute('data-rows'))).toBe(30);
    // The range in the language's date format: "29 października 2026" in Polish, not 10/29/2026.
    const from = await page.locator('input[name=from]').inputValue();
    const to = await page.locator('input[name=to]').inputValue();
    expect(from).toBe(plusDays(to, -29));
    const fromField = page.getByLabel(area(lng).analytics.from, { exact: true });
    const fromText = (await fromField.textContent()) ?? '';
    expect(fromText).toBe(shown(lng, from));
    if (lng === 'pl') {
      expect(fromText).not.toContain('/');
      expect(fromText).toMatch(
        /^\d{1,2} (stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października|listopada|grudnia) \d{4}$/,
      );
    }
    await datesFit(page);
    // A cell at noon three days ago (row 26 of 30), scrolled into the middle of the window first.
    const first = await canvas.boundingBox();
    if (!first) throw new Error('no canvas');
    await page.evaluate((top) => window.scrollBy(0, top), first.y + first.height * 0.85 - 400);
    const box = await canvas.boundingBox();
    if (!box) throw new Error('no canvas');
    const rowH = (box.height - 22) / 30;
    const x = box.x + 92 + ((box.width - 92) / 24) * 12.5;
    const y = box.y + 22 + rowH * 26.5;
    await page.mouse.move(x, y);
    const tip = page.locator('[data-heatmap-tip]');
    await tip.waitFor();
    expect(await tip.textContent()).toMatch(/kWh/);
    await page.locator('[data-heatmap-legend]').waitFor();
    await shot(page, `heatmap-${lng}-${width}`);
    await page.mouse.click(x, y);
    await page.waitForURL(new RegExp(`${deviceDetailPath(13, u.deviceId)}\\?date=\\d{4}-\\d\\d-\\d\\d&interval=15m`));
    // Back on the heatmap, the last 7 days from the From field's calendar.
    await page.goBack();
    await canvas.waitFor();
    await pickDate(page, lng, fromField, plusDays(to, -6));
    await expect.poll(() => page.locator('[data-heatmap]').getAttribute('data-rows')).toBe('7');
    expect(await fromField.textContent()).toBe(shown(lng, plusDays(to, -6)));
  });

  it('shows the consumption table and the sums with their dates in the language', { timeout: 90_000 }, async () => {
    const page = await signedIn(lng, width);
    await page.goto('/analytics?tab=table');
    await page.locator('[data-consumption-table]').waitFor();
    const to = await page.locator('input[name=to]').inputValue();
    expect(await page.getByLabel(area(lng).analytics.to, { exact: true }).textContent()).toBe(shown(lng, to));
    // Yesterday and today: two daily rows.
    await pickDate(page, lng, page.getByLabel(area(lng).analytics.from, { exact: true }), plusDays(to, -1));
    await expect.poll(() => page.locator('[data-consumption-table] tbody tr').count()).toBe(2);
    await datesFit(page);
    await shot(page, `table-${lng}-${width}`);

    await page.goto('/analytics?tab=sums');
    await page.locator('[data-sums-table]').waitFor();
    await page.getByRole('textbox', { name: area(lng).analytics.sums.compare, exact: true }).click();
    await page.getByRole('option', { name: area(lng).analytics.sums.presets.custom }).click();
    const aFrom = await page.locator('input[name=a-from]').inputValue();
    expect(await page.getByLabel(`A · ${area(lng).analytics.from}`).textContent()).toBe(shown(lng, aFrom));
    await datesFit(page);
    await shot(page, `sums-${lng}-${width}`);
  });

  it('saves a comparison and finds it again after a reload', { timeout: 90_000 }, async () => {
    const page = await signedIn(lng, width);
    await page.goto('/analytics?tab=comparisons');
    await page.locator('[data-add-series]').waitFor();
    await page.locator('[data-new-comparison]').click();
    // Too short a name: the spec's rule, nothing saved.
    await page.locator('input[name=comparisonName]').fill('ab');
    await page.locator('[data-save-comparison]').click();
    await page.getByText(core(lng).validation.comparisonName as string).waitFor();
    const name = `Cmp ${lng} ${width}`;
    await page.locator('input[name=comparisonName]').fill(name);
    await page.locator('[data-add-series]').click();
    await page.locator('[data-save-comparison]').click();
    await page.locator('[data-comparison-list]').getByText(name).waitFor();
    await page.locator('[data-comparison-chart]').waitFor();
    expect(await page.locator('[data-comparison-chart]').getAttribute('data-comparison-chart')).toBe('2');
    await shot(page, `comparison-${lng}-${width}`);
    await page.reload();
    await page.locator('[data-comparison-list]').getByText(name).waitFor();
  });
});
