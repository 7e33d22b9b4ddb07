import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearOfLocalMidnight } from '../../apps/server/src/test/clock.js';
import { launchBrowser, screenshotDir, signedInShell } from '../support/browser.js';
import { type RunningServer, repoRoot, startServer } from '../support/server.js';

/**
 * Locations and tariffs in Chromium against the built server with the simulated demo fleet (two days of
 * history): creating, editing and deleting a location and a tariff with its week grid and price history,
 * the tariffs balance and the advisor, device placement, the menu's Tariffs entry, in en, pl and tr at
 * 1366 and 390 px. Texts are read from the app's catalogues, so a test does not depend on a language.
 */

type Lang = 'en' | 'pl' | 'tr';
type Tree = { [k: string]: string | Tree };
const locales = path.join(repoRoot, 'apps/web/src/i18n/locales');
const catalogues = Object.fromEntries(
  (['en', 'pl', 'tr'] as const).map((l) => [
    l,
    [
      JSON.parse(readFileSync(path.join(locales, `${l}.json`), 'utf8')),
      JSON.parse(readFileSync(path.join(locales, `tariffs/${l}.json`), 'utf8')),
    ] as Tree[],
  ]),
) as Record<Lang, Tree[]>;
/** A text of the app in a language, `{{x}}` filled from `vars`. */
function tx(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  for (const tree of catalogues[lang]) {
    const v = key.split('.').reduce<string | Tree | undefined>((n, k) => (n && typeof n === 'object' ? n[k] : undefined), tree);
    if (typeof v === 'string') return v.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k] ?? ''));
  }
  throw new Error(`no text ${key} in ${lang}`);
}

const DEMO = { email: 'demo@phasewatch.dev', password: 'demo1234' };
let server: RunningServer;
let chrome: { browser: Browser; close(): Promise<void> };
const contexts: BrowserContext[] = [];
let users = 0;

