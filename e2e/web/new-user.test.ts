import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { deviceDetailPath } from '@phasewatch/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.js';
import { allChartsDrawn, launchBrowser, screenshotDir, signedInShell } from '../support/browser.js';
import { type RunningServer, registerUser, repoRoot, startServer } from '../support/server.js';

/**
 * What a new user tripped over (issue 24), in Chromium against the built server with the simulated demo
 * fleet, in English, Polish and Turkish: the device pages' first screen holds a chart of recent data and
 * its controls (1366×800 and 390×844), numbers typed are the numbers stored or refused with the field's
 * message, stale values are shown as stale with their age, toasts are accessible, and charts, ranges,
 * dates and names read right. Texts are the app's own catalogues (core + feature areas).
 */

const LANGS = ['en', 'pl', 'tr'] as const;
type Lang = (typeof LANGS)[number];
const DEMO = { email: 'demo@phasewatch.dev', password: 'demo1234' };
const VIEWPORTS = [
  { width: 1366, height: 800 },
  { width: 390, height: 844 },
] as const;

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
  for (const area of readdirSync(localeDir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    c = merge(c, JSON.parse(readFileSync(path.join(localeDir, area.name, `${lang}.json`), 'utf8')) as Tree);
  }
  return c;
}
const catalogues = Object.fromEntries(LANGS.map((l) => [l, catalogue(l)])) as Record<Lang, Tree>;
/** The text of a key in a language, with `{{name}}` filled in. */
function tr(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  const v = key.split('.').reduce<Tree | string | undefined>((n, k) => (typeof n === 'object' ? n[k] : undefined), catalogues[lang]);
  if (typeof v !== 'string') throw new Error(`no text ${key} in ${lang}`);
  return v.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k] ?? ''));
}
const reEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A field's accessible name: its label (a required field's asterisk is hidden from it). */
const label = (lang: Lang, key: string) => new RegExp(`^${reEscape(tr(lang, key))}\\s*\\*?$`);
/** A date field's accessible name: its label, then the dates it shows. */
const dateField = (lang: Lang, key: string) => new RegExp(`^${reEscape(tr(lang, key))}( |$)`);

let server: RunningServer;
let chrome: { browser: Browser; close(): Promise<void> };
const contexts: BrowserContext[] = [];
let demoAuth: Record<string, string>;
type Device = { id: number; name: string; typeCode: number; limits: { warningLevel: number; criticalLevel: number } };
let devices: Device[] = [];
const byType = (code: number) => {
  const d = devices.find((x) => x.typeCode === code);
  if (!d) throw new Error(`no device of type ${code}`);
  return d;
};

