import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeFox } from '../../apps/server/src/test/collectors/fake-devices.js';
import { launchBrowser, screenshotDir, signedInShell } from '../support/browser.js';
import { type RunningServer, registerUser, startServer } from '../support/server.js';

/**
 * A meter Phasewatch reads itself, as a user adds it: a fake F&F Fox ENERGY-3 on 127.0.0.1 answering as the
 * real one, added in Chromium by its address, its values live on the dashboard and its collector's state
 * on the overview page.
 */

let server: RunningServer;
let chrome: { browser: Browser; close(): Promise<void> };
const contexts: BrowserContext[] = [];
const fox = fakeFox('2468');
const moved = fakeFox('2468');

beforeAll(async () => {
  mkdirSync(screenshotDir, { recursive: true });
  await fox.start();
  server = await startServer({});
  chrome = await launchBrowser();
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await chrome?.close();
  await server?.stop();
  await fox.stop();
  await moved.stop();
});

async function openPage(width = 1366, dark = false): Promise<Page> {
  const ctx = await chrome.browser.newContext({ viewport: { width, height: width < 600 ? 844 : 900 }, baseURL: server.baseUrl });
  contexts.push(ctx);
  if (dark) await ctx.addInitScript(() => localStorage.setItem('phasewatch.theme', 'dark'));
  const page = await ctx.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(screenshotDir, `collectors-${name}.png`), fullPage: true });

async function freshUser(width = 1366, dark = false) {
  const email = `fox-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  await registerUser(server.baseUrl, email, 'secret1');
  const page = await openPage(width, dark);
  await page.goto('/sign-in');
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill('secret1');
  await page.locator('button[type="submit"]').click();
  await page.waitForURL('**/dashboard');
  await signedInShell(page);
  return page;
}

describe('a Fox ENERGY-3 added by address in Chromium', () => {
  it('tests the connection, shows the model it found, and the dashboard shows its live values', { timeout: 120_000 }, async () => {
    const page = await freshUser();
    await page.getByRole('button', { name: 'Add your first device' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add device' });
    await dialog.getByRole('radio', { name: /^Fox ENERGY/ }).check();
    // Not tested yet: the flow does not go on.
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByText('Test the connection to continue.').waitFor();
    await dialog.getByRole('textbox', { name: /^Device address/ }).fill(fox.url);
    // A wrong key first: the device's own answer, in words.
    await dialog.getByLabel(/^Key or password/).fill('0000');
    await dialog.getByTestId('collector-test').click();
    await dialog.getByTestId('collector-error').getByText('The device reported an error (wrong key?).').waitFor();
    await dialog.getByLabel(/^Key or password/).fill('2468');
    await dialog.getByTestId('collector-test').click();
    const found = dialog.getByTestId('collector-found');
    await found.getByText(/Model Wi-MEF-3/).waitFor();
    expect(await found.textContent()).toContain('Phases: 3');
    await shot(page, 'add-found');
    await dialog.getByRole('button', { name: 'Next' }).click();
    // The details come from what the device said.
    // The name people know it by; the model field keeps the code.
    expect(await dialog.getByRole('textbox', { name: /^Name/ }).inputValue()).toBe('F&F Fox ENERGY-3');
    expect(await dialog.getByRole('textbox', { name: /^Model/ }).inputValue()).toBe('Wi-MEF-3');
    await dialog.getByRole('textbox', { name: /^Name/ }).fill('House meter');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByRole('button', { name: 'Create device' }).click();
    await dialog.getByTestId('collected-done').waitFor();
    // The key is shown once, with a copy button.
    await dialog.getByRole('button', { name: /^Copy: / }).waitFor();
    await shot(page, 'add-done');
    await dialog.getByRole('button', { name: 'Done' }).click();

    const row = page.locator('[data-device-row]').filter({ hasText: 'House meter' });
    await expect.poll(() => row.locator('[data-device-status]').textContent(), { timeout: 30_000 }).toBe('Online');
    await expect.poll(() => row.locator('[data-live-value]').textContent(), { timeout: 30_000 }).toMatch(/^46[34] W$/);
    // The meter's power changes: the dashboard follows without a reload.
    fox.state.current = { ...fox.state.current, power_active: [1500, 250.5, 49.5] };
    await expect.poll(() => row.locator('[data-live-value]').textContent(), { timeout: 30_000 }).toMatch(/^1[,.\s]?800 W$/);
    await shot(page, 'dashboard');

    // The overview page says how reading it goes.
    await row.click();
    await page.waitForURL(/\/device-energy-details\/\d+/);
    const id = /(\d+)$/.exec(page.url())?.[1];
    await page.getByText('Balanced energy').waitFor({ timeout: 30_000 });
    await shot(page, 'detail');
    await page.goto(`/device/overview/${id}`);
    const card = page.getByTestId('collector-card');
    await card.getByText('Polling').waitFor();
    expect(await card.textContent()).toContain(fox.url);
    await shot(page, 'overview');

    // The meter disappears: the card says why, in words.
    await fox.stop();
    await card.getByText('Retrying').waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('collector-last-error').textContent()).toBe('The device does not answer at this address.');
    await shot(page, 'overview-retrying');
    // It came back at another address (the router gave it a new one): the user changes it on the card.
    await moved.start();
    await card.getByRole('button', { name: 'Change' }).click();
    const settings = card.getByTestId('collector-settings');
    await settings.getByRole('textbox', { name: /^Device address/ }).fill('http://127.0.0.1:9');
    await settings.getByRole('button', { name: 'Test and save' }).click();
    await settings.getByText('The device does not answer at this address.').waitFor();
    await shot(page, 'overview-change-refused');
    await settings.getByRole('textbox', { name: /^Device address/ }).fill(moved.url);
    // The key is not typed again: the stored one is used (and never shown).
    await settings.getByRole('button', { name: 'Test and save' }).click();
    await card.getByText('Polling').waitFor({ timeout: 60_000 });
    expect(await card.textContent()).toContain(moved.url);
  });

  for (const [width, dark] of [
    [390, false],
    [390, true],
  ] as const)
    it(`the flow fits ${width} px (${dark ? 'dark' : 'light'})`, { timeout: 60_000 }, async () => {
      const page = await freshUser(width, dark);
      await page.getByRole('button', { name: 'Add your first device' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add device' });
      await dialog.getByRole('radio', { name: /^Fox ENERGY/ }).check();
      // The meter at its second address (the first test moved it).
      await dialog.getByRole('textbox', { name: /^Device address/ }).fill(moved.url);
      await dialog.getByLabel(/^Key or password/).fill('2468');
      await dialog.getByTestId('collector-test').click();
      await dialog.getByTestId('collector-found').waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(page, `add-found-${width}-${dark ? 'dark' : 'light'}`);
    });
});
