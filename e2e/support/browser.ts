import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const screenshotDir = path.resolve(import.meta.dirname, '../../.tmp/screenshots');

/** Debian's Chromium, headless, with the flags this machine needs (no sandbox as root, no network chatter). */
export async function launchBrowser(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-chromium-'));
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
    ].filter((a) => !a.startsWith('--user-data-dir')),
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A fresh browser context (its own storage) at desktop size, or mobile width below the 576 px breakpoint. */
export function newContext(browser: Browser, opts: { mobile?: boolean; baseURL?: string } = {}): Promise<BrowserContext> {
  return browser.newContext({
    viewport: opts.mobile ? { width: 390, height: 800 } : { width: 1280, height: 800 },
    ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
  });
}

/**
 * Waits until the signed-in layout (the app shell's header) has replaced the public one. The router
 * changes the URL first and renders the new layout in a transition a moment later: a header menu opened
 * in between belonged to the public layout and was removed with it, closed (seen in CI: "element was
 * detached from the DOM" on a language menu item, then a 20 s timeout).
 */
export async function signedInShell(page: Page): Promise<void> {
  await page.locator('header').waitFor();
}

/**
 * Closes every toast on screen and waits until they are gone. A toast lies above the page (and above an
 * open select's list) at the bottom right, the whole width on a phone, and does not close on its own while
 * the pointer rests on it: a click meant for what lies under it waits in vain (seen in CI: the "Signed in"
 * toast over a select's option at 390 px).
 */
export async function closeToasts(page: Page): Promise<void> {
  for (const close of await page.locator('.mantine-Notification-root button.mantine-Notification-closeButton').all()) {
    await close.click({ timeout: 5_000 }).catch(() => {}); // a toast closing on its own meanwhile leaves nothing to click
  }
  await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached', timeout: 15_000 });
}

/**
 * Scrolls every chart into view (a chart loads as it nears the screen, and grows from its placeholder to its
 * height, moving what lies below) and waits until each has drawn or says it is empty; then back to the top.
 * An optional chart (balance) leaves the page once its answer shows the device never sends it.
 */
export async function allChartsDrawn(page: Page, timeoutMs = 20_000): Promise<void> {
  const cards = page.locator('[data-chart]');
  await cards.first().waitFor();
  for (let i = 0; i < (await cards.count()); i++) {
    await cards
      .nth(i)
      .scrollIntoViewIfNeeded({ timeout: 5000 })
      .catch(() => {});
  }
  const drawn = () =>
    cards.evaluateAll((els) =>
      els.every(
        (e) =>
          !e.hasAttribute('data-loading') &&
          (Number(e.querySelector('[data-chart-drawn]')?.getAttribute('data-chart-drawn')) > 0 || !!e.querySelector('[data-chart-empty]')),
      ),
    );
  const deadline = Date.now() + timeoutMs;
  while (!(await drawn())) {
    if (Date.now() > deadline) throw new Error(`charts not all drawn within ${timeoutMs} ms`);
    await page.waitForTimeout(50);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}
