import type { Device, EnergyResponse, ReadingsResponse } from '@phasewatch/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { loadDevicePrefetch } from '@/features/devices';
import { RealtimeProvider } from '@/features/realtime';
import { authStore } from '@/lib/auth-store';
import { devicesQueryOptions } from '@/lib/devices-query';
import { fakeHubFactory } from '@/test/fake-hub';
import { renderUi } from '@/test/render';
import { EnergyDeviceDetailsPage, ThermoDeviceDetailsPage } from './device-details';

// The prefetch is a chunk of the devices feature, reached as the router reaches it.
const { prefetchDevicePage } = await loadDevicePrefetch();

// jsdom has no canvas: the uPlot drawing is left to the browser tests (e2e/web/device-details.test.ts).
vi.mock('@/features/charts/components/uplot-chart', () => ({
  default: (p: { spec: { id: string }; data: { ts: number[] } }) => <div data-testid={`chart-${p.spec.id}`}>{p.data.ts.length}</div>,
}));

const DEVICE = {
  id: 5,
  name: 'Main meter',
  friendlyName: '',
  mac: '02:00:00:00:00:05',
  model: 'PW-3',
  typeCode: 13,
  typeName: 'Three-phase energy meter',
  status: 'offline',
  weakSignal: false,
  lastSeen: '2026-03-01 10:00:00',
  location: null,
  tariff: null,
  totalEnergyKwh: 12,
  registeredAt: '2026-01-01 00:00:00',
  modifiedAt: '2026-01-01 00:00:00',
  billingStartDate: '2026-01-01',
  billingPeriodMonths: 1,
  reportingIntervalSeconds: 5,
  rssi: -60,
  limits: { warningLevel: 10, criticalLevel: 20 },
  meterValueKwh: 10,
  notifications: {
    pushEnabled: false,
    emailEnabled: false,
    voltageDropThreshold: 10,
    voltageRiseThreshold: 10,
    totalConsumptionThreshold: null,
    disableAtNight: true,
    notificationIntervalMinutes: 60,
    muteAll: false,
  },
} as Device;

const span = (energyKwh: number) => ({ from: 0, to: 1, energyKwh });
const ENERGY: EnergyResponse = {
  timezone: 'Europe/Warsaw',
  source: 'energy3phases_import',
  meterValueKwh: 10,
  measuredTotalKwh: 2,
  today: span(0.5),
  month: span(1.25),
  year: span(2),
  total: 12,
  billingPeriod: span(1.25),
};
const SEEN = Date.UTC(2026, 2, 1, 10);
const READINGS: ReadingsResponse = {
  interval: 'raw',
  from: 0,
  to: 0,
  timezone: 'UTC',
  ts: [SEEN - 10_000, SEEN],
  series: {
    power3phases: { kind: 'raw', unit: 'W', values: [500, 750] },
    vave1: { kind: 'raw', unit: 'V', values: [230, 231.5] },
  },
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function mockApi(routes: Record<string, () => Response>) {
  const seen: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input));
    seen.push(`${url.pathname}${url.search}`);
    const handler = routes[url.pathname];
    return handler ? handler() : json({ message: 'Not found' }, 404);
  });
  return seen;
}

function renderPage(path: string, queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })) {
  const { hubs, create } = fakeHubFactory();
  renderUi(
    <QueryClientProvider client={queryClient}>
      <RealtimeProvider signedIn getToken={() => 't'} createClient={create}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/device-energy-details/:id" element={<EnergyDeviceDetailsPage />} />
            <Route path="/thermo-device-details/:id" element={<ThermoDeviceDetailsPage />} />
          </Routes>
        </MemoryRouter>
      </RealtimeProvider>
    </QueryClientProvider>,
  );
  return hubs;
}

afterEach(() => {
  vi.restoreAllMocks();
  authStore.purge();
});

