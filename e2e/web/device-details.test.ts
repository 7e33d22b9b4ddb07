import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { addLocalDays, deviceDetailPath, localDate } from '@phasewatch/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.js';
import { allChartsDrawn, launchBrowser, newContext, screenshotDir, signedInShell } from '../support/browser.js';
import { type RunningServer, startServer } from '../support/server.js';

/**
 * The device detail screens in Chromium against the built server with the simulated demo fleet (two days
 * of history, live readings every few seconds) and one device of a type code outside the catalogue.
 */

const DEMO = { email: 'demo@phasewatch.dev', password: 'demo1234' };
/** The demo user's zone (a PL account): the days the charts and the calendar show. */
const TZ = 'Europe/Warsaw';

let server: RunningServer;
let chrome: { browser: Browser; close(): Promise<void> };
const contexts: BrowserContext[] = [];
let auth: Record<string, string>;
type Device = { id: number; name: string; typeCode: number; totalEnergyKwh: number };
let devices: Device[] = [];
const byType = (code: number) => {
  const d = devices.find((x) => x.typeCode === code);
  if (!d) throw new Error(`no device of type ${code}`);
  return d;
};

async function api<T>(method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.baseUrl}/api/${url}`, {
    method,
    headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
}

/** A device of a type with no detail view of its own (the default detail), with a few hours of readings. */
async function genericDevice(): Promise<Device> {
  const created = await api<{ device: Device; ingestKey: string }>('POST', 'devices', {
    name: 'Lab sensor',
    mac: '02:00:00:00:0A:01',
    typeCode: 42,
  });
  const now = Date.now();
  const readings = Array.from({ length: 120 }, (_, i) => ({
    ts: new Date(now - (120 - i) * 60_000).toISOString(),
    values: { vave1: 230 + (i % 5), frq1: 50 + (i % 3) / 100, eai1: 10 + i * 0.01 },
  }));
  const res = await fetch(`${server.baseUrl}/api/ingest`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-device-key': created.body.ingestKey },
    body: JSON.stringify({ readings }),
  });
  expect(res.ok).toBe(true);
  return created.body.device;
}

beforeAll(async () => {
  mkdirSync(screenshotDir, { recursive: true });
  server = await startServer({ env: { DEMO_ACCOUNT: 'on', SIMULATE: '1', SIMULATE_HISTORY_DAYS: '2' } });
  const end = Date.now() + 150_000;
  while (!server.output().includes('Simulated history ready:')) {
    if (Date.now() > end) throw new Error(`no backfill:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const login = await fetch(`${server.baseUrl}/api/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO),
  });
  auth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  await genericDevice();
  devices = (await api<Device[]>('GET', 'devices')).body;
  chrome = await launchBrowser();
}, 240_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await chrome?.close();
  await server?.stop();
});

async function signedIn(opts: { mobile?: boolean; dark?: boolean } = {}): Promise<Page> {
  const ctx = await newContext(chrome.browser, { mobile: opts.mobile, baseURL: server.baseUrl });
  contexts.push(ctx);
  const page = await ctx.newPage();
  page.setDefaultTimeout(20_000);
  await page.emulateMedia({ colorScheme: opts.dark ? 'dark' : 'light' });
  await page.goto('/sign-in');
  await page.getByLabel(/^Email/).fill(DEMO.email);
  await page.getByLabel(/^Password/).fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
  await signedInShell(page);
  return page;
}

const chart = (page: Page, id: string) => page.locator(`[data-chart="${id}"]`);

const attr = (page: Page, id: string, name: string) => chart(page, id).getAttribute(name);

/** Clicks a day (`YYYY-MM-DD`) in the open calendar, going a month on or back when it is not shown. */
async function pickDay(page: Page, iso: string) {
  const [y, m, d] = iso.split('-').map(Number);
  const name = `${d} ${new Date(Date.UTC(y ?? 0, (m ?? 1) - 1, d)).toLocaleString('en', { month: 'long', timeZone: 'UTC' })} ${y}`;
  const day = page.locator(`[data-dates-dropdown] button[aria-label="${name}"]:not([data-outside])`);
  for (const step of ['Previous month', 'Next month', 'Next month']) {
    if ((await day.count()) > 0) break;
    await page.locator('[data-dates-dropdown]').getByRole('button', { name: step }).click();
  }
  await day.click();
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(screenshotDir, `detail-${name}.png`), fullPage: true });
}

describe('device detail screens in Chromium', () => {
  it('opens each type code on its route with its charts', { timeout: 180_000 }, async () => {
    const page = await signedIn();
    const expected: Record<number, string[]> = {
      13: ['power', 'voltage', 'current', 'powerFactor', 'frequency', 'activeEnergy', 'reactiveEnergy'],
      16: ['power', 'voltage', 'current', 'powerFactor', 'frequency', 'activeEnergy', 'reactiveEnergy'],
      10: ['production', 'solarEnergy', 'dc', 'voltage', 'frequency'],
      17: ['temperature', 'power', 'heatingEnergy'],
      20: ['power', 'voltage', 'current', 'powerFactor', 'frequency', 'activeEnergy', 'reactiveEnergy'],
      42: ['voltage', 'frequency', 'activeEnergy'],
    };
    for (const [code, charts] of Object.entries(expected)) {
      const d = byType(Number(code));
      // From the dashboard, as a user gets there.
      await page.goto('/dashboard');
      await page.getByRole('link', { name: d.name, exact: true }).first().click();
      await page.waitForURL(`**${deviceDetailPath(d.typeCode, d.id)}`);
      await allChartsDrawn(page);
      const ids = await page.locator('[data-chart]').evaluateAll((els) => els.map((e) => e.getAttribute('data-chart')));
      // The simulated meters send no balance: that chart is left out rather than shown empty.
      expect(ids, `type ${code}`).toEqual(charts);
      for (const id of charts) expect(Number(await attr(page, id, 'data-bucket-count')), `${code} ${id}`).toBeGreaterThan(0);
      expect(await page.locator('[data-energy-card]').count()).toBe(1);
    }
    // The thermostat's page shows its heater's energy, which the dashboard's total counts.
    await page.goto(deviceDetailPath(17, byType(17).id));
    await expect.poll(() => page.locator('[data-energy-card]').textContent()).toContain('Heating energy');
    // A link to another type's route lands on the device's own.
    await page.goto(`/thermo-device-details/${byType(13).id}`);
    await page.waitForURL(`**/device-energy-details/${byType(13).id}`);
  });

  it('switches phase views, applies one date range and interval to every chart, and tables the same numbers', {
    timeout: 120_000,
  }, async () => {
    const page = await signedIn();
    const meter = byType(13);
    // Yesterday by the calendar (now − 24 h is two days back in the first hour after the spring change),
    // and its hours: 23 or 25 the day after a DST change.
    const start = addLocalDays(Date.now(), -1, TZ);
    const yesterday = localDate(start, TZ);
    const hours = (addLocalDays(start, 1, TZ) - start) / 3_600_000;
    await page.goto(`${deviceDetailPath(13, meter.id)}?date=${yesterday}`);
    await allChartsDrawn(page);
    const ids = ['power', 'voltage', 'current', 'activeEnergy'];
    // A whole day of 15-minute buckets.
    expect(await attr(page, 'power', 'data-bucket-count')).toBe(String(4 * hours));
    const series = (id: string) =>
      chart(page, id)
        .locator('[data-series]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-series')));
    expect(await series('voltage')).toEqual(['vave1', 'vave2', 'vave3']);

    await page.getByText('Phase 2', { exact: true }).click();
    await expect.poll(() => page.url()).toContain('view=2');
    await allChartsDrawn(page);
    await expect.poll(() => series('voltage')).toEqual(['vave2']);
    expect(await series('power')).toEqual(['pave2']);
    expect(await series('activeEnergy')).toEqual(['eai2', 'eae2']);
    expect(page.url()).toContain('view=2');
    await page.getByText('Summary', { exact: true }).click();
    await allChartsDrawn(page);
    await expect.poll(() => series('power')).toEqual(['power3phases', 'pave1', 'pave2', 'pave3']);

    // The interval changes the bucket count of every chart.
    await page.getByText('1 h', { exact: true }).click();
    await allChartsDrawn(page);
    for (const id of ids) await expect.poll(() => attr(page, id, 'data-bucket-count'), { message: id }).toBe(String(hours));
    await page.getByText('30 min', { exact: true }).click();
    for (const id of ids) await expect.poll(() => attr(page, id, 'data-bucket-count'), { message: id }).toBe(String(2 * hours));

    // A date range: both days, every chart follows.
    const before = await attr(page, 'power', 'data-range');
    // From "a day you pick" to "days you pick": two days in the calendar.
    expect(await page.getByRole('textbox', { name: 'Range' }).inputValue()).toBe('Yesterday');
    await page.getByRole('textbox', { name: 'Range' }).click();
    await page.getByRole('option', { name: 'Days you pick' }).click();
    await expect.poll(() => page.url()).toContain('from=');
    const twoDaysAgo = localDate(addLocalDays(start, -1, TZ), TZ);
    await page.getByRole('button', { name: 'Days you pick' }).click();
    await pickDay(page, twoDaysAgo);
    await pickDay(page, yesterday);
    await expect.poll(() => page.url()).toContain(`from=${twoDaysAgo}&to=${yesterday}`);
    await page.keyboard.press('Escape');
    await allChartsDrawn(page);
    const ranges = new Set<string | null>();
    for (const id of ids) {
      // Two local days: 15-minute buckets again (the interval follows the span until one is picked).
      await expect.poll(() => attr(page, id, 'data-range'), { message: id }).toMatch(/-15m$/);
      ranges.add(await attr(page, id, 'data-range'));
    }
    expect(ranges.size).toBe(1);
    expect([...ranges][0]).not.toBe(before);
    expect(page.url()).toContain(`from=${twoDaysAgo}`);
    await shot(page, 'energy-range');

    // The table view shows what the chart's tooltip shows for the same bucket.
    await page.goto(`${deviceDetailPath(13, meter.id)}?date=${yesterday}&interval=1h`);
    const voltage = chart(page, 'voltage');
    await voltage.scrollIntoViewIfNeeded();
    await expect.poll(() => voltage.locator('[data-chart-drawn]').getAttribute('data-chart-drawn')).not.toBe('0');
    const over = voltage.locator('.u-over');
    const box = await over.boundingBox();
    if (!box) throw new Error('no plot area');
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
    const tip = voltage.locator('[role="status"]');
    await expect.poll(() => tip.isVisible()).toBe(true);
    const time = (await tip.locator('div').first().textContent()) ?? '';
    const tipValues = await tip.locator('b').allInnerTexts();
    expect(tipValues.length).toBe(3);
    await voltage.getByText('Table', { exact: true }).click();
    const row = voltage.locator('tbody tr', { hasText: time });
    await expect.poll(() => row.count()).toBe(1);
    const cells = (await row.locator('td').allInnerTexts()).map((c) => c.trim());
    expect(cells.slice(1)).toEqual(tipValues.map((v) => v.trim()));
    // Sortable and paged: 24 hourly rows fit one page; sorting by L1 orders the values.
    await voltage.getByRole('button', { name: /Voltage L1/ }).click();
    const l1 = (await voltage.locator('tbody tr td:nth-child(2)').allInnerTexts()).map((s) => Number.parseFloat(s));
    expect(l1).toEqual([...l1].sort((a, b) => b - a));
  });

  it('validates limit values by the shared rule and saves 10 / 20; the meter value changes the total', async () => {
    const page = await signedIn();
    const meter = byType(20);
    await page.goto(deviceDetailPath(20, meter.id));
    const form = page.locator('[data-limits-form]');
    const warning = form.getByLabel('Warning level');
    const critical = form.getByLabel('Critical level');
    await warning.fill('30');
    await critical.fill('25');
    await warning.blur();
    await expect.poll(() => form.textContent()).toContain('The warning level must be less than the critical level.');
    await warning.fill('51');
    await expect.poll(() => form.textContent()).toContain('The warning level must be between 0 and 50 %.');
    await critical.fill('101');
    await expect.poll(() => form.textContent()).toContain('The critical level must be between 0 and 100 %.');
    await form.getByRole('button', { name: 'Save' }).click();
    expect((await api<{ limits: unknown }>('GET', `devices/${meter.id}`)).body.limits).toEqual({ warningLevel: 10, criticalLevel: 20 });
    // Bounds are inclusive: 50 / 100 is allowed.
    await warning.fill('50');
    await critical.fill('100');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Data saved').first().waitFor();
    await expect
      .poll(async () => (await api<{ limits: unknown }>('GET', `devices/${meter.id}`)).body.limits)
      .toEqual({ warningLevel: 50, criticalLevel: 100 });
    await warning.fill('10');
    await critical.fill('20');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await api<{ limits: unknown }>('GET', `devices/${meter.id}`)).body.limits)
      .toEqual({ warningLevel: 10, criticalLevel: 20 });

    // The meter value is added to the total, here and on the dashboard.
    const total = async () => {
      const t = (await page.locator('[data-energy="total"] p').last().textContent()) ?? '';
      return Number.parseFloat(t.replace(/,/g, ''));
    };
    await expect.poll(total).toBeGreaterThan(0);
    const energy = (await api<{ meterValueKwh: number; measuredTotalKwh: number }>('GET', `devices/${meter.id}/energy`)).body;
    const meterField = page.locator('[data-meter-value-form]').getByLabel('Meter value');
    await meterField.fill('1000');
    await page.locator('[data-meter-value-form]').getByRole('button', { name: 'Save' }).click();
    await expect.poll(total).toBeGreaterThanOrEqual(energy.measuredTotalKwh + 1000 - 0.01);
    expect((await api<{ meterValueKwh: number }>('GET', `devices/${meter.id}`)).body.meterValueKwh).toBe(1000);
    const listed = (await api<Device[]>('GET', 'devices')).body.find((d) => d.id === meter.id);
    expect(listed?.totalEnergyKwh).toBeGreaterThanOrEqual(energy.measuredTotalKwh + 1000 - 0.01);
  });

  it('asks before deleting, and deleting removes the device', async () => {
    const created = await api<{ device: Device }>('POST', 'devices', { name: 'Old meter', mac: '02:00:00:00:0A:02', typeCode: 13 });
    const page = await signedIn();
    await page.goto(deviceDetailPath(13, created.body.device.id));
    await page.getByRole('button', { name: 'Delete device' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.textContent()).toContain('This cannot be undone.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await api('GET', `devices/${created.body.device.id}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete device' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete for good' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('Device deleted').first().waitFor();
    expect((await api('GET', `devices/${created.body.device.id}`)).status).toBe(404);
    expect(await page.getByRole('link', { name: 'Old meter' }).count()).toBe(0);
  });

  it('reads the "always on" figure of a meter with solar behind it at night, and says so', async () => {
    // Two days of 15-minute readings in the account's zone: 150 W at night (00:00–04:00), 600 W otherwise,
    // and 1,200 W sent out from 10:00 to 14:00 (the solar out-produces the house).
    const created = await api<{ device: Device; ingestKey: string }>('POST', 'devices', {
      name: 'Garage meter',
      mac: '02:00:00:00:0A:03',
      typeCode: 13,
    });
    const end = Math.floor(Date.now() / 900_000) * 900_000;
    const readings = Array.from({ length: 192 }, (_, i) => {
      const ts = end - (192 - i) * 900_000;
      const hour = Number(new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: TZ }).format(ts));
      const power3phases = hour < 4 ? 150 : hour >= 10 && hour < 14 ? -1_200 : 600;
      return { ts: new Date(ts).toISOString(), values: { power3phases } };
    });
    const res = await fetch(`${server.baseUrl}/api/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-key': created.body.ingestKey },
      body: JSON.stringify({ readings }),
    });
    expect(res.ok, await res.text()).toBe(true);
    const page = await signedIn();
    await page.goto(deviceDetailPath(13, created.body.device.id));
    const card = page.locator('[data-base-load]');
    await card.locator('[data-base-load-watts]').waitFor();
    // Read over the whole week, the quietest 5 % would be the export: 0 W.
    expect(await card.locator('[data-base-load-watts]').textContent()).toBe('150 W');
    expect(await card.locator('[data-base-load-night]').textContent()).toContain('00:00–04:00');
    // A meter of the demo house without solar behind it is read all week, without the note.
    await page.goto(deviceDetailPath(20, byType(20).id));
    await page.locator('[data-base-load] [data-base-load-watts]').waitFor();
    expect(await page.locator('[data-base-load-night]').count()).toBe(0);
    expect((await api('DELETE', `devices/${created.body.device.id}`)).status).toBe(200);
  });

  it('moves the chart with pushed readings, without asking the server again', async () => {
    const page = await signedIn();
    const meter = byType(13);
    await page.goto(deviceDetailPath(13, meter.id));
    await chart(page, 'power').locator('[data-chart-drawn]').waitFor();
    const first = await attr(page, 'power', 'data-last-value');
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/readings')) asked.push(r.url());
    });
    // The simulator sends a live reading every few seconds; each lands in today's chart.
    await expect.poll(() => attr(page, 'power', 'data-last-value'), { timeout: 30_000 }).not.toBe(first);
    expect(asked).toEqual([]);
  });

  it('has no serious or critical axe violations and no sideways scrolling at 390 px, light and dark', { timeout: 420_000 }, async () => {
    for (const [mobile, dark] of [
      [false, false],
      [true, true],
    ] as const) {
      const page = await signedIn({ mobile, dark });
      for (const code of [13, 20, 10, 17, 42]) {
        const d = byType(code);
        await page.goto(deviceDetailPath(code, d.id));
        // Every chart on the desktop pass; at 390 px the first one (the cards are the same markup).
        if (mobile) {
          const first = page.locator('[data-chart]').first();
          await first.scrollIntoViewIfNeeded();
          await first.locator('[data-chart-drawn]').waitFor();
          await page.evaluate(() => window.scrollTo(0, 0));
        } else await allChartsDrawn(page);
        const violations = await axeViolations(page);
        expect(violations, `type ${code} ${mobile ? 'mobile' : 'desktop'} ${dark ? 'dark' : 'light'}`).toEqual([]);
        if (mobile) {
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, `type ${code} at 390 px`).toBeLessThanOrEqual(0);
        }
        await shot(page, `${code}-${mobile ? 'mobile' : 'desktop'}-${dark ? 'dark' : 'light'}`);
      }
    }
  });
});