async function api<T>(auth: Record<string, string>, method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.baseUrl}/api/${url}`, {
    method,
    headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
}

async function ingest(key: string, readings: { ts: string; values: Record<string, number> }[]) {
  const res = await fetch(`${server.baseUrl}/api/ingest`, {
    method: 'POST',
    headers: { 'x-device-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ readings }),
  });
  expect(res.status).toBe(200);
}

/** A device of the caller's with the given readings; answers the device. */
async function deviceWith(
  auth: Record<string, string>,
  body: { name: string; mac: string; typeCode: number },
  readings: { ts: string; values: Record<string, number> }[],
): Promise<Device> {
  const created = await api<{ device: Device; ingestKey: string }>(auth, 'POST', 'devices', body);
  expect(created.status).toBe(200);
  if (readings.length) await ingest(created.body.ingestKey, readings);
  return created.body.device;
}

async function setLanguage(auth: Record<string, string>, lang: Lang) {
  const me = await api<{ fullName: string; country: string; timezone: string }>(auth, 'GET', 'account/userInfo');
  const res = await api(auth, 'POST', 'account/update', {
    fullName: me.body.fullName || 'E2E User',
    country: me.body.country,
    timezone: me.body.timezone,
    language: lang,
  });
  expect(res.status).toBe(200);
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
  demoAuth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  // A device of a type code outside the catalogue (the default detail), with the last two hours.
  const now = Date.now();
  await deviceWith(
    demoAuth,
    { name: 'Lab sensor', mac: '02:00:00:00:0B:01', typeCode: 42 },
    Array.from({ length: 120 }, (_, i) => ({
      ts: new Date(now - (120 - i) * 60_000).toISOString(),
      values: { vave1: 230 + (i % 5), frq1: 50 + (i % 3) / 100, eai1: 10 + i * 0.01 },
    })),
  );
  devices = (await api<Device[]>(demoAuth, 'GET', 'devices')).body;
  chrome = await launchBrowser();
}, 240_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await chrome?.close();
  await server?.stop();
});

async function openPage(viewport: { width: number; height: number } = VIEWPORTS[0], dark = false): Promise<Page> {
  const ctx = await chrome.browser.newContext({ viewport, baseURL: server.baseUrl });
  contexts.push(ctx);
  if (dark) await ctx.addInitScript(() => localStorage.setItem('phasewatch.theme', 'dark'));
  const page = await ctx.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

/** Signs in on the public screen (English until the profile's language applies) and waits for the profile's. */
async function signIn(page: Page, who: { email: string; password: string }, lang: Lang) {
  await page.goto('/sign-in');
  await page.getByLabel(/^(Email|E-mail|E-posta)/).fill(who.email);
  await page.getByLabel(/^(Password|Hasło|Şifre|Parola)/).fill(who.password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL('**/dashboard');
  await signedInShell(page);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
}

async function demoPage(lang: Lang, viewport: { width: number; height: number } = VIEWPORTS[0], dark = false): Promise<Page> {
  await setLanguage(demoAuth, lang);
  const page = await openPage(viewport, dark);
  await signIn(page, DEMO, lang);
  return page;
}

/** A fresh account in a language, signed in. */
async function freshUser(lang: Lang, viewport: { width: number; height: number } = VIEWPORTS[0]) {
  const email = `ux-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  const { token } = await registerUser(server.baseUrl, email, 'secret1');
  const auth = { authorization: `Bearer ${token}` };
  await setLanguage(auth, lang);
  const page = await openPage(viewport);
  await signIn(page, { email, password: 'secret1' }, lang);
  return { page, auth };
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(screenshotDir, `ux-${name}.png`) });
const firstChart = (page: Page) => page.locator('[data-chart]').first();
const drawn = (page: Page, chart = firstChart(page)) =>
  expect.poll(
    async () =>
      Number(
        await chart
          .locator('[data-chart-drawn]')
          .getAttribute('data-chart-drawn')
          .catch(() => '0'),
      ),
    {
      timeout: 30_000,
    },
  );

