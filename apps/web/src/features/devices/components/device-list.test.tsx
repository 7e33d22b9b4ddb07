import type { DeviceListItem } from '@phasewatch/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { RealtimeProvider } from '@/features/realtime/realtime-provider';
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
  totalEnergyKwh: 0,
  latestReading: null,
});

/** The list with a real query cache and realtime provider over a fake hub. */
function renderList(queryClient: QueryClient, create: ReturnType<typeof fakeHubFactory>['create']) {
  renderUi(
    <QueryClientProvider client={queryClient}>
      <RealtimeProvider signedIn getToken={() => 't'} createClient={create}>
        <MemoryRouter>
          <DeviceList />
        </MemoryRouter>
      </RealtimeProvider>
    </QueryClientProvider>,
  );
}

describe('DeviceList live values', () => {
  it('watches the listed devices and shows pushed values and statuses without refetching', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } } });
    queryClient.setQueryData(['devices'], [device(1, 'Meter', 13), device(2, 'Heating', 17), device(3, 'Flat', 20)]);
    const { hubs, create } = fakeHubFactory();
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    renderList(queryClient, create);
    const hub = hubs[0];
    if (!hub) throw new Error('no hub');
    await waitFor(() => expect([...hub.watched].sort()).toEqual([1, 1, 2, 2, 3, 3]));
    const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });
    const value = (id: number) => document.querySelectorAll(`[data-live-value="${id}"]`)[1]?.textContent;
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
    const value = () => document.querySelectorAll('[data-live-value="1"]')[1]?.textContent;
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
