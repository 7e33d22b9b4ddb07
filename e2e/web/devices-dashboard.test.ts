import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.js';
import { launchBrowser, screenshotDir, signedInShell } from '../support/browser.js';
import { type RunningServer, registerUser, startServer } from '../support/server.js';

/**
 * The dashboard, the add-device flow, the edit and overview screens, and what a new user ran into, in
 * Chromium against the built server with the simulated demo fleet (a day of history, live readings).
 * Tests that change a profile or add devices use accounts of their own.
 */

const DEMO = { email: 'demo@phasewatch.dev', password: 'demo1234' };

let server: RunningServer;
let chrome: { browser: Browser; close(): Promise<void> };
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  mkdirSync(screenshotDir, { recursive: true });
  server = await startServer({ env: { DEMO_ACCOUNT: 'on', SIMULATE: '1', SIMULATE_HISTORY_DAYS: '1' } });
  const end = Date.now() + 150_000;
  while (!server.output().includes('Simulated history ready:')) {
    if (Date.now() > end) throw new Error(`no backfill:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  chrome = await launchBrowser();
}, 240_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await chrome?.close();
  await server?.stop();
});

async function openPage(opts: { width?: number; dark?: boolean } = {}): Promise<Page> {
  const width = opts.width ?? 1366;
  const ctx = await chrome.browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 }, baseURL: server.baseUrl });
  contexts.push(ctx);
  if (opts.dark) await ctx.addInitScript(() => localStorage.setItem('phasewatch.theme', 'dark'));
  const page = await ctx.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(screenshotDir, `devices-${name}.png`), fullPage: true });

async function signIn(page: Page, who: { email: string; password: string } = DEMO, route = '/sign-in') {
  await page.goto(route);
  await page.getByLabel(/^(Email|E-mail|E-posta)/).fill(who.email);
  await page.getByLabel(/^(Password|Hasło|Parola)/).fill(who.password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL('**/dashboard');
  await signedInShell(page);
}

/** A fresh account (own language, own devices), signed in on a new page. */
async function freshUser(opts: { width?: number; dark?: boolean } = {}) {
  const email = `dash-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  const { token } = await registerUser(server.baseUrl, email, 'secret1');
  const page = await openPage(opts);
  await signIn(page, { email, password: 'secret1' });
  return { page, email, auth: { authorization: `Bearer ${token}` } };
}

async function api<T>(auth: Record<string, string>, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.baseUrl}/api/${url}`, {
    method,
    headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function ingest(key: string, readings: { ts: string; values: Record<string, number> }[]) {
  return fetch(`${server.baseUrl}/api/ingest`, {
    method: 'POST',
    headers: { 'x-device-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ readings }),
  });
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('dashboard in Chromium', () => {
  it('adds a device with the stepper; its key ingests and the dashboard shows the reading', { timeout: 120_000 }, async () => {
    const { page } = await freshUser();
    // The empty state leads there.
    await page.getByText('No devices yet').waitFor();
    await shot(page, 'empty');
    await page.getByRole('button', { name: 'Add your first device' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add device' });
    // A device that sends by itself (the first choice of how readings arrive is that, by default).
    await dialog.getByRole('radio', { name: /^HTTP\/MQTT \(own device\)/ }).waitFor();
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('Garage meter');
    await dialog.getByRole('textbox', { name: /^MAC address/ }).fill('aa-bb-cc-00-11-22');
    await dialog.getByRole('button', { name: 'Next' }).click();
    // No location yet: the flow says so and where to add one; the tariff waits for a location.
    await dialog.getByText('You have no locations yet.').waitFor();
    expect(await dialog.getByLabel('Default tariff', { exact: true }).first().isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Create device' }).click();
    const key = (await dialog.getByTestId('ingest-key').textContent())?.trim() ?? '';
    expect(key).toMatch(/^pwd_/);
    const http = (await dialog.getByTestId('example-http').textContent()) ?? '';
    const mqtt = (await dialog.getByTestId('example-mqtt').textContent()) ?? '';
    expect(http).toContain(`x-device-key: ${key}`);
    expect(http).toContain(`${server.baseUrl}/api/ingest`);
    expect(mqtt).toContain("'phasewatch/AA:BB:CC:00:11:22/readings'");
    expect(mqtt).toContain(`"key":"${key}"`);
    expect(await dialog.getByRole('button', { name: 'Back' }).isDisabled()).toBe(true);
    await shot(page, 'add-device-key');

    // The example's body, sent with the key, is accepted.
    const body = /-d '(.*)'$/m.exec(http)?.[1] ?? '';
    const readings = (JSON.parse(body) as { readings: { ts: string; values: Record<string, number> }[] }).readings;
    readings[0] = { ...readings[0], ts: new Date().toISOString() } as (typeof readings)[0];
    const res = await ingest(key, readings);
    expect(res.status).toBe(200);
    await dialog.getByRole('button', { name: 'Done' }).click();
    const row = page.locator('[data-device-row]').filter({ hasText: 'Garage meter' });
    await expect.poll(() => row.locator('[data-live-value]').textContent(), { timeout: 30_000 }).toBe('412 W');
    await expect.poll(() => row.locator('[data-device-status]').textContent(), { timeout: 30_000 }).toBe('Online');
  });

  it('opens a device from anywhere on its row, and with Enter', async () => {
    const page = await openPage();
    await signIn(page);
    const row = page.locator('[data-device-row]').first();
    await row.locator('td').last().click();
    await page.waitForURL(
      /\/(device-energy-details|solar-device-details|thermo-device-details|single-phase-device-details|device-details)\/\d+/,
    );
    await page.goBack();
    await page.locator('[data-device-row]').first().focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/-details\/\d+/);
    // The menu marks the section of a device page.
    await expect.poll(() => page.getByRole('link', { name: 'Device readouts' }).getAttribute('data-active')).toBe('true');
    await page.goto('/locations/view/2');
    await expect.poll(() => page.getByRole('button', { name: 'Locations' }).getAttribute('data-active')).toBe('true');
  });

  it('lists the devices as cards at 390 px without sideways scrolling, light and dark', async () => {
    for (const dark of [false, true]) {
      const page = await openPage({ width: 390, dark });
      await signIn(page);
      await page.locator('[data-device-card]').first().waitFor();
      expect(await page.locator('[data-device-card]').count()).toBe(5);
      expect(await page.locator('table').count()).toBe(0);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await shot(page, `cards-${dark ? 'dark' : 'light'}`);
    }
  });

  it('shows status badges and device types in Polish and Turkish', async () => {
    const { page, auth } = await freshUser();
    await api(auth, 'POST', 'devices', { name: 'Licznik', mac: '02:00:00:00:AA:01', typeCode: 13 });
    await page.reload();
    for (const [lang, label, offline, type] of [
      ['pl', 'Polski', 'Poza siecią', 'Trójfazowy licznik energii'],
      ['tr', 'Türkçe', 'Çevrimdışı', 'Üç fazlı enerji sayacı'],
    ] as const) {
      await page
        .locator('header')
        .getByRole('button', { name: /^(Language|Język|Dil)$/ })
        .click();
      await page.getByRole('menuitem', { name: label }).click();
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
      const row = page.locator('[data-device-row]').first();
      await expect.poll(() => row.locator('[data-device-status]').textContent()).toBe(offline);
      expect(await row.locator('[data-device-type]').textContent()).toBe(type);
      await shot(page, `dashboard-${lang}`);
    }
  });

  it('tells an offline device as a toast once: not again on refetch or reload', async () => {
    const { page, auth } = await freshUser();
    const created = await api<{ ingestKey: string }>(auth, 'POST', 'devices', { name: 'Cellar', mac: '02:00:00:00:AA:02', typeCode: 20 });
    expect((await ingest(created.ingestKey, [{ ts: new Date(Date.now() - 3_600_000).toISOString(), values: { pave1: 5 } }])).status).toBe(
      200,
    );
    await page.reload();
    const toast = page.getByText('The device Cellar is offline');
    await toast.waitFor();
    await toast.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('link', { name: 'Device readouts' }).click();
    await page.locator('[data-device-row]').first().waitFor();
    await page.reload();
    await page.locator('[data-device-row]').first().waitFor();
    await page.waitForTimeout(2000);
    expect(await page.getByText('The device Cellar is offline').count()).toBe(0);
  });
});

describe('edit and overview in Chromium', () => {
  it('saves every field of the edit screen, and refuses a bad form with the spec text', { timeout: 90_000 }, async () => {
    const { page, auth } = await freshUser();
    const { device } = await api<{ device: { id: number } }>(auth, 'POST', 'devices', {
      name: 'Old name',
      mac: '02:00:00:00:AA:03',
      typeCode: 13,
    });
    await page.goto(`/edit-device/${device.id}`);
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT') puts.push(r.url());
    });
    await page.getByRole('textbox', { name: /^Name/ }).fill('');
    await page.getByText('This field is required.').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Unable to save data. Check form.').waitFor();
    expect(puts).toEqual([]);

    await page.getByRole('textbox', { name: /^Name/ }).fill('Main meter');
    await page.getByRole('textbox', { name: /^Friendly name/ }).fill('Hall, left');
    // A calendar in the user's language (its own month shown): the 15th of it.
    await page.getByRole('button', { name: /^Billing period start/ }).click();
    const shownMonth = page.locator('[data-dates-dropdown] button[aria-label^="15 "]:not([data-outside])');
    const billingDay = (await shownMonth.getAttribute('aria-label')) ?? '';
    await shownMonth.click();
    const [, monthName, year] = billingDay.split(' ');
    const month = [
      'January',
      'February',
      'March',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
    ].indexOf(monthName ?? '');
    const billingStart = `${year}-${String(month + 1).padStart(2, '0')}-15`;
    await page.getByRole('textbox', { name: /^Billing period length/ }).fill('2');
    await page.getByRole('switch', { name: 'Push notifications' }).check({ force: true });
    await page.getByRole('switch', { name: 'No notifications at night (22:00–7:00)' }).uncheck({ force: true });
    await page.getByRole('switch', { name: 'Mute all notifications' }).check({ force: true });
    await page.getByRole('textbox', { name: /^Voltage drop threshold/ }).fill('7.5');
    await page.getByRole('textbox', { name: /^Voltage rise threshold/ }).fill('12');
    await page.getByRole('textbox', { name: /^Total consumption threshold/ }).fill('450');
    await page.getByRole('textbox', { name: /^Notification interval/ }).fill('30');
    await shot(page, 'edit-filled');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved').waitFor();

    const saved = await api<Record<string, unknown>>(auth, 'GET', `devices/${device.id}`);
    expect(saved).toMatchObject({ name: 'Main meter', friendlyName: 'Hall, left', billingStartDate: billingStart, billingPeriodMonths: 2 });
    expect(billingStart).toMatch(/^\d{4}-\d{2}-15$/);
    expect(saved.notifications).toEqual({
      pushEnabled: true,
      emailEnabled: false,
      voltageDropThreshold: 7.5,
      voltageRiseThreshold: 12,
      totalConsumptionThreshold: 450,
      disableAtNight: false,
      notificationIntervalMinutes: 30,
      muteAll: true,
    });
    await page.reload();
    await expect.poll(() => page.getByRole('textbox', { name: /^Name/ }).inputValue()).toBe('Main meter');
    expect(await page.getByRole('textbox', { name: /^Notification interval/ }).inputValue()).toBe('30');
    expect(await page.getByRole('switch', { name: 'Mute all notifications' }).isChecked()).toBe(true);
  });

  it('shows the overview of a demo device: status, signal, last reading, energy, a sparkline, limits', async () => {
    const page = await openPage();
    await signIn(page);
    await page
      .locator('[data-device-row]')
      .first()
      .getByRole('link', { name: /^Overview/ })
      .click();
    await page.waitForURL(/\/device\/overview\/\d+/);
    await page.locator('[data-overview="sparkline"] svg path').waitFor();
    for (const part of ['status', 'signal', 'last-reading', 'energy-today', 'energy-month', 'energy-year', 'place']) {
      await page.locator(`[data-overview="${part}"]`).waitFor();
    }
    expect(await page.locator('[data-overview="last-reading"]').textContent()).not.toContain('Never');
    expect(await page.locator('[data-overview-headline]').textContent()).toMatch(/\d/);
    await shot(page, 'overview');
  });
});

describe('found when tried as a new user', () => {
  it('keeps the sign-in toast off the header menu', async () => {
    const page = await openPage();
    await signIn(page);
    const toast = page.getByText('You have successfully logged in!');
    await toast.waitFor();
    const box = await toast.boundingBox();
    const header = await page.locator('header').boundingBox();
    expect(box && header).toBeTruthy();
    if (box && header) expect(box.y).toBeGreaterThan(header.y + header.height);
  });

  it('drops a stale "Try again!" beside a new field error, and tells the server error in Polish', async () => {
    const page = await openPage();
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitem', { name: 'Polski' }).click();
    await page.getByLabel(/^E-mail/).fill(DEMO.email);
    await page.getByLabel(/^Hasło/).fill('wrong-password');
    await page.getByRole('button', { name: 'Zaloguj się' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Spróbuj ponownie!' });
    await alert.getByText('Nieprawidłowy e-mail lub hasło.').waitFor();
    await page.getByLabel(/^E-mail/).fill('not-an-email');
    await page.getByText('Podaj poprawny adres e-mail.').waitFor();
    expect(await alert.count()).toBe(0);
  });

  it('keeps the language picked in the header: it is the profile language, across sign-out and sign-in', { timeout: 90_000 }, async () => {
    const { page, email } = await freshUser();
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitem', { name: 'Polski' }).click();
    await page.getByRole('heading', { level: 1, name: 'Pulpit' }).waitFor();
    await page.goto('/user/profile');
    await expect.poll(() => page.getByRole('textbox', { name: /^Język/ }).inputValue()).toBe('Polski');
    await page.getByRole('button', { name: 'Zapisz zmiany' }).click();
    await page.getByText('Zmiany zapisane').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('pl');
    // Signing in again (the browser's own language reset to English meanwhile) shows the profile's language.
    await page.getByRole('link', { name: 'Wyloguj' }).click();
    await page.waitForURL('**/sign-in');
    await page.evaluate(() => localStorage.setItem('phasewatch.language', 'en'));
    await signIn(page, { email, password: 'secret1' });
    await page.getByRole('heading', { level: 1, name: 'Pulpit' }).waitFor();
  });

  it('signs out without a hub error or a 401 in the console', async () => {
    const { page } = await freshUser();
    await page.getByText('Live', { exact: true }).waitFor({ timeout: 30_000 });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('response', (r) => {
      if (r.status() === 401) problems.push(`401 ${r.url()}`);
    });
    await page.getByRole('link', { name: 'Sign out' }).click();
    await page.waitForURL('**/sign-in');
    await page.getByText('You have been signed out.').waitFor();
    await page.waitForTimeout(3000);
    expect(problems).toEqual([]);
  });

  it('offers language, theme and the account links on /sign-in-fox', async () => {
    const page = await openPage({ width: 390 });
    await page.goto('/sign-in-fox');
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitem', { name: 'Türkçe' }).click();
    await page.getByRole('heading', { level: 1, name: 'Giriş yap' }).waitFor();
    await page.getByRole('button', { name: 'Tema' }).waitFor();
    await page.getByRole('link', { name: 'Şifrenizi mi unuttunuz?' }).waitFor();
    await page.getByRole('link', { name: 'Hesap oluşturun' }).waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'sign-in-fox-tr');
  });
});

describe('accessibility', () => {
  it('has no serious or critical axe violation on the dashboard, profile, account screens, edit, overview and 404, light and dark', {
    timeout: 300_000,
  }, async () => {
    for (const dark of [false, true]) {
      const anon = await openPage({ dark });
      for (const route of ['/sign-in', '/sign-in-fox', '/register']) {
        await anon.goto(route);
        await anon.locator('button[type="submit"]').waitFor();
        expect(await axeViolations(anon), `${route} ${dark ? 'dark' : 'light'}`).toEqual([]);
      }
      const page = await openPage({ dark });
      await signIn(page);
      const id = await page.locator('[data-device-row]').first().getAttribute('data-device-row');
      const checks: [string, string][] = [
        ['/dashboard', '[data-device-row]'],
        ['/user/profile', 'form'],
        [`/edit-device/${id}`, 'form'],
        [`/device/overview/${id}`, '[data-overview="sparkline"] svg'],
        ['/404', 'text=Seems there is nothing here'],
      ];
      for (const [route, ready] of checks) {
        await page.goto(route);
        await page.locator(ready).first().waitFor();
        await page.waitForTimeout(300);
        expect(await axeViolations(page), `${route} ${dark ? 'dark' : 'light'}`).toEqual([]);
      }
    }
  });
});
