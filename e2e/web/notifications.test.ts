import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.js';
import { launchBrowser, screenshotDir, signedInShell } from '../support/browser.js';
import { type RunningServer, registerUser, startServer } from '../support/server.js';

/**
 * The notification centre in Chromium against the built server: the bell's unread count, the list with
 * its filters, mark read and acknowledge, a live alarm arriving through the hub (bell and toast), in
 * English, Polish and Turkish, light and dark, desktop and phone width; and the service worker showing a
 * push message.
 */

let server: RunningServer;
let chrome: { browser: Browser; close(): Promise<void> };
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  mkdirSync(screenshotDir, { recursive: true });
  server = await startServer();
  chrome = await launchBrowser();
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await chrome?.close();
  await server?.stop();
});

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(screenshotDir, `notifications-${name}.png`), fullPage: true });

async function api<T>(token: string, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.baseUrl}/api/${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

let macs = 0;
/** A device whose readings sag below its limits, then (unless `ongoing`) come back to normal. */
async function saggingDevice(token: string, name: string, opts: { ongoing?: boolean; muted?: boolean } = {}) {
  const mac = `02:B0:00:00:00:${String(macs++).padStart(2, '0')}`;
  const { device, ingestKey } = await api<{ device: { id: number; notifications: object }; ingestKey: string }>(token, 'POST', 'devices', {
    name,
    mac,
    typeCode: 13,
  });
  await api(token, 'PUT', `devices/${device.id}/notifications`, { ...device.notifications, disableAtNight: false, muteAll: !!opts.muted });
  // Recent readings: the device stays online (three reporting intervals of a minute) for the test's length.
  const t0 = Date.now() - 60_000;
  const readings = [
    { ts: new Date(t0).toISOString(), values: { vave1: 230, vave2: 231, vave3: 229 } },
    { ts: new Date(t0 + 20_000).toISOString(), values: { vave1: 230, vave2: 199.5, vave3: 229 } },
    ...(opts.ongoing ? [] : [{ ts: new Date(t0 + 50_000).toISOString(), values: { vave1: 230, vave2: 230.5, vave3: 229 } }]),
  ];
  const res = await fetch(`${server.baseUrl}/api/ingest`, {
    method: 'POST',
    headers: { 'x-device-key': ingestKey, 'content-type': 'application/json' },
    body: JSON.stringify({ readings }),
  });
  expect(res.status).toBe(200);
  return { id: device.id, key: ingestKey };
}

async function open(opts: { width?: number; dark?: boolean } = {}): Promise<Page> {
  const width = opts.width ?? 1366;
  const ctx = await chrome.browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 }, baseURL: server.baseUrl });
  contexts.push(ctx);
  if (opts.dark) await ctx.addInitScript(() => localStorage.setItem('phasewatch.theme', 'dark'));
  const page = await ctx.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

async function signIn(page: Page, email: string) {
  await page.goto('/sign-in');
  await page.getByLabel(/^(Email|E-mail|E-posta)/).fill(email);
  await page.getByLabel(/^(Password|Hasło|Parola)/).fill('secret1');
  await page.locator('button[type="submit"]').click();
  await page.waitForURL('**/dashboard');
  await signedInShell(page);
}

const bell = (page: Page) => page.locator('header a[href="/notifications"]');
const unread = async (page: Page) => Number(await bell(page).getAttribute('data-unread'));
const card = (page: Page, text: string | RegExp) => page.locator('[data-notification]').filter({ hasText: text });

const TEXTS = {
  en: {
    title: 'Notifications',
    drop: 'Voltage drop',
    warning: 'Warning level exceeded',
    read: 'Mark read',
    ack: 'Acknowledge',
    acked: 'Acknowledged',
    cleared: 'Cleared',
    held: 'Not sent: the device is muted',
    kindLabel: 'Kind',
  },
  pl: {
    title: 'Powiadomienia',
    drop: 'Spadek napięcia',
    warning: 'Przekroczony poziom ostrzegawczy',
    read: 'Oznacz jako przeczytane',
    ack: 'Potwierdź',
    acked: 'Potwierdzony',
    cleared: 'Zakończony',
    held: 'Nie wysłano: urządzenie wyciszone',
    kindLabel: 'Rodzaj',
  },
  tr: {
    title: 'Bildirimler',
    drop: 'Gerilim düşüşü',
    warning: 'Uyarı seviyesi aşıldı',
    read: 'Okundu işaretle',
    ack: 'Onayla',
    acked: 'Onaylandı',
    cleared: 'Sona erdi',
    held: 'Gönderilmedi: cihaz sessize alındı',
    kindLabel: 'Tür',
  },
} as const;

