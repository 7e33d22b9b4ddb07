import { chromium } from 'playwright-core';
const BASE = 'http://127.0.0.1:4801';
async function main() {
  const login = (await (await fetch(`${BASE}/api/account/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'demo@phasewatch.dev', password: 'demo1234' }) })).json()) as { token: string };
  const locs = (await (await fetch(`${BASE}/api/locations`, { headers: { authorization: `Bearer ${login.token}` } })).json()) as any;
  const list = Array.isArray(locs) ? locs : locs.items;
  const home = list[0];
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  for (const width of [1366, 390]) {
    const ctx = await browser.newContext({ viewport: { width, height: width < 576 ? 844 : 800 } });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/sign-in`);
    await page.getByLabel(/^Email/).fill('demo@phasewatch.dev');
    await page.getByLabel(/^Password/).fill('demo1234');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard');
    await page.goto(`${BASE}/locations/view/${home.id}`);
    await page.waitForTimeout(2000);
    const tab = page.getByRole('tab', { name: /Prosumer/ });
    if (await tab.count()) await tab.first().click();
    await page.waitForTimeout(3000);
    await page.screenshot({ path: `/work/shots/prosumer-${width}.png`, fullPage: true });
    await page.goto(`${BASE}/analytics?tab=table`);
    await page.waitForTimeout(3000);
    await page.screenshot({ path: `/work/shots/table-${width}.png`, fullPage: true });
    await ctx.close();
  }
  await browser.close();
}
main();
