import type { DeviceListItem } from '@phasewatch/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RealtimeProvider } from '@/features/realtime';
import { setLanguage } from '@/i18n';
import { fakeHubFactory } from '@/test/fake-hub';
import { renderUi } from '@/test/render';
import { DeviceList } from './device-list';

const device = (id: number, name: string, typeCode: number): DeviceListItem => ({
  id,
  name,
  friendlyName: '',
  mac: `02:00:00:00:00:0${id}`,
  model: 'PW',
  typeCode,
  typeName: '',
  status: 'offline',
  weakSignal: false,
  lastSeen: null,
  location: null,
  tariff: null,
  role: 'submeter',
  roleSet: false,
  totalEnergyKwh: 0,
  latestReading: null,
});

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname}</output>;
}

/** The list with a real query cache and realtime provider over a fake hub. */
function renderList(queryClient: QueryClient, create: ReturnType<typeof fakeHubFactory>['create']) {
  renderUi(
    <QueryClientProvider client={queryClient}>
      <RealtimeProvider signedIn getToken={() => 't'} createClient={create}>
        <MemoryRouter initialEntries={['/dashboard']}>
          <Routes>
            <Route path="/dashboard" element={<DeviceList />} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </RealtimeProvider>
    </QueryClientProvider>,
  );
}

const listClient = (devices: DeviceListItem[]) => {
  const qc = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } } });
  qc.setQueryData(['devices'], devices);
  return qc;
};

/** matchMedia answering as a phone (below 576 px) does. */
function asPhone() {
  return vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: query.includes('max-width'),
        media: query,
        onchange: null,
        addListener: vi.fn(),
        removeListener: vi.fn(),
        addEventListener: vi.fn(),
        removeEventListener: vi.fn(),
        dispatchEvent: vi.fn(),
      }) as unknown as MediaQueryList,
  );
}

afterEach(async () => {
  vi.restoreAllMocks();
  window.sessionStorage.clear();
  await setLanguage('en');
});

// Rendering the list with Mantine and a realtime provider takes seconds on a loaded 2-core machine.
vi.setConfig({ testTimeout: 20_000 });

describe('DeviceList live values', () => {
  it('watches the listed devices and shows pushed values and statuses without refetching', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } } });
    queryClient.setQueryData(['devices'], [device(1, 'Meter', 13), device(2, 'Heating', 17), device(3, 'Flat', 20)]);
    const { hubs, create } = fakeHubFactory();
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    renderList(queryClient, create);
    const hub = hubs[0];
    if (!hub) throw new Error('no hub');
    await waitFor(() => expect([...hub.watched].sort()).toEqual([1, 2, 3]));
    const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });
    const value = (id: number) => document.querySelector(`[data-live-value="${id}"]`)?.textContent;
    expect(value(1)).toBe('—');

    act(() => hub.push('liveMeasurement', { deviceId: 1, ts: 1, values: { pave1: 100, pave2: 200, pave3: 300 } }));
    act(() => hub.push('liveMeasurement', { deviceId: 2, ts: 1, values: { tempmain: 20.5 } }));
    act(() => hub.push('liveMeasurement', { deviceId: 3, ts: 1, values: { pave1: 1500 } }));
    await waitFor(() => expect(value(1)).toBe('600 W'));
    await waitFor(() => expect(value(2)).toBe('20.5 °C'));
    await waitFor(() => expect(value(3)).toBe('1,500 W'));
    act(() => hub.push('liveMeasurement', { deviceId: 1, ts: 2, values: { power3phases: 12_345 } }));
    await waitFor(() => expect(value(1)).toBe('12.35 kW'));

    expect(within(row('Meter')).getByText('Offline')).toBeInTheDocument();
    act(() => hub.push('deviceStatus', { deviceId: 1, status: 'online', weakSignal: true }));
    expect(await within(row('Meter')).findByText('Online')).toBeInTheDocument();
    expect(within(row('Meter')).getByLabelText('Weak signal')).toBeInTheDocument();
    expect(within(row('Heating')).getByText('Offline')).toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });

  it("shows a device's last stored reading from the list answer (no request per row) until the hub pushes a newer one", async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } } });
    const at = Date.UTC(2026, 10, 26, 10);
    const stored = { ts: at, values: { pave1: 100, pave2: 200, pave3: 300 } };
    queryClient.setQueryData(
      ['devices'],
      [{ ...device(1, 'Meter', 13), status: 'online', lastSeen: '2026-11-26 10:00:00', latestReading: stored }],
    );
    const { hubs, create } = fakeHubFactory();
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    renderList(queryClient, create);
    const value = () => document.querySelector('[data-live-value="1"]')?.textContent;
    await waitFor(() => expect(value()).toBe('600 W'));
    expect(fetchSpy).not.toHaveBeenCalled();
    const hub = hubs[0];
    if (!hub) throw new Error('no hub');
    // An older push (a late reading) does not replace the newer stored one.
    act(() => hub.push('liveMeasurement', { deviceId: 1, ts: at - 10_000, values: { power3phases: 1 } }));
    act(() => hub.push('liveMeasurement', { deviceId: 1, ts: at + 10_000, values: { power3phases: 750 } }));
    await waitFor(() => expect(value()).toBe('750 W'));
    fetchSpy.mockRestore();
  });
});

