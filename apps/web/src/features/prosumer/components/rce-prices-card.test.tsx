import type { RceDays } from '@phasewatch/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '@/i18n';
import { ApiError } from '@/lib/api-client';
import { renderUi } from '@/test/render';
import { dayState, monthsOf, RcePricesCard } from './rce-prices-card';

const api = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn() }));
vi.mock('@/lib/api', () => ({ apiClient: api }));

const day = (date: string, priced: number, imported: number, uploaded = 0, expected = 96) => ({
  date,
  expected,
  priced,
  imported,
  uploaded,
});

/** June 2025: 1–2 from PSE, 3 partly uploaded, 4 nothing; March's DST day complete with 92 quarters. */
const DAYS: RceDays = {
  timezone: 'Europe/Warsaw',
  days: [
    day('2025-03-30', 92, 92, 0, 92),
    day('2025-06-01', 96, 96),
    day('2025-06-02', 96, 96, 8),
    day('2025-06-03', 40, 0, 40),
    day('2025-06-04', 0, 0),
  ],
};

function renderCard(rceSince: string | null = '2025-06-01') {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return renderUi(
    <QueryClientProvider client={qc}>
      <RcePricesCard year={2025} today="2025-06-04" rceSince={rceSince} />
    </QueryClientProvider>,
  );
}

afterEach(async () => {
  vi.clearAllMocks();
  await setLanguage('en');
});

describe('RcePricesCard', () => {
  it('counts days per month as complete or with gaps, and where their prices come from', () => {
    expect(DAYS.days.map(dayState)).toEqual(['complete', 'complete', 'complete', 'partial', 'missing']);
    expect(monthsOf(DAYS.days)).toEqual([
      { month: '2025-03', complete: 1, incomplete: 0, imported: 1, uploaded: 0 },
      { month: '2025-06', complete: 2, incomplete: 2, imported: 2, uploaded: 2 },
    ]);
  });

  it('shows which days of the year have prices, and the days an hourly-RCE ledger misses, up to today', async () => {
    api.get.mockResolvedValue(DAYS);
    renderCard();
    const june = await screen.findByRole('row', { name: /Jun 2025/ });
    expect(
      within(june)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Jun 2025', '2', '2', '2', '2']);
    expect(api.get).toHaveBeenCalledWith('prices/rce/days?from=2025-01-01&to=2025-06-05', expect.anything());
    const gaps = screen.getByText('Days without a price for every quarter-hour: 2');
    expect(gaps).toBeInTheDocument();
    expect(screen.getByText('2025-06-03 (40/96), 2025-06-04')).toBeInTheDocument();
    await setLanguage('pl');
    expect(await screen.findByText('Doby bez ceny dla każdego kwadransa: 2')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Import z PSE (doby)' })).toBeInTheDocument();
  });

  it('says nothing is missing when every day since the scheme started is priced, and no alert without an RCE scheme', async () => {
    api.get.mockResolvedValue(DAYS);
    const { unmount } = renderCard('2025-06-05');
    expect(await screen.findByText('Every quarter-hour since the scheme started has a price.')).toBeInTheDocument();
    unmount();
    renderCard(null);
    await screen.findByRole('row', { name: /Jun 2025/ });
    expect(screen.queryByText(/Days without a price/)).toBeNull();
    expect(screen.queryByText(/Every quarter-hour/)).toBeNull();
  });

  it('uploads a chosen file (keyboard: the picker is a labelled button) and shows what was stored and refused, with the range', async () => {
    const user = userEvent.setup();
    api.get.mockResolvedValue(DAYS);
    renderCard();
    const picker = await screen.findByRole('button', { name: 'CSV file' });
    expect(picker).toBeInTheDocument();
    // Nothing chosen: said so, nothing sent.
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('Choose a CSV file first.')).toBeInTheDocument();
    expect(api.post).not.toHaveBeenCalled();

    const text = 'dtime_utc;rce_pln\n2025-06-16 10:15;300\n2025-06-16 10:30;x\nsoon;1\n2025-06-16 10:30;301,5\n';
    const input = document.querySelector('[data-rce-upload] input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File([text], 'rce.csv', { type: 'text/csv' }));
    let settle: (v: unknown) => void = () => {};
    api.post.mockReturnValueOnce(new Promise((r) => (settle = r)));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(api.post).toHaveBeenCalledWith('prices/rce/csv', { csv: text }));
    // Loading while the server works.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload' })).toHaveAttribute('data-loading', 'true'));
    settle({
      imported: 2,
      refused: 2,
      refusedLines: [
        { line: 3, reason: 'price' },
        { line: 4, reason: 'time' },
      ],
      from: Date.UTC(2025, 5, 16, 10, 0),
      to: Date.UTC(2025, 5, 16, 10, 30),
    });
    expect(await screen.findByText('Quarter-hour prices stored: 2')).toBeInTheDocument();
    expect(screen.getByText('From 2025-06-16 12:00 to 2025-06-16 12:30 (Polish time)')).toBeInTheDocument();
    expect(screen.getByText('Lines refused: 2')).toBeInTheDocument();
    const refused = document.querySelector('[data-rce-refused]') as HTMLElement;
    expect(
      within(refused)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['LineReason', '3the price is not a number (or beyond ±100,000)', '4the time does not read as YYYY-MM-DD HH:MM']);
    // The coverage is asked for again (the upload changed it).
    await waitFor(() => expect(api.get.mock.calls.length).toBeGreaterThan(1));
  });

  it('shows a refused file clearly: the line the server named and why', async () => {
    const user = userEvent.setup();
    api.get.mockResolvedValue(DAYS);
    renderCard(null);
    const input = (await waitFor(() => document.querySelector('[data-rce-upload] input[type="file"]'))) as HTMLInputElement;
    await user.upload(input, new File(['start_utc,rce_pln\n2025-06-15 09:00,abc'], 'bad.csv', { type: 'text/csv' }));
    api.post.mockRejectedValueOnce(
      new ApiError('http', 400, 'csv: line 2: must be a CSV', [
        { field: 'csv', message: 'line 2: must be a CSV of RCE prices', key: 'prosumer.errors.csv' },
      ]),
    );
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The file was not stored');
    expect(alert).toHaveTextContent('Line 2: must be a CSV of RCE prices with columns dtime_utc (or start_utc) and rce_pln');
  });
});