// A whole detail page (cards, controls, a dozen charts) renders slowly in jsdom on a busy machine.
describe('device detail pages', { timeout: 30_000 }, () => {
  it('shows the last reading, then each pushed one, and the energy figures', async () => {
    const seen = mockApi({
      '/api/devices/5': () => json(DEVICE),
      '/api/devices/5/energy': () => json(ENERGY),
      '/api/devices/5/readings': () => json(READINGS),
    });
    const hubs = renderPage('/device-energy-details/5');
    const headline = () => document.querySelector('[data-live-headline]')?.textContent;
    // The whole page (cards, controls, charts) renders first: jsdom needs a moment.
    await waitFor(() => expect(headline()).toBe('750 W'), { timeout: 15_000 });
    expect(screen.getByText('231.5 V')).toBeInTheDocument();
    expect(screen.getByText('Voltage L1')).toBeInTheDocument();
    // This month and the current billing period.
    expect(await screen.findAllByText('1.25 kWh')).toHaveLength(2);
    expect(screen.getByText('12.00 kWh')).toBeInTheDocument();
    expect(screen.getByText('Including the meter value of 10.00 kWh')).toBeInTheDocument();
    // Two quarter-hours of power are not a week: the "always on" figure says what it rests on.
    await waitFor(() =>
      expect(document.querySelector('[data-base-load-partial]')?.textContent).toBe(
        'Based on the readings so far: 30 minutes (the full figure takes a week).',
      ),
    );
    const readings = seen.find((u) => u.startsWith('/api/devices/5/readings') && u.includes('interval=raw'));
    expect(readings).toContain(`to=${SEEN + 1000}`);
    expect(readings).toContain('interval=raw');

    // Every chart has its readings (they load beside the device)…
    await waitFor(
      () => {
        const charts = [...document.querySelectorAll('[data-chart]')];
        expect(charts.length).toBeGreaterThan(0);
        expect(charts.every((c) => c.getAttribute('data-range') && !c.hasAttribute('data-loading'))).toBe(true);
      },
      { timeout: 15_000 },
    );
    // …then an older pushed reading does not replace the loaded one; a newer one does, without a fetch.
    const hub = hubs[0];
    const fetches = seen.length;
    act(() => hub?.push('liveMeasurement', { deviceId: 5, ts: SEEN - 1, values: { power3phases: 1 } }));
    act(() => hub?.push('liveMeasurement', { deviceId: 5, ts: SEEN + 5000, values: { power3phases: 1800, vave1: 229 } }));
    await waitFor(() => expect(headline()).toBe('1,800 W'));
    expect(screen.getByText('229 V')).toBeInTheDocument();
    act(() => hub?.push('deviceStatus', { deviceId: 5, status: 'online', weakSignal: false }));
    expect(await screen.findByText('Online')).toBeInTheDocument();
    expect(seen).toHaveLength(fetches);
  });

  it('says when there is no reading yet and when the energy fails, with a retry', async () => {
    let energyOk = false;
    mockApi({
      '/api/devices/5': () => json({ ...DEVICE, lastSeen: null }),
      '/api/devices/5/energy': () => (energyOk ? json(ENERGY) : json({ message: 'boom' }, 400)),
    });
    renderPage('/device-energy-details/5');
    expect(await screen.findByText(/No reading yet/, {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(await screen.findByText('The energy figures could not be loaded.')).toBeInTheDocument();
    energyOk = true;
    const card = document.querySelector('[data-energy-card]') as HTMLElement;
    act(() => within(card).getByRole('button', { name: 'Retry' }).click());
    expect(await screen.findByText('12.00 kWh')).toBeInTheDocument();
  });

  it("tells a missing or someone else's device apart with one request and a way back", async () => {
    const seen = mockApi({});
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    authStore.setToken('t');
    // As the route's loader does, then the page itself.
    prefetchDevicePage(queryClient, 'energy', 77, new URLSearchParams());
    renderPage('/device-energy-details/77', queryClient);
    expect(await screen.findByText('This device does not exist or belongs to someone else.')).toBeInTheDocument();
    expect(screen.getByText('Seems there is nothing here')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to your devices' })).toHaveAttribute('href', '/dashboard');
    await new Promise((r) => setTimeout(r, 300));
    // Nothing but the device: no energy, no readings, no chart.
    expect(seen).toEqual(['/api/devices/77']);
  });

  it('asks for a device of a typed address first, and for its data once it exists', async () => {
    const seen = mockApi({
      '/api/devices/5': () => json(DEVICE),
      '/api/devices/5/energy': () => json(ENERGY),
      '/api/devices/5/readings': () => json(READINGS),
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    authStore.setToken('t');
    prefetchDevicePage(queryClient, 'energy', 5, new URLSearchParams());
    expect(seen).toEqual(['/api/devices/5']);
    await waitFor(() => expect(seen).toContain('/api/devices/5/energy'));
    // The device's last reading was a while ago (March): the charts open on the 24 hours up to it.
    // The first chart's request (the "always on" card asks for the week before now).
    const day = seen
      .filter((u) => u.includes('interval=15m'))
      .map((u) => new URL(u, 'http://x').searchParams)
      .filter((q) => Number(q.get('to')) - Number(q.get('from')) === 86_400_000);
    expect(day).toHaveLength(1);
    expect(Number(day[0]?.get('to'))).toBe(SEEN + 3_600_000);
  });

  it("starts the page's first requests before it renders, and the page asks nothing twice", async () => {
    const seen = mockApi({
      '/api/devices/5': () => json(DEVICE),
      '/api/devices/5/energy': () => json(ENERGY),
      '/api/devices/5/readings': () => json(READINGS),
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const search = 'from=2025-03-01&to=2026-02-28';
    // Signed out: nothing is asked (the page sends the user to sign in).
    prefetchDevicePage(queryClient, 'energy', 5, new URLSearchParams(search));
    expect(seen).toEqual([]);

    authStore.setToken('t');
    // Coming from the dashboard: its list names the device, so its data is asked beside it.
    queryClient.setQueryData(devicesQueryOptions().queryKey, [DEVICE]);
    // A wide screen (the lg breakpoint, 75em): the first screen holds the first two charts.
    const original = window.matchMedia;
    window.matchMedia = (q: string) =>
      ({ matches: q === '(min-width: 75em)', media: q, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList;
    onTestFinished(() => {
      window.matchMedia = original;
    });
    prefetchDevicePage(queryClient, 'energy', 5, new URLSearchParams(search));
    const early = [...seen];
    // The device, its energy figures, the "always on" card's week of 15-minute power, and the first
    // screen's two charts (power, voltage) in one request.
    expect(early.slice(0, 2)).toEqual(['/api/devices/5', '/api/devices/5/energy']);
    const asked = early.slice(2).map((u) => new URL(u, 'http://x').searchParams);
    expect(asked.map((q) => [q.get('interval'), q.get('params')])).toEqual([
      ['15m', 'power3phases,pave1,pave2,pave3'],
      ['24h', 'power3phases,pave1,pave2,pave3,vave1,vave2,vave3'],
    ]);
    // Once the device has answered, its last reading (the live values card) is asked, still before the page renders.
    await waitFor(() => expect(seen.filter((u) => u.includes('interval=raw'))).toHaveLength(1));
    const prefetched = [...seen];

    renderPage(`/device-energy-details/5?${search}`, queryClient);
    await waitFor(
      () => {
        const charts = [...document.querySelectorAll('[data-chart]')];
        expect(charts.length).toBeGreaterThan(2);
        expect(charts.every((c) => c.getAttribute('data-range') && !c.hasAttribute('data-loading'))).toBe(true);
      },
      { timeout: 15_000 },
    );
    // The page found the prefetched answers: every URL was asked for once, the early ones among them.
    expect(seen.filter((u, i) => seen.indexOf(u) !== i)).toEqual([]);
    expect(seen.slice(0, prefetched.length)).toEqual(prefetched);
    expect(seen.filter((u) => u.includes('interval=24h')).length).toBeGreaterThan(1);
    // The power and voltage charts drew from their share of the one answer (no request of their own).
    expect(seen.filter((u) => u.includes('params=vave1%2Cvave2%2Cvave3&') || u.endsWith('params=vave1%2Cvave2%2Cvave3'))).toEqual([]);
    expect(document.querySelector('[data-chart="voltage"]')?.getAttribute('data-last-value')).toBe(`${SEEN}:231.5`);
  });
});