describe('DeviceList rows and cards', () => {
  it('opens the device from anywhere on its row, and with Enter on the focused row', async () => {
    const user = userEvent.setup();
    const { create } = fakeHubFactory();
    renderList(listClient([device(4, 'Boiler', 17), device(5, 'Grid', 13)]), create);
    await user.click(screen.getByRole('row', { name: /Boiler/ }).querySelectorAll('td')[6] as HTMLElement);
    expect(await screen.findByTestId('where')).toHaveTextContent('/thermo-device-details/4');
  });

  it('opens the device with the keyboard', async () => {
    const user = userEvent.setup();
    const { create } = fakeHubFactory();
    renderList(listClient([device(5, 'Grid', 13)]), create);
    const row = screen.getByRole('row', { name: /Grid/ });
    row.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByTestId('where')).toHaveTextContent('/device-energy-details/5');
  });

  it('shows status and type names in the user language', async () => {
    await setLanguage('pl');
    const { create } = fakeHubFactory();
    renderList(listClient([{ ...device(1, 'Licznik', 13), typeName: 'Three-phase energy meter' }]), create);
    const row = screen.getByRole('row', { name: /Licznik/ });
    expect(within(row).getByText('Poza siecią')).toBeInTheDocument();
    expect(within(row).getByText('Trójfazowy licznik energii')).toBeInTheDocument();
    expect(within(row).queryByText('Three-phase energy meter')).not.toBeInTheDocument();
  });

  it('lists the devices as cards on a phone', async () => {
    asPhone();
    const { create } = fakeHubFactory();
    renderList(listClient([device(1, 'Meter', 13), device(2, 'Heating', 17)]), create);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(document.querySelectorAll('[data-device-card]')).toHaveLength(2);
  });

  it('leads a new user to add a device', async () => {
    const user = userEvent.setup();
    const { create } = fakeHubFactory();
    renderList(listClient([]), create);
    expect(screen.getByText('No devices yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add your first device' }));
    // The flow is its own chunk: it may take a moment to arrive.
    expect(await screen.findByRole('dialog', { name: 'Add device' }, { timeout: 10_000 })).toBeInTheDocument();
    // First how it gets its readings: a meter Phasewatch reads itself, or a device that sends (the default).
    for (const family of ['Fox ENERGY', 'Shelly', 'Tasmota'])
      expect(screen.getByRole('radio', { name: new RegExp(`^${family}`) })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: /^HTTP\/MQTT \(own device\)/ })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('textbox', { name: /^Name/ })).toBeInTheDocument();
  });

  it('tells an offline device as a toast once, not again when the list is refetched', async () => {
    const show = vi.spyOn(await import('@mantine/notifications').then((m) => m.notifications), 'show');
    const { create } = fakeHubFactory();
    const qc = listClient([{ ...device(1, 'Meter', 13), lastSeen: '2026-11-26 10:00:00' }]);
    renderList(qc, create);
    await waitFor(() => expect(show).toHaveBeenCalledTimes(1));
    expect(show.mock.calls[0]?.[0].message).toBe('The device Meter is offline');
    act(() => qc.setQueryData(['devices'], [{ ...device(1, 'Meter', 13), lastSeen: '2026-11-26 10:00:00', totalEnergyKwh: 1 }]));
    await screen.findByText('1.00 kWh');
    expect(show).toHaveBeenCalledTimes(1);
  });
});
