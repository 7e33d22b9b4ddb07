import type { ConsumptionResponse, DeviceListItem } from '@phasewatch/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '@/i18n';
import { renderUi } from '@/test/render';
import { ConsumptionPanel } from './consumption-panel';

const api = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn() }));
vi.mock('@/lib/api', () => ({ apiClient: api }));

/** The list rows the panel reads (id, name, role); the rest of a list item is not used here. */
const DEVICES = [
  { id: 1, name: 'Main meter', role: 'grid' },
  { id: 2, name: 'Rooftop PV', role: 'production' },
  { id: 3, name: 'Heat pump', role: 'submeter' },
] as unknown as DeviceListItem[];

const DAY = 86_400_000;
const ANSWER: ConsumptionResponse = {
  interval: '24h',
  timezone: 'Europe/Warsaw',
  unit: 'kWh',
  from: Date.UTC(2026, 10, 20, 23),
  to: Date.UTC(2026, 10, 27, 23),
  devices: [
    { id: 1, name: 'Main meter', total: 10, inTotal: true },
    { id: 2, name: 'Rooftop PV', total: 6, inTotal: false },
    { id: 3, name: 'Heat pump', total: 4, inTotal: false },
  ],
  total: 10,
  rows: [{ start: Date.UTC(2026, 10, 20, 23), end: Date.UTC(2026, 10, 20, 23) + DAY, values: [10, 6, 4], total: 10 }],
  page: 1,
  pageSize: 25,
  totalRows: 1,
};

function renderPanel() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return renderUi(
    <QueryClientProvider client={qc}>
      <ConsumptionPanel devices={DEVICES} timezone="Europe/Warsaw" />
    </QueryClientProvider>,
  );
}

afterEach(async () => {
  vi.clearAllMocks();
  await setLanguage('en');
});

describe('ConsumptionPanel: what the Total adds', () => {
  it('shows each device’s role, marks production and sub-meters “not in total”, and the caption says what Total adds', async () => {
    api.get.mockResolvedValue(ANSWER);
    renderPanel();
    const table = (await screen.findByRole('table')) as HTMLElement;
    const notes = [...table.querySelectorAll('[data-device-role]')].map((n) => [n.getAttribute('data-in-total'), n.textContent]);
    expect(notes).toEqual([
      ['true', 'grid meter'],
      ['false', 'production (PV) · not in total'],
      ['false', 'sub-meter · not in total'],
    ]);
    // The sort buttons keep the devices' names as their names.
    expect(within(table).getByRole('button', { name: 'Rooftop PV' })).toBeInTheDocument();
    const caption = table.querySelector('[data-total-caption]') as HTMLElement;
    expect(caption).toHaveTextContent('Total adds: Main meter.');
    expect(caption).toHaveTextContent(
      'Shown but not added (measured by the grid meter already, or produced): Rooftop PV (production (PV)), Heat pump (sub-meter).',
    );
    // The footer: the total is the grid meter's 10 kWh, not 20.
    const foot = table.querySelector('tfoot') as HTMLElement;
    expect(
      within(foot)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Sum', '10 kWh', '6 kWh', '4 kWh', '10 kWh']);

    await setLanguage('pl');
    expect(await within(table).findByText('Razem sumuje: Main meter.', { exact: false })).toBeInTheDocument();
    expect(within(table).getByText('podlicznik · poza sumą')).toBeInTheDocument();
  });

  it('says Total adds every device when all count', async () => {
    api.get.mockResolvedValue({
      ...ANSWER,
      devices: ANSWER.devices.map((d) => ({ ...d, inTotal: true })),
      total: 20,
    });
    renderPanel();
    const table = (await screen.findByRole('table')) as HTMLElement;
    expect(table.querySelector('[data-total-caption]')).toHaveTextContent('Total adds: Main meter, Rooftop PV, Heat pump.');
    expect(table.querySelector('[data-total-caption]')).not.toHaveTextContent('not added');
    expect(table.querySelectorAll('[data-in-total="false"]')).toHaveLength(0);
  });
});