beforeAll(async () => {
  mkdirSync(screenshotDir, { recursive: true });
  server = await startServer({ env: { DEMO_ACCOUNT: 'on', SIMULATE: '1', SIMULATE_HISTORY_DAYS: '2' } });
  const end = Date.now() + 200_000;
  while (!server.output().includes('Simulated history ready:')) {
    if (Date.now() > end) throw new Error(`no backfill:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  chrome = await launchBrowser();
}, 300_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await chrome?.close();
  await server?.stop();
});

async function api<T>(token: string, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.baseUrl}/api/${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A page signed in (a fresh account in `lang`, or the demo account switched to it). */
async function signedIn(lang: Lang, width: number, opts: { demo?: boolean; dark?: boolean } = {}) {
  let who = DEMO;
  if (opts.demo) {
    // The profile's language is what the app shows after signing in.
    const login = await fetch(`${server.baseUrl}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DEMO),
    });
    const { token, user } = (await login.json()) as { token: string; user: { fullName: string; country: string; timezone: string } };
    await api(token, 'POST', 'account/update', { fullName: user.fullName, country: user.country, timezone: user.timezone, language: lang });
  } else {
    who = { email: `loc-${Date.now()}-${users++}@example.com`, password: 'secret1' };
    const res = await fetch(`${server.baseUrl}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...who, country: 'PL', language: lang, fullName: 'Loc User' }),
    });
    expect(res.status).toBe(200);
  }
  const ctx = await chrome.browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 }, baseURL: server.baseUrl });
  contexts.push(ctx);
  // A language chosen before signing in becomes the profile's (the demo account's too).
  await ctx.addInitScript(
    ([l, dark]) => {
      if (!localStorage.getItem('phasewatch.token')) localStorage.setItem('phasewatch.language', l as string);
      if (dark) localStorage.setItem('phasewatch.theme', 'dark');
    },
    [lang, opts.dark ? '1' : ''],
  );
  const page = await ctx.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto('/sign-in');
  await page.locator('input[name="email"]').fill(who.email);
  await page.locator('input[name="password"]').fill(who.password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL('**/dashboard');
  await signedInShell(page);
  const token = (await page.evaluate(() => localStorage.getItem('phasewatch.token'))) as string;
  return { page, token };
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(screenshotDir, `tariffs-${name}.png`), fullPage: true });
/**
 * Waits until no toast is shown: they sit at the bottom right (over a phone's full width) for a few
 * seconds, over the form's buttons, and a pointer resting on one keeps it.
 */
async function noToasts(page: Page) {
  await page.mouse.move(0, 0);
  await expect.poll(() => page.locator('.mantine-Notification-root').count(), { timeout: 15_000 }).toBe(0);
}
/** Waits for a navigation; on a timeout, the error names what the page shows (alerts, toasts, heading). */
async function arrive(page: Page, url: string | RegExp) {
  try {
    await page.waitForURL(url, { timeout: 30_000 });
  } catch (err) {
    const shown = await page
      .locator('[role="alert"], .mantine-Notification-root, h1')
      .allTextContents()
      .catch(() => []);
    throw new Error(`${String(err)}\nat ${page.url()}, showing: ${shown.join(' | ')}`);
  }
}
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const cell = (page: Page, day: string, hour: number) => page.locator(`[data-week-grid] button[data-day="${day}"][data-hour="${hour}"]`);
/** A number as the language writes it in a form (comma decimals in Polish and Turkish). */
const dec = (lang: Lang, x: number) => (lang === 'en' ? String(x) : String(x).replace('.', ','));

const CASES: [Lang, number][] = [
  ['en', 1366],
  ['pl', 390],
  ['tr', 1366],
  ['en', 390],
  ['pl', 1366],
  ['tr', 390],
];

describe.each(CASES)('locations and tariffs in Chromium (%s, %i px)', (lang, width) => {
  it('creates, edits and deletes a location and a tariff; the week grid clicks; prices keep their history', {
    timeout: 180_000 + 4 * 60_000,
  }, async () => {
    // The form's first price list starts on the first of the month of the browser's clock, the test's
    // expectations on its own: a Warsaw midnight between the two (at a month's end, another month) is
    // waited out first; on every other moment of the day this waits nothing.
    await clearOfLocalMidnight(['Europe/Warsaw'], 3 * 60_000);
    const { page, token } = await signedIn(lang, width);
    const t = (k: string, v?: Record<string, string | number>) => tx(lang, k, v);
    const name = `Dom ${lang}-${width}`;

    // The menu's Tariffs: without a location it opens the location list and its empty state.
    await page.goto('/locations');
    await page.getByRole('heading', { level: 1, name: t('titles.locationList') }).waitFor();
    await page.getByText(t('locations.emptyTitle')).waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, `empty-${lang}-${width}`);

    // Create.
    await page.getByRole('link', { name: t('locations.addFirst') }).click();
    await page.waitForURL('**/locations/edit/new');
    // Labelled as the language says (the fields are found by name: Turkish "Ad" begins "Adres").
    await page.getByText(t('locations.form.city'), { exact: true }).waitFor();
    await page.locator('input[name="name"]').fill(name);
    await page.locator('input[name="code"]').fill('PPE-1');
    await page.locator('input[name="city"]').fill('Gdańsk');
    // The timezone comes from the user's country (PL).
    expect(await page.locator('input[name="timezone"]').first().inputValue()).toBe('Europe/Warsaw');
    await page.getByRole('button', { name: t('editDevice.save') }).click();
    await page.waitForURL(/\/locations\/view\/\d+$/);
    const locationId = Number(page.url().split('/').pop());
    await page.locator('[data-location-name]', { hasText: name }).waitFor();

    // A tariff: the TAURON G12 preset by default; the week grid takes clicks and keys.
    await page
      .getByRole('link', { name: t('locations.addTariff') })
      .first()
      .click();
    await page.waitForURL(`**/locations/tariff-edit/${locationId}/new`);
    await page.locator('[data-week-grid]').waitFor();
    expect(await cell(page, 'weekday', 13).getAttribute('data-area')).toBe('2');
    expect(await cell(page, 'weekday', 12).getAttribute('data-area')).toBe('1');
    await page
      .getByRole('radiogroup', { name: t('tariffs.grid.brush') })
      .getByText(t('tariffs.area.1'))
      .click();
    await cell(page, 'weekday', 13).click();
    expect(await cell(page, 'weekday', 13).getAttribute('data-area')).toBe('1');
    await cell(page, 'weekday', 13).press(width < 600 ? 'ArrowDown' : 'ArrowRight');
    await page.keyboard.press('Enter');
    expect(await cell(page, 'weekday', 14).getAttribute('data-area')).toBe('1');
    expect(await cell(page, 'saturday', 13).getAttribute('data-area')).toBe('2');
    // Sending without prices: the form says what is missing and keeps everything.
    await page.getByRole('button', { name: t('editDevice.save') }).click();
    await page.getByText(tx(lang, 'messages.unableToSave')).first().waitFor();
    expect(await page.locator('input[name="prices.0.area1"]').getAttribute('aria-invalid')).toBe('true');
    await noToasts(page);
    // The first list starts on the first of this month (the form's default, in a date field of the language).
    const monthStart = `${day(0).slice(0, 8)}01`;
    const secondFrom = day(0) > monthStart ? day(0) : day(1);
    await page.locator('input[name="prices.0.area1"]').fill(dec(lang, 1.25));
    await page.locator('input[name="prices.0.area2"]').fill(dec(lang, 0.72));
    await page.locator('input[name="prices.0.fixedMonthly"]').fill('38');
    await shot(page, `tariff-new-${lang}-${width}`);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: t('editDevice.save') }).click();
    await arrive(page, `**/locations/view/${locationId}`);
    const row = page.locator('[data-location-tariffs] [data-tariff="TAURON G12"]');
    await row.waitFor();
    await row.getByText(t('locations.energyTariff')).waitFor();
    // Every fact of the tariff is inside its card: a table row from 576 px, a stacked card on a phone that
    // names "Prices today" beside its prices (a table there would end at the card's edge, cut mid-price).
    const card = (await page.locator('[data-location-tariffs]').boundingBox()) as { x: number; width: number };
    const facts = (await row.boundingBox()) as { x: number; width: number };
    expect(facts.x + facts.width).toBeLessThanOrEqual(card.x + card.width);
    expect(await row.getByText(t('locations.priceToday'), { exact: true }).count()).toBe(width < 576 ? 1 : 0);
    let tariffs = await api<
      { id: number; prices: { validFrom: string; area1: number }[]; schedule: { seasons: { days: { weekday: number[] } }[] } }[]
    >(token, 'GET', `locations/${locationId}/tariffs`);
    const tariffId = tariffs[0]?.id as number;
    // The energy parts (issue 33) were left empty in the form: stored as none.
    expect(tariffs[0]?.prices).toEqual([
      {
        validFrom: monthStart,
        area1: 1.25,
        area2: 0.72,
        area3: null,
        fixedMonthly: 38,
        energyArea1: null,
        energyArea2: null,
        energyArea3: null,
      },
    ]);
    expect(tariffs[0]?.schedule.seasons[0]?.days.weekday.slice(12, 16)).toEqual([1, 1, 1, 1]);

    // Edit: a second price list from a later date (today, the form's default); the earlier list stays as it was.
    await row.getByRole('link', { name: 'TAURON G12' }).click();
    await page.waitForURL(`**/locations/tariff-edit/${locationId}/${tariffId}`);
    expect(await cell(page, 'weekday', 13).getAttribute('data-area')).toBe('1');
    await page.getByRole('button', { name: t('tariffs.form.addPrice') }).click();
    expect(await page.locator('input[name="prices.1.validFrom"]').inputValue()).toBe(secondFrom);
    await page.locator('input[name="prices.1.area1"]').fill(dec(lang, 1.4));
    await noToasts(page);
    await page.getByRole('button', { name: t('editDevice.save') }).click();
    await arrive(page, `**/locations/view/${locationId}`);
    tariffs = await api(token, 'GET', `locations/${locationId}/tariffs`);
    expect(tariffs[0]?.prices.map((p) => [p.validFrom, p.area1])).toEqual([
      [monthStart, 1.25],
      [secondFrom, 1.4],
    ]);

    // Edit the location.
    await page
      .getByRole('link', { name: t('locations.edit') })
      .first()
      .click();
    await page.waitForURL(`**/locations/edit/${locationId}`);
    await page.locator('input[name="city"]').fill('Sopot');
    await noToasts(page);
    await page.getByRole('button', { name: t('editDevice.save') }).click();
    await arrive(page, `**/locations/view/${locationId}`);
    await page.getByText('Sopot').waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, `view-${lang}-${width}`);

    // Delete the tariff, then the location (each with its confirmation).
    await page.goto(`/locations/tariff-edit/${locationId}/${tariffId}`);
    await noToasts(page);
    await page.getByRole('button', { name: t('tariffs.form.delete') }).click();
    await page.locator('[data-confirm-delete]').click();
    await arrive(page, `**/locations/view/${locationId}`);
    await page.getByText(t('locations.noTariffs')).waitFor();
    await noToasts(page);
    await page.getByRole('button', { name: `${t('locations.delete')}: ${name}` }).click();
    await page.locator('[data-confirm-delete]').click();
    await page.getByText(tx(lang, 'messages.locationDeleted')).waitFor();
    await page.waitForURL('**/locations');
    await page.getByText(t('locations.emptyTitle')).waitFor();
    expect(await api<unknown[]>(token, 'GET', 'locations')).toEqual([]);
  });

  it('shows the tariffs balance with the advisor for the demo account; the menu opens it', { timeout: 180_000 }, async () => {
    const { page, token } = await signedIn(lang, width, { demo: true, dark: width < 600 });
    const t = (k: string, v?: Record<string, string | number>) => tx(lang, k, v);
    const locations = await api<{ name: string; tariff: { id: number } | null }[]>(token, 'GET', 'locations');
    const first = locations.find((l) => l.tariff);
    const home = locations.find((l) => l.name === 'Home');
    // The menu's Tariffs opens the first location's tariffs balance (the target is asked for when idle).
    let tariffsLink: ReturnType<Page['getByRole']>;
    if (width < 600) {
      await page.getByRole('button', { name: tx(lang, 'nav.openMenu') }).click();
      const drawer = page.getByRole('dialog');
      await drawer.getByRole('button', { name: tx(lang, 'nav.locations') }).click();
      tariffsLink = drawer.getByRole('link', { name: tx(lang, 'nav.tariffs') });
    } else {
      await page
        .getByRole('navigation', { name: tx(lang, 'nav.mainMenu') })
        .getByRole('button', { name: tx(lang, 'nav.locations') })
        .hover();
      tariffsLink = page.getByRole('menuitem', { name: tx(lang, 'nav.tariffs') });
    }
    await expect.poll(() => tariffsLink.getAttribute('href'), { timeout: 20_000 }).toBe(`/stats/tariff/${first?.tariff?.id}`);
    await tariffsLink.click();
    await page.waitForURL(`**/stats/tariff/${first?.tariff?.id}`);
    await page.locator('[data-figure="totalCost"]').waitFor();
    await page.goto(`/stats/tariff/${home?.tariff?.id}?from=${day(-2)}&to=${day(1)}`);
    await page.getByRole('heading', { level: 1, name: t('titles.tariffsBalance') }).waitFor();
    const total = page.locator('[data-figure="totalCost"]');
    await total.waitFor();
    expect(await total.textContent()).toMatch(/\d/);
    expect(await page.locator('[data-stats-zones] [data-zone]').count()).toBe(2);
    await page.locator('[data-zone-chart] rect').first().waitFor();
    expect(await page.locator('[data-stats-table] tbody tr').count()).toBe(3);
    // One device of the location.
    await page.getByRole('textbox', { name: t('tariffs.stats.devices') }).click();
    await page.getByRole('option').nth(1).click();
    await expect.poll(() => page.url()).toMatch(/device=\d+/);
    // The advisor: every preset of the country, cheapest first, the current tariff named.
    const options = page.locator('[data-advisor-options] [data-option]');
    await options.first().waitFor();
    expect(await options.count()).toBeGreaterThanOrEqual(20);
    await page.locator('[data-advisor-current]').waitFor();
    const simulated = page.locator('[data-simulated-note]').first();
    expect(await simulated.textContent()).toBe(t('tariffs.simulated'));
    // A quick period sets the URL.
    await page.getByRole('button', { name: t('tariffs.stats.periods.last30') }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe(day(-29));
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, `stats-${lang}-${width}`);
  });
});

/** A local date (Warsaw) `n` days from today. */
function day(n: number): string {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(new Date()).split('-').map(Number) as [
    number,
    number,
    number,
  ];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

describe('device placement in Chromium', () => {
  it('places a device from its edit page and from the add-device flow; the dashboard shows location and tariff', {
    timeout: 120_000,
  }, async () => {
    const { page, token } = await signedIn('en', 1366);
    const loc = await api<{ id: number }>(token, 'POST', 'locations', { name: 'Cottage' });
    await api(token, 'POST', `locations/${loc.id}/tariffs`, {
      name: 'Cottage G12w',
      group: 'G12w',
      presetId: 'energa-g12w',
      prices: [{ validFrom: '2026-01-01', area1: 1.2, area2: 0.7, fixedMonthly: 30 }],
    });
    const { device } = await api<{ device: { id: number } }>(token, 'POST', 'devices', {
      name: 'Cottage meter',
      mac: '02:CC:00:00:00:01',
      typeCode: 13,
    });
    await page.goto(`/edit-device/${device.id}`);
    await page.getByRole('textbox', { name: 'Location', exact: true }).click();
    await page.getByRole('option', { name: 'Cottage' }).click();
    // The location brings its energy tariff.
    expect(await page.getByRole('textbox', { name: 'Default tariff' }).inputValue()).toBe('Cottage G12w (G12w)');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved').waitFor();
    await page.goto('/dashboard');
    const row = page.locator('[data-device-row]', { hasText: 'Cottage meter' });
    await row.getByText('Cottage G12w').waitFor();
    await row.getByText('Cottage', { exact: true }).waitFor();

    // The add-device flow's second step.
    await page.getByRole('button', { name: 'Add device' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add device' });
    // How readings arrive (a device that sends by itself), then its details, then where it is.
    await dialog.getByRole('radio', { name: /^HTTP\/MQTT \(own device\)/ }).waitFor();
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Shed meter');
    await dialog.getByRole('textbox', { name: /^MAC address/ }).fill('02:CC:00:00:00:02');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByRole('textbox', { name: 'Location', exact: true }).click();
    await page.getByRole('option', { name: 'Cottage' }).click();
    await dialog.getByRole('button', { name: 'Create device' }).click();
    await dialog.getByTestId('ingest-key').waitFor();
    const devices = await api<{ name: string; location: { name: string } | null; tariff: { name: string } | null }[]>(
      token,
      'GET',
      'devices',
    );
    expect(devices.find((d) => d.name === 'Shed meter')).toMatchObject({ location: { name: 'Cottage' }, tariff: { name: 'Cottage G12w' } });
    await shot(page, 'add-device-place');
  });
});
