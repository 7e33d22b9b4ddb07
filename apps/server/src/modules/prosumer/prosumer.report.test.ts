import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startOfDate } from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';

const WAW = 'Europe/Warsaw';
const Q = 15 * 60_000;
type User = Awaited<ReturnType<typeof signUp>>;

/**
 * The location's ledger in a device's PDF report (issue 33): a grid meter of a net-billing (RCEm) location
 * exports 1 kWh per hour 10:00–14:00 and imports 2 kWh at 20:00 on 15 June 2025. June's RCEm is 136.30
 * PLN/MWh: a tranche of 4 × 0.1363 × 1.23 = 0.67 PLN, usable from July; June's energy cost 2 × 0.615 = 1.23.
 */
describe.each(DIALECTS)('prosumer ledger in the PDF report (%s)', (dialect) => {
  let t: TestApp;
  let user: User;
  let locationId: number;
  let gridId: number;
  let subId: number;
  let macs = 0;

  const ok = async <T = { id: number }>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url: `/api${url}`, headers: user.auth, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json() as T;
  };

  async function device(name: string) {
    const mac = `02:7C:00:00:00:${String(macs++).padStart(2, '0')}`;
    return ok<{ device: { id: number }; ingestKey: string }>('POST', '/devices', { name, mac, typeCode: 13, locationId });
  }

  /** A PDF export of the device over local [from, to) at 1 day per row, as its text (pdftotext -layout). */
  async function reportText(deviceId: number, from: string, to: string, language: 'en' | 'pl' | 'tr'): Promise<string> {
    const job = await ok<{ id: string }>('POST', '/exports', {
      deviceId,
      parameters: ['eai1', 'eae1'],
      from: new Date(startOfDate(from, WAW)).toISOString(),
      to: new Date(startOfDate(to, WAW)).toISOString(),
      interval: '24h',
      format: 'pdf',
      fileName: `ledger-${language}`,
      language,
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const j = await ok<{ status: string; error?: string | null }>('GET', `/exports/${job.id}`);
      if (j.status === 'done') break;
      if (j.status === 'failed' || Date.now() > deadline) throw new Error(`export ${j.status}: ${j.error}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const res = await t.app.inject({ method: 'POST', url: `/api/exports/${job.id}/download`, headers: user.auth });
    expect(res.statusCode).toBe(200);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'pw-prosumer-pdf-')), 'r.pdf');
    writeFileSync(file, res.rawPayload);
    return execFileSync('pdftotext', ['-layout', file, '-']).toString();
  }

  /** The table row of a month: its cells (split on runs of two or more spaces). */
  const row = (text: string, month: string) =>
    text
      .split('\n')
      .find((l) => l.trim().startsWith(`${month} `))
      ?.trim()
      .split(/\s{2,}/);

  beforeAll(async () => {
    t = await buildTestApp(dialect, { rawRetentionDays: 36_500 });
    user = await signUp(t.app);
    locationId = (await ok('POST', '/locations', { name: 'Dom', timezone: WAW })).id;
    const tariff = await ok('POST', `/locations/${locationId}/tariffs`, {
      name: 'G11',
      group: 'G11',
      presetId: 'tauron-g11',
      prices: [{ validFrom: '2025-01-01', area1: 1.2, area2: null, area3: null, fixedMonthly: 30, energyArea1: 0.615 }],
    });
    await ok('PUT', `/locations/${locationId}`, { name: 'Dom', timezone: WAW, tariffId: tariff.id });
    const grid = await device('Licznik główny');
    const sub = await device('Podlicznik');
    gridId = grid.device.id;
    subId = sub.device.id;
    const start = startOfDate('2025-06-15', WAW);
    const readings = [];
    let imp = 100;
    let exp = 100;
    for (let k = 0; k <= 96; k++) {
      readings.push({ ts: new Date(start + k * Q).toISOString(), values: { eai1: imp, eae1: exp } });
      const hour = Math.floor(k / 4);
      if (hour >= 10 && hour < 14) exp += 0.25;
      if (hour === 20) imp += 0.5;
    }
    for (const key of [grid.ingestKey, sub.ingestKey]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/ingest', headers: { 'x-device-key': key }, payload: { readings } });
      expect(res.statusCode, res.body).toBe(200);
    }
    await ok('PUT', `/locations/${locationId}/prosumer`, { scheme: 'net-billing-rcem', since: '2025-06-01', installationKw: 6 });
  });
  afterAll(async () => t.close());

  it('shows the months of the period with credited, used, refunded, lost, balance, energy cost and cash, in each language', async () => {
    const en = await reportText(gridId, '2025-06-15', '2025-07-03', 'en');
    expect(en).toContain('Prosumer ledger of the location');
    expect(en).toContain('net-billing at the monthly price RCEm');
    // Long column names wrap in the header: each is there.
    for (const h of ['Month', 'Credited', 'Used', 'Refunded', 'Lost', 'Deposit', 'Energy cost']) expect(en).toContain(h);
    // Month, netted export, price, credited, used, refunded, lost, deposit, energy cost, cash for energy.
    expect(row(en, '2025-06')).toEqual(['2025-06', '4.000', '136.30', '0.67', '0.00', '0.00', '0.00', '0.00', '1.23', '1.23']);
    // July: the tranche is in the deposit; nothing imported, nothing used.
    expect(row(en, '2025-07')?.slice(3)).toEqual(['0.00', '0.00', '0.00', '0.00', '0.67', '0.00', '0.00']);
    expect(en).toContain('rounded to the grosz');

    const pl = await reportText(gridId, '2025-06-15', '2025-07-03', 'pl');
    expect(pl).toContain('Rozliczenie prosumenckie lokalizacji');
    expect(pl).toContain('net-billing po miesięcznej cenie RCEm');
    for (const h of ['Miesiąc', 'Zaliczone', 'Zwrócone', 'Utracone', 'Depozyt']) expect(pl).toContain(h);
    expect(row(pl, '2025-06')).toEqual(['2025-06', '4,000', '136,30', '0,67', '0,00', '0,00', '0,00', '0,00', '1,23', '1,23']);
    const tr = await reportText(gridId, '2025-06-15', '2025-07-03', 'tr');
    expect(tr).toContain('Konumun üretici-tüketici defteri');
    for (const h of ['Alacaklanan', 'Kullanılan', 'Yanan', 'Depozito']) expect(tr).toContain(h);
    expect(row(tr, '2025-07')?.[7]).toBe('0,67');
  });

  it('shows the kWh bank under net-metering; no ledger for a sub-meter or a location without a scheme', async () => {
    await ok('PUT', `/locations/${locationId}/prosumer`, { scheme: 'net-metering', since: '2025-06-01', installationKw: 6 });
    const bank = await reportText(gridId, '2025-06-15', '2025-06-16', 'en');
    expect(bank).toContain('net-metering (kWh bank)');
    expect(bank).toContain('Bank [kWh]');
    expect(bank).not.toContain('Deposit');
    // 4 kWh × 0.8 enter the bank, 2 are taken: 1.2 left; the 2 kWh's energy part (1.23) is paid from it.
    expect(row(bank, '2025-06')).toEqual(['2025-06', '2.000', '4.000', '1.200', '1.23', '1.23', '0.00']);

    const sub = await reportText(subId, '2025-06-15', '2025-06-16', 'en');
    expect(sub).not.toContain('Prosumer ledger');
    await ok('PUT', `/locations/${locationId}/prosumer`, { scheme: 'none', since: '2025-06-01', installationKw: 6 });
    const none = await reportText(gridId, '2025-06-15', '2025-06-16', 'en');
    expect(none).not.toContain('Prosumer ledger');
    // The rest of the report is as before: its cost table is there.
    expect(none).toContain('Cost per tariff zone');
  });
});