describe('the first screen of a device page', () => {
  it('holds the first chart of the last 24 hours and the controls that drive it, at 1366×800 and 390×844, in en, pl and tr', {
    timeout: 420_000,
  }, async () => {
    for (const lang of LANGS) {
      for (const viewport of VIEWPORTS) {
        const page = await demoPage(lang, viewport);
        for (const code of [13, 10, 17, 20, 42]) {
          const d = byType(code);
          const where = `${lang} ${viewport.width}×${viewport.height} type ${code}`;
          // The page takes "now" while it opens: an hour can turn between then and the checks below.
          const opened = Date.now();
          await page.goto(deviceDetailPath(code, d.id));
          await drawn(page).toBeGreaterThan(0);
          expect(Number(await firstChart(page).getAttribute('data-bucket-count')), where).toBeGreaterThan(0);
          // Nothing scrolled: the whole first chart card and the controls above it are in the viewport.
          expect(await page.evaluate(() => window.scrollY), where).toBe(0);
          const chart = await firstChart(page).boundingBox();
          const controls = await page.locator('[data-range-controls]').boundingBox();
          expect(chart && controls, where).toBeTruthy();
          if (!chart || !controls) continue;
          expect(chart.y, where).toBeGreaterThan(0);
          expect(chart.y + chart.height, where).toBeLessThanOrEqual(viewport.height);
          expect(controls.y + controls.height, where).toBeLessThanOrEqual(chart.y);
          // Which span it is, in words, and the range menu shows it.
          const last24h = tr(lang, 'detail.range.preset.last24h');
          expect(await page.locator('[data-range-caption]').textContent(), where).toMatch(new RegExp(`^${reEscape(last24h)}: `));
          expect(await page.getByRole('textbox', { name: tr(lang, 'detail.range.quick') }).inputValue(), where).toBe(last24h);
          // The range ends within the hour after the moment the page opened.
          const [from, to] = ((await firstChart(page).getAttribute('data-range')) ?? '').split('-').map(Number);
          expect((to ?? 0) - (from ?? 0), where).toBe(86_400_000);
          expect(to, where).toBeGreaterThan(opened);
          expect(to, where).toBeLessThanOrEqual(Date.now() + 3_600_000);
          if (lang === 'pl') await shot(page, `first-${code}-${viewport.width}`);
        }
        if (viewport.width < 576) {
          // The three-phase page on a phone: what a phone user rarely needs is folded (was 5,417 px).
          await page.goto(deviceDetailPath(13, byType(13).id));
          await drawn(page).toBeGreaterThan(0);
          await page.locator('[data-more-charts]').waitFor();
          await page.locator('[data-settings-more]').waitFor();
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          expect(height, `${lang} phone page height`).toBeLessThan(3 * viewport.height + 400);
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
          ).toBeLessThanOrEqual(0);
          // Folded, not gone.
          await page.locator('[data-more-charts]').click();
          await page.locator('[data-chart="frequency"]').waitFor();
          // Every chart drawn before reaching for the settings below them, as a user scrolls past them: a
          // chart loads as it nears the screen and grows from its placeholder (336 px) to its height with
          // the legend wrapped (up to 430 px on a phone), moving what lies below; a click sent at that
          // moment lands on a chart (seen in a loaded CI run: the settings never opened).
          await allChartsDrawn(page);
          await page.locator('[data-settings-more]').click();
          await page.locator('[data-limits-form]').waitFor();
        }
      }
    }
  });

  it('names the active quick range, picks days in a calendar in the language, and keeps the simple chart of one day', {
    timeout: 120_000,
  }, async () => {
    for (const lang of LANGS) {
      const page = await demoPage(lang);
      const meter = byType(13);
      await page.goto(deviceDetailPath(13, meter.id));
      await drawn(page).toBeGreaterThan(0);
      const range = page.getByRole('textbox', { name: tr(lang, 'detail.range.quick') });
      await range.click();
      await page.getByRole('option', { name: tr(lang, 'detail.range.preset.yesterday') }).click();
      // The menu keeps the choice (it went back to "Choose…").
      await expect.poll(() => range.inputValue()).toBe(tr(lang, 'detail.range.preset.yesterday'));
      await expect.poll(() => page.url()).toMatch(/date=\d{4}-\d{2}-\d{2}/);
      const day = new URL(page.url()).searchParams.get('date') ?? '';
      // The simple chart: the day from 00:00 plus 24 hours.
      await expect.poll(() => firstChart(page).getAttribute('data-range')).toMatch(/-15m$/);
      const [from, to] = ((await firstChart(page).getAttribute('data-range')) ?? '').split('-').map(Number);
      expect((to ?? 0) - (from ?? 0)).toBe(86_400_000);
      // Its date in the language's own words, not the browser's 11/26/2026.
      const dayField = page.getByRole('button', { name: dateField(lang, 'detail.range.date') });
      const shown = (await dayField.textContent()) ?? '';
      const [y, m, dd] = day.split('-').map(Number);
      // The month as the language writes it in a date ("listopada", "Kasım", "November").
      const month = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'long', timeZone: 'UTC' })
        .formatToParts(Date.UTC(y ?? 0, (m ?? 1) - 1, dd))
        .find((p) => p.type === 'month')?.value;
      expect(shown).toContain(String(dd));
      expect(shown).toContain(String(y));
      expect(shown).toContain(month);
      expect(shown).not.toMatch(/\d{1,2}\/\d{1,2}\/\d{4}/);

      // Days you pick: two days in the calendar.
      await range.click();
      await page.getByRole('option', { name: tr(lang, 'ux.range.days') }).click();
      const daysField = page.getByRole('button', { name: dateField(lang, 'ux.range.days') });
      await daysField.click();
      const dayButtons = page
        .locator('[data-dates-dropdown] button[aria-label]:not([data-outside]):not([disabled])')
        .filter({ hasText: /^\d+$/ });
      await dayButtons.first().waitFor();
      const firstLabel = (await dayButtons.nth(0).getAttribute('aria-label')) ?? '';
      await dayButtons.nth(0).click();
      await dayButtons.nth(2).click();
      await expect.poll(() => page.url()).toMatch(/from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}/);
      const q = new URL(page.url()).searchParams;
      expect(q.get('from')?.endsWith('-01')).toBe(true);
      expect(q.get('to')?.endsWith('-03')).toBe(true);
      await page.keyboard.press('Escape');
      expect((await daysField.textContent()) ?? '').toContain(firstLabel.split(' ')[1] ?? '');
      await expect
        .poll(() => page.locator('[data-range-caption]').textContent())
        .toMatch(new RegExp(`^${reEscape(tr(lang, 'ux.range.days'))}: `));
      await expect.poll(() => firstChart(page).getAttribute('data-range')).toMatch(/-15m$/);
      await shot(page, `range-${lang}`);
    }
  });

  it('moves the last 24 hours back to the last reading when they hold none, and says so', async () => {
    const { page, auth } = await freshUser('en');
    const at = Date.now() - 3 * 86_400_000;
    const d = await deviceWith(
      auth,
      { name: 'Quiet meter', mac: '02:00:00:00:0B:02', typeCode: 20 },
      Array.from({ length: 30 }, (_, i) => ({ ts: new Date(at - (30 - i) * 60_000).toISOString(), values: { pave1: 300 + i } })),
    );
    await page.goto(deviceDetailPath(20, d.id));
    await drawn(page).toBeGreaterThan(0);
    expect(await page.locator('[data-range-caption]').textContent()).toContain('No readings in the last 24 hours');
    // The window ends with the hour of the last reading (a minute before `at`: with `at` in the first
    // minute of an hour, that is the hour before).
    const last = at - 60_000;
    const [, to] = ((await firstChart(page).getAttribute('data-range')) ?? '').split('-').map(Number);
    expect(to).toBeGreaterThan(last);
    expect(to).toBeLessThanOrEqual(last + 3_600_000);
    expect(Number(await firstChart(page).getAttribute('data-bucket-count'))).toBeGreaterThan(0);
  });
});

