import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeToasts, launchBrowser, screenshotDir, signedInShell } from '../support/browser.js';
import { type RunningServer, startServer } from '../support/server.js';

/**
 * History import in Chromium (issue 31), in English, Polish and Turkish: the menu's link, a generic CSV's
 * mapping step (time column, a power column in kW, an energy column in Wh), the dry run's summary with a
 * refused line in the user's language, then the import with its result; the readings are then the
 * device's (read back through the API).
 */

const LANGS = ['en', 'pl', 'tr'] as const;
type Lang = (typeof LANGS)[number];
type Tree = { [k: string]: string | Tree };
const read = (file: string) =>
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../apps/web/src/i18n/locales', file), 'utf8')) as Tree;
const text = (tree: Tree, key: string, values: Record<string, string | number> = {}) => {
  const v = key.split('.').reduce<Tree | string | undefined>((t, k) => (typeof t === 'object' ? t[k] : undefined), tree);
  if (typeof v !== 'string') throw new Error(`no text ${key}`);
  return v.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k] ?? ''));
};
const core = (lng: Lang) => read(`${lng}.json`);
const area = (lng: Lang) => read(`integrations/${lng}.json`);

let server: RunningServer;
let chrome: { browser: Browser; close(): Promise<void> };
const contexts: BrowserContext[] = [];
const users = new Map<Lang, { email: string; token: string; deviceId: number }>();
const H = 3_600_000;

