import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { addLocalDays, startOfLocalDay } from '@phasewatch/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshotDir, signedInShell } from '../support/browser.js';
import { type RunningServer, registerUser, startServer } from '../support/server.js';

/**
 * Live values in Chromium against the built server: readings ingested over HTTP with the device key
 * reach the dashboard and the device page through the hub, without reloading anything.
 */

const USER = { email: 'live@phasewatch.test', password: 'secret1' };
/** The user's zone (registerUser makes a PL account): the page's "today". */
const TZ = 'Europe/Warsaw';

let server: RunningServer;
let chrome: { browser: Browser; close(): Promise<void> };
const contexts: BrowserContext[] = [];
let token = '';
let meter: { id: number; key: string };
let thermostat: { id: number; key: string };

async function createDevice(body: Record<string, unknown>): Promise<{ id: number; key: string }> {
  const res = await fetch(`${server.baseUrl}/api/devices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(res.ok, `create device: ${res.status}`).toBe(true);
  const created = (await res.json()) as { device: { id: number }; ingestKey: string };
  return { id: created.device.id, key: created.ingestKey };
}

/** Set in beforeAll: a minute back, but never before today's local midnight. */
let clock = 0;
/** One reading, a second after the previous one (never in the future). */
async function ingest(device: { key: string }, values: Record<string, number>): Promise<void> {
  clock = Math.min(Date.now(), clock + 1000);
  const res = await fetch(`${server.baseUrl}/api/ingest`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-device-key': device.key },
    body: JSON.stringify({ readings: [{ ts: new Date(clock).toISOString(), values }] }),
  });
  expect(res.ok, `ingest: ${res.status} ${await res.text()}`).toBe(true);
}

beforeAll(async () => {
  // The first test reads today's energy of its first two readings on the device page: they and the
  // page's "today" must be of one local day. A Warsaw midnight less than three minutes away is waited
  // out, and the readings, a minute behind the clock, start no earlier than today's midnight.
  for (let next = addLocalDays(Date.now(), 1, TZ); next - Date.now() < 3 * 60_000; next = addLocalDays(Date.now(), 1, TZ))
    await new Promise((resolve) => setTimeout(resolve, next - Date.now() + 1_000));
  clock = Math.max(Date.now() - 60_000, startOfLocalDay(Date.now(), TZ));
  mkdirSync(screenshotDir, { recursive: true });
  server = await startServer();
  ({ token } = await registerUser(server.baseUrl, USER.email, USER.password));
  meter = await createDevice({ name: 'Main meter', mac: '02:00:00:00:00:01', typeCode: 13, model: 'PW-3' });
  thermostat = await createDevice({ name: 'Living room', mac: '02:00:00:00:00:02', typeCode: 17, model: 'PW-T' });
  chrome = await launchBrowser();
}, 300_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await chrome?.close();
  await server?.stop();
});

async function openPage(opts: { mobile?: boolean; dark?: boolean } = {}): Promise<Page> {
  const ctx = await newContext(chrome.browser, { mobile: opts.mobile, baseURL: server.baseUrl });
  contexts.push(ctx);
  const page = await ctx.newPage();
  page.setDefaultTimeout(15_000);
  // The app follows the system scheme until the user picks one.
  await page.emulateMedia({ colorScheme: opts.dark ? 'dark' : 'light' });
  return page;
}

/** A full-page screenshot once the sign-in toast is dismissed (it would cover the header). */
async function shot(page: Page, name: string) {
  for (const close of await page.locator('.mantine-Notification-root button').all()) await close.click().catch(() => {});
  await page
    .locator('.mantine-Notification-root')
    .first()
    .waitFor({ state: 'detached' })
    .catch(() => {});
  await page.screenshot({ path: path.join(screenshotDir, `live-${name}.png`), fullPage: true });
}

async function signIn(page: Page) {
  await page.goto('/sign-in');
  await page.getByLabel(/^Email/).fill(USER.email);
  await page.getByLabel(/^Password/).fill(USER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
  await signedInShell(page);
}

const hubStatus = (page: Page) => page.locator('header [data-status]').getAttribute('data-status');
/** The text of the visible element (the dashboard's live value sits under the name below 576 px). */
const text = (page: Page, selector: string) => page.locator(`${selector} >> visible=true`).first().textContent();

describe('live values in Chromium', () => {
  it('shows readings ingested over HTTP on the dashboard and the device page as they arrive, over one hub connection', async () => {
    const page = await openPage();
    const sockets: { url: string; closed: boolean }[] = [];
    page.on('websocket', (ws) => {
      const s = { url: ws.url(), closed: false };
      sockets.push(s);
      ws.on('close', () => {
        s.closed = true;
      });
    });
    await signIn(page);

    // The hub connects after sign-in and says so in the header.
    await expect.poll(() => hubStatus(page)).toBe('connected');
    expect(await page.locator('header [data-status]').textContent()).toBe('Live');

    const meterValue = `[data-live-value="${meter.id}"]`;
    const thermoValue = `[data-live-value="${thermostat.id}"]`;
    await page.locator(`${meterValue} >> visible=true`).waitFor();
    expect(await text(page, meterValue)).toBe('—');
    expect(await text(page, `[data-device-status="${meter.id}"]`)).toBe('Offline');

    await ingest(meter, { power3phases: 1234, pave1: 400, pave2: 410, pave3: 424, vave1: 230.4, energy3phases_import: 100 });
    await expect.poll(() => text(page, meterValue)).toBe('1,234 W');
    // The first reading brings the device online (a status event, not a refetch).
    await expect.poll(() => text(page, `[data-device-status="${meter.id}"]`)).toBe('Online');

    await ingest(meter, { power3phases: 2345.6, pave1: 800, pave2: 770, pave3: 775.6, vave1: 231, energy3phases_import: 101.5 });
    await expect.poll(() => text(page, meterValue)).toBe('2,346 W');

    await ingest(thermostat, { tempmain: 21.5, tempset: 22, rel1: 1 });
    await expect.poll(() => text(page, thermoValue)).toBe('21.5 °C');
    await shot(page, 'dashboard-desktop-light');

    // Into the device page by the link: the same app, the same connection.
    await page.getByRole('link', { name: 'Main meter', exact: true }).click();
    await page.waitForURL(`**/device-energy-details/${meter.id}`);
    const headline = page.locator('[data-live-card] [data-live-headline]');
    // The reading before the page opened is loaded once…
    await expect.poll(() => headline.textContent()).toBe('2,346 W');
    expect(await page.locator('[data-live-param="pave1"]').textContent()).toContain('800 W');
    expect(await page.locator('[data-live-param="pave1"]').textContent()).toContain('Power L1');
    await expect.poll(() => page.locator('[data-energy="today"]').textContent()).toContain('1.50 kWh');

    // …and then every pushed reading replaces it.
    const readings: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/readings')) readings.push(r.url());
    });
    await ingest(meter, { power3phases: 3456.7, pave1: 1100, pave2: 1200, pave3: 1156.7, vave1: 229.5, energy3phases_import: 102 });
    await expect.poll(() => headline.textContent()).toBe('3,457 W');
    expect(await page.locator('[data-live-param="pave1"]').textContent()).toContain('1,100 W');
    await ingest(meter, { power3phases: 987, pave1: 300, pave2: 300, pave3: 387, vave1: 232.2 });
    await expect.poll(() => headline.textContent()).toBe('987 W');
    expect(await page.locator('[data-live-param="vave1"]').textContent()).toContain('232.2 V');
    expect(readings).toEqual([]);
    expect(await hubStatus(page)).toBe('connected');
    await shot(page, 'device-desktop-light');

    const hubSockets = sockets.filter((s) => s.url.includes('/hubs/dashboardHub'));
    expect(hubSockets).toHaveLength(1);
    expect(hubSockets[0]?.closed).toBe(false);

    // Signing out closes the connection.
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Sign out' }).click();
    await page.waitForURL('**/sign-in');
    await expect.poll(() => hubSockets[0]?.closed).toBe(true);
    expect(sockets.filter((s) => s.url.includes('/hubs/dashboardHub'))).toHaveLength(1);
  });

  it('shows the live value and the hub status at 390 px and in the dark theme', async () => {
    for (const [mobile, dark] of [
      [false, true],
      [true, false],
      [true, true],
    ] as const) {
      const page = await openPage({ mobile, dark });
      await signIn(page);
      await expect.poll(() => hubStatus(page)).toBe('connected');
      expect(await page.locator('header [data-status]').isVisible()).toBe(true);
      const meterValue = `[data-live-value="${meter.id}"]`;
      await page.locator(`${meterValue} >> visible=true`).waitFor();
      const power = 1000 + (mobile ? 100 : 0) + (dark ? 10 : 0);
      await ingest(meter, { power3phases: power, pave1: power / 2, pave2: power / 2, pave3: 0, vave1: 230 });
      await expect.poll(() => text(page, meterValue)).toBe(`${new Intl.NumberFormat('en').format(power)} W`);
      const name = `${mobile ? 'mobile' : 'desktop'}-${dark ? 'dark' : 'light'}`;
      await shot(page, `dashboard-${name}`);
      if (!mobile) {
        // Between 576 and 992 px the header menu is icons only; the hub status still fits.
        await page.setViewportSize({ width: 800, height: 800 });
        expect(await page.locator('header [data-status]').isVisible()).toBe(true);
        await shot(page, 'dashboard-tablet-dark');
        await page.setViewportSize({ width: 1280, height: 800 });
      }
      await page.goto(`/device-energy-details/${meter.id}`);
      await expect
        .poll(() => page.locator('[data-live-card] [data-live-headline]').textContent())
        .toBe(`${new Intl.NumberFormat('en').format(power)} W`);
      await page.locator('[data-energy="total"]').waitFor();
      await expect.poll(() => hubStatus(page)).toBe('connected');
      await shot(page, `device-${name}`);
      await page.goto(`/thermo-device-details/${thermostat.id}`);
      await expect.poll(() => page.locator('[data-live-card] [data-live-headline]').textContent()).toBe('21.5 °C');
      // The thermostat meters its heater: its energy shows here as on the dashboard (deviceFigures).
      expect(await page.locator('[data-energy-card]').textContent()).toContain('Heating energy');
      if (mobile && !dark) await shot(page, 'thermostat-mobile-light');
      await page.context().close();
    }
  });
});