describe('numbers a user types are the numbers stored, or refused', () => {
  it('edit screen: 1.5 months, 5000 minutes and −5 % are shown as typed, refused with their messages, and nothing is stored', {
    timeout: 180_000,
  }, async () => {
    for (const lang of LANGS) {
      const { page, auth } = await freshUser(lang);
      const d = await deviceWith(auth, { name: 'Meter', mac: `02:00:00:00:0C:0${LANGS.indexOf(lang)}`, typeCode: 13 }, []);
      const before = (await api<Record<string, unknown>>(auth, 'GET', `devices/${d.id}`)).body;
      const puts: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'PUT') puts.push(r.url());
      });
      await page.goto(`/edit-device/${d.id}`);
      const dec = lang === 'en' ? '.' : ',';
      const months = page.getByRole('textbox', { name: label(lang, 'editDevice.billingMonths') });
      const interval = page.getByRole('textbox', { name: label(lang, 'editDevice.interval') });
      const drop = page.getByRole('textbox', { name: label(lang, 'editDevice.voltageDrop') });
      await months.fill(`1${dec}5`);
      await interval.fill('5000');
      await drop.fill('-5');
      await page.getByRole('button', { name: tr(lang, 'editDevice.save') }).click();
      await page.getByText(tr(lang, 'messages.unableToSave')).first().waitFor();
      // Shown as typed after leaving the fields (no clamping to 1440 or 0, no "15").
      expect(await months.inputValue()).toBe(`1${dec}5`);
      expect(await interval.inputValue()).toBe('5000');
      expect(await drop.inputValue()).toMatch(/^-5/);
      const form = page.locator('form');
      for (const key of ['validation.integer', 'validation.max', 'validation.min']) {
        expect(await form.textContent(), `${lang} ${key}`).toContain(tr(lang, key));
      }
      expect(await page.getByText(tr(lang, 'messages.changesSaved')).count()).toBe(0);
      expect(puts).toEqual([]);
      expect((await api(auth, 'GET', `devices/${d.id}`)).body).toEqual(before);

      // The toast closes by its name (it sits over the form's buttons on this screen).
      await page
        .getByRole('alert')
        .filter({ hasText: tr(lang, 'messages.unableToSave') })
        .getByRole('button', { name: tr(lang, 'widgets.close') })
        .click();
      await page.getByText(tr(lang, 'messages.unableToSave')).first().waitFor({ state: 'detached' });
      // The same fields made valid: stored exactly as typed, and only then "Changes saved".
      await months.fill('3');
      await interval.fill('90');
      await drop.fill(`12${dec}5`);
      await page.getByRole('button', { name: tr(lang, 'editDevice.save') }).click();
      await page.getByText(tr(lang, 'messages.changesSaved')).first().waitFor();
      const saved = (await api<{ billingPeriodMonths: number; notifications: Record<string, unknown> }>(auth, 'GET', `devices/${d.id}`))
        .body;
      expect(saved.billingPeriodMonths).toBe(3);
      expect(saved.notifications).toMatchObject({ notificationIntervalMinutes: 90, voltageDropThreshold: 12.5 });
      if (lang === 'pl') await shot(page, 'edit-pl');
    }
  });

  it('add device: a type code of −5 or 123456 is refused with its message and nothing is created', async () => {
    for (const lang of LANGS) {
      const { page, auth } = await freshUser(lang);
      await page.getByRole('button', { name: tr(lang, 'dashboard.addFirst') }).click();
      const dialog = page.getByRole('dialog');
      // How the readings arrive comes first; a device that sends by itself is the default.
      await dialog.getByRole('button', { name: tr(lang, 'widgets.next') }).click();
      await dialog.getByRole('textbox', { name: label(lang, 'addDevice.name') }).fill('Odd meter');
      await dialog.getByRole('textbox', { name: label(lang, 'addDevice.mac') }).fill('02:00:00:00:0D:01');
      await dialog.getByRole('textbox', { name: label(lang, 'addDevice.type') }).click();
      await page.getByRole('option', { name: tr(lang, 'addDevice.otherType') }).click();
      const code = dialog.getByRole('textbox', { name: label(lang, 'addDevice.typeCode') });
      for (const [typed, key] of [
        ['-5', 'validation.min'],
        ['123456', 'validation.max'],
        [`4${lang === 'en' ? '.' : ','}5`, 'validation.integer'],
      ] as const) {
        await code.fill(typed);
        await dialog.getByRole('button', { name: tr(lang, 'widgets.next') }).click();
        await dialog.getByText(tr(lang, key)).waitFor();
        expect((await code.inputValue()).replace(',', '.')).toBe(typed.replace(',', '.'));
        expect(await dialog.getByRole('textbox', { name: label(lang, 'addDevice.name') }).isVisible()).toBe(true);
      }
      expect((await api<unknown[]>(auth, 'GET', 'devices')).body).toEqual([]);
    }
  });

  it('meter value and profile: a negative meter value and an empty full name are refused, nothing stored', {
    timeout: 120_000,
  }, async () => {
    for (const lang of LANGS) {
      const { page, auth } = await freshUser(lang);
      const d = await deviceWith(auth, { name: 'Flat', mac: `02:00:00:00:0E:0${LANGS.indexOf(lang)}`, typeCode: 20 }, []);
      await page.goto(deviceDetailPath(20, d.id));
      const form = page.locator('[data-meter-value-form]');
      const meter = form.getByRole('textbox', { name: label(lang, 'detail.meterValue.label') });
      await meter.fill('-1');
      await form.getByRole('button', { name: tr(lang, 'detail.save') }).click();
      await form.getByText(tr(lang, 'validation.min')).waitFor();
      expect((await meter.inputValue()).startsWith('-1')).toBe(true);
      await page.waitForTimeout(500);
      expect((await api<{ meterValueKwh: number }>(auth, 'GET', `devices/${d.id}`)).body.meterValueKwh).toBe(0);

      await page.goto('/user/profile');
      const name = page.getByRole('textbox', { name: label(lang, 'profile.fullName') });
      await name.fill('   ');
      await page.getByRole('button', { name: tr(lang, 'profile.save') }).click();
      await page.getByText(tr(lang, 'messages.unableToSave')).first().waitFor();
      expect(await page.locator('form').textContent()).toContain(tr(lang, 'validation.required'));
      expect(await page.getByText(tr(lang, 'messages.changesSaved')).count()).toBe(0);
      expect((await api<{ fullName: string }>(auth, 'GET', 'account/userInfo')).body.fullName).toBe('E2E User');
    }
  });
});