beforeAll(async () => {
  mkdirSync(screenshotDir, { recursive: true });
  server = await startServer();
  for (const lng of LANGS) {
    const email = `import-${lng}@e2e.test`;
    const reg = await fetch(`${server.baseUrl}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'secret-1234', country: lng === 'tr' ? 'TR' : 'PL', fullName: `User ${lng}`, language: lng }),
    });
    expect(reg.status).toBe(200);
    const { token } = (await reg.json()) as { token: string };
    const created = await fetch(`${server.baseUrl}/api/devices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Meter ${lng}`, mac: `02:E3:00:00:00:0${LANGS.indexOf(lng) + 1}`, typeCode: 13 }),
    });
    const { device } = (await created.json()) as { device: { id: number } };
    users.set(lng, { email, token, deviceId: device.id });
  }
  chrome = await launchBrowser();
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await chrome?.close();
  await server?.stop();
});

async function signedIn(lng: Lang, width: number): Promise<Page> {
  const u = users.get(lng) as { email: string };
  const ctx = await chrome.browser.newContext({ viewport: { width, height: width < 576 ? 844 : 900 }, baseURL: server.baseUrl });
  contexts.push(ctx);
  const page = await ctx.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto('/sign-in');
  await page.locator('input[type=email]').fill(u.email);
  await page.locator('input[type=password]').fill('secret-1234');
  await page.locator('form button[type=submit]').click();
  await page.waitForURL('**/dashboard');
  await signedInShell(page);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lng);
  // The "Signed in" toast is closed as a user would: on a phone it covers the lower lists' options.
  await page.locator('.mantine-Notification-root').first().waitFor();
  await closeToasts(page);
  return page;
}

/** Three rows an hour apart ending two hours ago (UTC), the middle one's power unreadable. */
function csvFile(): { name: string; mimeType: string; buffer: Buffer; start: number } {
  const start = Math.floor((Date.now() - 5 * H) / H) * H;
  const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  const body = [
    'timestamp;power_kW;meter_Wh',
    `${utc(start)};1,5;1000500`,
    `${utc(start + H)};n/a;1002000`,
    `${utc(start + 2 * H)};0,75;1003250`,
  ].join('\n');
  return { name: 'meter.csv', mimeType: 'text/csv', buffer: Buffer.from(body), start };
}

describe.each(LANGS)('history import in Chromium (%s)', (lng) => {
  it('maps a generic CSV, checks it, imports it', { timeout: 120_000 }, async () => {
    const a = area(lng);
    const t = (key: string, values?: Record<string, string | number>) => text(a, key, values);
    const page = await signedIn(lng, lng === 'tr' ? 390 : 1366);
    if (lng === 'tr') {
      // The mobile menu (drawer) holds the link.
      await page.getByRole('button', { name: text(core(lng), 'nav.openMenu') }).click();
    }
    await page
      .getByRole('link', { name: text(core(lng), 'nav.import') })
      .first()
      .click();
    await page.waitForURL('**/import');
    await page.getByRole('heading', { name: t('integrations.import.title') }).waitFor();

    await page.getByRole('textbox', { name: t('integrations.import.device') }).click();
    await page.getByRole('option', { name: `Meter ${lng}` }).click();
    await page.getByRole('radio', { name: t('integrations.import.formats.generic') }).check();
    const file = csvFile();
    await page.locator('input[type=file]').setInputFiles(file);

    // The mapping step: the first column is the time; the others are chosen with their units.
    await page.getByRole('heading', { name: t('integrations.import.mapping') }).waitFor();
    await page.getByText(t('integrations.import.mappingIncomplete')).waitFor();
    // On a phone the mapping table runs below the first screen: each field is brought to the middle first,
    // as a user scrolls to it, so its list opens in view (Mantine hides a list whose field is cut off).
    const field = async (name: string) => {
      const box = page.getByRole('textbox', { name });
      await box.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      return box;
    };
    await (await field(t('integrations.import.meaningOf', { column: 'power_kW' }))).fill('power3phases');
    await page.getByRole('option', { name: 'power3phases [W]' }).click();
    await (await field(t('integrations.import.unitOf', { column: 'power_kW' }))).click();
    await page.getByRole('option', { name: 'kW', exact: true }).click();
    await (await field(t('integrations.import.meaningOf', { column: 'meter_Wh' }))).fill('energy3phases_import');
    await page.getByRole('option', { name: 'energy3phases_import [kWh]' }).click();
    await (await field(t('integrations.import.unitOf', { column: 'meter_Wh' }))).click();
    await page.getByRole('option', { name: 'Wh', exact: true }).click();
    await (await field(t('integrations.import.zone'))).click();
    await page.getByRole('option', { name: 'UTC', exact: true }).click();
    await page.getByRole('button', { name: t('integrations.import.check') }).click();

    // The dry run: 3 rows, 2 to import, line 3 refused with its reason in the user's language.
    const summary = page.getByTestId('import-summary').first();
    await summary.waitFor({ timeout: 30_000 });
    expect(await summary.getByTestId('import-rows').textContent()).toBe('3');
    expect(await summary.getByTestId('import-imported').textContent()).toBe('2');
    await summary.getByText(t('imports.refused.value', { value: 'n/a', column: 'power_kW' })).waitFor();
    await page.screenshot({ path: path.join(screenshotDir, `import-dry-run-${lng}.png`), fullPage: true });

    await page.getByRole('button', { name: t('integrations.import.run', { count: 2 }) }).click();
    await page.getByRole('link', { name: t('integrations.import.toDevice') }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('import-summary').nth(1).getByTestId('import-imported').textContent()).toBe('2');
    await page.screenshot({ path: path.join(screenshotDir, `import-done-${lng}.png`), fullPage: true });

    const u = users.get(lng) as { token: string; deviceId: number };
    const res = await fetch(
      `${server.baseUrl}/api/devices/${u.deviceId}/readings?from=${file.start}&to=${file.start + 3 * H}&interval=raw`,
      { headers: { authorization: `Bearer ${u.token}` } },
    );
    const r = (await res.json()) as { ts: number[]; series: Record<string, { values?: number[]; value?: number[] }> };
    expect(r.ts).toEqual([file.start, file.start + 2 * H]);
    expect(r.series.power3phases?.values).toEqual([1500, 750]);
    expect(r.series.energy3phases_import?.value).toEqual([1000.5, 1003.25]);
  });
});