describe('notification centre in Chromium', () => {
  it.each([
    ['en', { width: 1366 }],
    ['pl', { width: 390, dark: true }],
    ['tr', { width: 1366, dark: true }],
  ] as const)('bell, list, mark read and acknowledge in %s', async (lng, view) => {
    const text = TEXTS[lng];
    const email = `bell-${lng}-${Date.now()}@example.com`;
    const { token } = await registerUser(server.baseUrl, email);
    await api(token, 'POST', 'account/update', { fullName: `User ${lng}`, country: 'PL', timezone: 'Europe/Warsaw', language: lng });
    // One ongoing sag (two alarms: drop and warning) and one that ended, on a muted device (held).
    await saggingDevice(token, 'Main meter', { ongoing: true });
    await saggingDevice(token, 'Cellar meter', { muted: true });

    const page = await open(view);
    await signIn(page, email);
    await expect.poll(() => unread(page)).toBe(4);
    expect(await bell(page).getAttribute('aria-label')).toMatch(new RegExp(`^${text.title}.*4$`));
    await bell(page).click();
    await page.waitForURL('**/notifications');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(text.title);
    await expect.poll(() => page.locator('[data-notification]').count()).toBe(4);
    const mainDrop = card(page, text.drop).filter({ hasText: 'Main meter' });
    const mainWarning = card(page, text.warning).filter({ hasText: 'Main meter' });
    expect(await mainDrop.getAttribute('data-state')).toBe('active');
    expect(await card(page, 'Cellar meter').first().getAttribute('data-state')).toBe('cleared');
    expect(await card(page, 'Cellar meter').first().textContent()).toContain(text.held);
    expect(await card(page, 'Cellar meter').first().textContent()).toContain(text.cleared);
    await shot(page, `list-${lng}`);
    expect(await axeViolations(page)).toEqual([]);

    // Mark read: the dot goes, the bell counts one less.
    await mainDrop.getByRole('button', { name: text.read }).click();
    await expect.poll(() => mainDrop.getAttribute('data-read')).toBe('true');
    await expect.poll(() => unread(page)).toBe(3);
    // Acknowledge: the state says so, and it counts as read.
    await mainWarning.getByRole('button', { name: text.ack }).click();
    await expect.poll(() => mainWarning.getAttribute('data-state')).toBe('acknowledged');
    expect(await mainWarning.textContent()).toContain(text.acked);
    await expect.poll(() => unread(page)).toBe(2);

    // The kind filter, kept in the URL.
    await page.getByLabel(text.kindLabel).selectOption('voltage_drop');
    await page.waitForURL(/kind=voltage_drop/);
    await expect.poll(() => page.locator('[data-notification]').count()).toBe(2);
    await shot(page, `filtered-${lng}`);

    // A new alarm arrives while the page is open: the bell counts it and a toast says what happened.
    await saggingDevice(token, 'Attic meter', { ongoing: true });
    await expect.poll(() => unread(page), { timeout: 20_000 }).toBe(4);
    await page
      .getByText(/· Attic meter$/)
      .first()
      .waitFor();
    await shot(page, `live-${lng}`);
    // Nothing overflows at phone width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  });

  it('the service worker shows a push message as a notification (delivered through the debugger, no push service)', async () => {
    const ctx = await chrome.browser.newContext({ baseURL: server.baseUrl });
    contexts.push(ctx);
    await ctx.grantPermissions(['notifications'], { origin: server.baseUrl });
    const page = await ctx.newPage();
    await page.goto('/sign-in');
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
    const scope = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      await navigator.serviceWorker.ready;
      return reg.scope;
    });
    expect(scope).toBe(`${server.baseUrl}/`);
    await expect.poll(() => registrations.some((r) => r.scopeURL === scope)).toBe(true);
    const registrationId = registrations.find((r) => r.scopeURL === scope)?.registrationId as string;
    const message = {
      title: 'Voltage drop',
      body: 'Garage: phase 1 fell to 199 V, below 207 V.',
      url: '/notifications?deviceId=3',
      tag: 'device-3-voltage_drop',
    };
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.baseUrl, registrationId, data: JSON.stringify(message) });
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          data: n.data,
        })),
      );
    await expect.poll(shown).toEqual([{ title: message.title, body: message.body, tag: message.tag, data: { url: message.url } }]);
  });
});