describe('stale is shown as stale', () => {
  it("dims an offline device's last value with its age on the dashboard and its page; its toast closes by name", {
    timeout: 120_000,
  }, async () => {
    for (const lang of LANGS) {
      const { page, auth } = await freshUser(lang);
      const at = Date.now() - 10 * 60_000;
      const d = await deviceWith(auth, { name: `Cellar ${lang}`, mac: `02:00:00:00:0F:0${LANGS.indexOf(lang)}`, typeCode: 20 }, [
        { ts: new Date(at).toISOString(), values: { pave1: 412, vave1: 231.5 } },
      ]);
      await page.reload();
      const row = page.locator(`[data-device-row="${d.id}"]`);
      await expect.poll(() => row.locator('[data-live-value]').textContent()).toMatch(/^412\sW$/);
      expect(await row.locator('[data-stale]').count()).toBe(1);
      // (Formatted by the browser's own Intl: its ICU data, not Node's.)
      const ago = (style: string) =>
        page.evaluate(
          ([l, st]) => new Intl.RelativeTimeFormat(l, { style: st as 'long', numeric: 'auto' }).format(-10, 'minute'),
          [lang, style],
        );
      await expect.poll(() => row.locator('[data-reading-age]').textContent()).toBe(await ago('short'));
      expect(await row.locator('[data-device-status]').textContent()).toBe(tr(lang, 'dashboard.offline'));

      // The offline toast: its close button has a name, and axe finds nothing serious on the page.
      const toast = page.locator('.mantine-Notification-root', { hasText: tr(lang, 'messages.deviceOffline', { name: d.name }) });
      await toast.waitFor();
      const close = toast.getByRole('button', { name: tr(lang, 'widgets.close') });
      expect(await close.count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await close.click();
      await toast.waitFor({ state: 'detached' });

      // Its page: the live card says offline, the reading's age, and its values are not bold.
      await page.goto(deviceDetailPath(20, d.id));
      const card = page.locator('[data-live-card]');
      await expect.poll(() => card.getAttribute('data-stale')).toBe('true');
      expect(await card.textContent()).toContain(tr(lang, 'dashboard.offline'));
      await expect.poll(() => card.locator('[data-reading-age]').textContent()).toBe(await ago('long'));
      expect(Number(await card.locator('[data-live-headline]').evaluate((e) => getComputedStyle(e).fontWeight))).toBeLessThan(700);

      // One reading: drawn as a point, with distinct axis labels around it.
      await drawn(page).toBeGreaterThan(0);
      const plot = firstChart(page).locator('[data-chart-drawn]');
      const labels = ((await plot.getAttribute('data-y-labels')) ?? '').split('|');
      expect(labels.length).toBeGreaterThan(1);
      expect(new Set(labels).size).toBe(labels.length);
      const [lo, hi] = ((await plot.getAttribute('data-y-range')) ?? '').split(',').map(Number);
      expect(lo).toBeLessThan(412);
      expect(hi).toBeGreaterThan(412);
      const blue = await firstChart(page)
        .locator('canvas')
        .first()
        .evaluate((c: HTMLCanvasElement) => {
          const ctx = c.getContext('2d');
          if (!ctx) return 0;
          const px = ctx.getImageData(0, 0, c.width, c.height).data;
          let n = 0;
          // The phase-1 colour, #1c7ed6.
          for (let i = 0; i < px.length; i += 4)
            if (Math.abs((px[i] ?? 0) - 0x1c) < 30 && Math.abs((px[i + 1] ?? 0) - 0x7e) < 30 && Math.abs((px[i + 2] ?? 0) - 0xd6) < 30) n++;
          return n;
        });
      expect(blue, `${lang}: the single reading's point`).toBeGreaterThan(10);
      if (lang === 'pl') await shot(page, 'stale-pl');
      // Its overview: the age under the last reading, and the one reading as a dot of the sparkline.
      await page.goto(`/device/overview/${d.id}`);
      await expect.poll(() => page.locator('[data-spark-dots]').getAttribute('d')).toMatch(/^M[\d.]+ [\d.]+h0$/);
      expect(await page.locator('[data-overview="last-reading"] [data-reading-age]').textContent()).toBe(await ago('long'));
    }
  });

  it('ticks the age of the last reading near the live card', async () => {
    for (const lang of LANGS) {
      const { page, auth } = await freshUser(lang);
      const d = await deviceWith(auth, { name: 'Ticker', mac: `02:00:00:00:10:0${LANGS.indexOf(lang)}`, typeCode: 20 }, [
        { ts: new Date(Date.now() - 5_000).toISOString(), values: { pave1: 100 } },
      ]);
      await page.goto(deviceDetailPath(20, d.id));
      const age = page.locator('[data-live-card] [data-reading-age]');
      await age.waitFor();
      const seconds = (await page.evaluate((l) => new Intl.RelativeTimeFormat(l, { numeric: 'auto' }).format(-7, 'second'), lang)).replace(
        /\d+/,
        '\\d+',
      );
      await expect.poll(() => age.textContent()).toMatch(new RegExp(`^${seconds}$`));
      const first = await age.textContent();
      await expect.poll(() => age.textContent(), { timeout: 5_000 }).not.toBe(first);
      expect(await age.textContent()).toMatch(new RegExp(`^${seconds}$`));
      expect(await page.locator('[data-live-card]').getAttribute('data-stale')).toBeNull();
    }
  });
});

describe('charts, names and dead ends', () => {
  it('keeps the limit lines the note names inside the voltage axis, and marks a running day partial', { timeout: 90_000 }, async () => {
    const page = await demoPage('en');
    const meter = (await api<Device>(demoAuth, 'GET', `devices/${byType(13).id}`)).body;
    await page.goto(deviceDetailPath(13, meter.id));
    const voltage = page.locator('[data-chart="voltage"]');
    await drawn(page, voltage).toBeGreaterThan(0);
    const [lo, hi] = ((await voltage.locator('[data-chart-drawn]').getAttribute('data-y-range')) ?? '').split(',').map(Number);
    expect(lo).toBeLessThanOrEqual(230 * (1 - meter.limits.criticalLevel / 100));
    expect(hi).toBeGreaterThanOrEqual(230 * (1 + meter.limits.criticalLevel / 100));
    expect(await voltage.locator('[data-chart-notes]').textContent()).toContain(`critical ±${meter.limits.criticalLevel} %`);
    // The zoom buttons share the legend's row: both charts of the first row start their plots level.
    const plots = await Promise.all(['power', 'voltage'].map((id) => page.locator(`[data-chart="${id}"] .u-over`).boundingBox()));
    expect(Math.abs((plots[0]?.height ?? 0) - (plots[1]?.height ?? 1))).toBeLessThan(1);

    // A year of days: today's bar is only so far.
    const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Warsaw' });
    const yearAgo = new Date(Date.now() - 364 * 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Warsaw' });
    await page.goto(`${deviceDetailPath(13, meter.id)}?from=${yearAgo}&to=${today}`);
    const energy = page.locator('[data-chart="activeEnergy"]');
    await energy.scrollIntoViewIfNeeded();
    await drawn(page, energy).toBeGreaterThan(0);
    expect(await energy.locator('[data-chart-drawn]').getAttribute('data-partial')).toBe('true');
    expect(await energy.locator('[data-chart-notes]').textContent()).toContain(tr('en', 'ux.chart.soFarNote'));
  });

  it('calls a type by one name in each language, on the dashboard and on its page', async () => {
    for (const lang of LANGS) {
      const page = await demoPage(lang);
      for (const code of [13, 20, 10]) {
        const d = byType(code);
        const listed = (await page.locator(`[data-device-type="${d.id}"]`).textContent())?.trim();
        expect(listed).toBe(tr(lang, `deviceTypes.${code === 13 ? 'energy' : code === 20 ? 'singlePhase' : 'solar'}`));
        await page.goto(deviceDetailPath(code, d.id));
        await expect.poll(() => page.locator(`[data-device-type="${d.id}"]`).textContent()).toContain(listed ?? '');
        await page.goto('/dashboard');
      }
    }
  });

  it('answers a nonexistent device with one request, the 404 text and a way back', async () => {
    for (const lang of LANGS) {
      const page = await demoPage(lang);
      const asked: string[] = [];
      page.on('request', (r) => {
        const u = new URL(r.url());
        if (u.pathname.startsWith('/api/devices/999999')) asked.push(`${u.pathname}${u.search}`);
      });
      await page.goto('/device-energy-details/999999');
      await page.getByText(tr(lang, 'errors.notFound')).waitFor();
      expect(await page.getByRole('alert').textContent()).toContain(tr(lang, 'device.notFound'));
      await page.waitForTimeout(1000);
      expect(asked).toEqual(['/api/devices/999999']);
      await page.getByRole('link', { name: tr(lang, 'ux.backToDevices') }).click();
      await page.waitForURL('**/dashboard');
    }
  });

  it('answers 404 at /metrics when metrics are off (not the app page)', async () => {
    const res = await fetch(`${server.baseUrl}/metrics`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('has no serious or critical axe violation on the new controls, light and dark, desktop and phone', { timeout: 120_000 }, async () => {
    for (const [viewport, dark] of [
      [VIEWPORTS[0], true],
      [VIEWPORTS[1], false],
    ] as const) {
      const page = await demoPage('pl', viewport, dark);
      await page.goto(deviceDetailPath(13, byType(13).id));
      await drawn(page).toBeGreaterThan(0);
      if (viewport.width < 576) await page.locator('[data-chart-options]').click();
      expect(await axeViolations(page), `${viewport.width} ${dark ? 'dark' : 'light'}`).toEqual([]);
      // The days calendar open.
      await page.getByRole('textbox', { name: tr('pl', 'detail.range.quick') }).click();
      await page.getByRole('option', { name: tr('pl', 'ux.range.days') }).click();
      await page.getByRole('button', { name: dateField('pl', 'ux.range.days') }).click();
      await page.locator('[data-dates-dropdown]').waitFor();
      // Past its opening transition (colours half faded in are not what a user reads).
      await expect.poll(() => page.locator('[data-dates-dropdown]').evaluate((e) => getComputedStyle(e).opacity)).toBe('1');
      expect(await axeViolations(page), `calendar ${viewport.width}`).toEqual([]);
    }
  });
});
