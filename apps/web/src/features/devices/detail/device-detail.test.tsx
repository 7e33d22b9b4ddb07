import type { Device } from '@phasewatch/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RealtimeProvider } from '@/features/realtime';
import { authStore } from '@/lib/auth-store';
import { fakeHubFactory } from '@/test/fake-hub';
import { renderUi } from '@/test/render';
import { DeviceDetail } from './device-detail';
import { deferDevicePrefetch } from './prefetch-loader';

// The rest of the page (range controls, charts, figures, toolbar) is a chunk of its own. Here it never
// arrives: whatever the page shows is what the heading's chunk shows by itself.
const bodyRequested = vi.fn();
vi.mock('./device-body', async () => {
  bodyRequested();
  await new Promise(() => {});
  return {};
});

const DEVICE = {
  id: 7,
  name: 'Garage meter',
  friendlyName: '',
  model: 'PW-3',
  typeCode: 13,
  typeName: 'Three-phase energy meter',
  status: 'online',
  weakSignal: false,
  lastSeen: '2026-03-01 10:00:00',
  limits: { warningLevel: null, criticalLevel: null },
} as unknown as Device;

afterEach(() => {
  vi.restoreAllMocks();
  bodyRequested.mockClear();
  authStore.purge();
});

function renderShell(path: string) {
  const { create } = fakeHubFactory();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderUi(
    <QueryClientProvider client={client}>
      <RealtimeProvider signedIn getToken={() => 't'} createClient={create}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/device-energy-details/:id" element={<DeviceDetail kind="energy" />} />
          </Routes>
        </MemoryRouter>
      </RealtimeProvider>
    </QueryClientProvider>,
  );
}

describe('device page heading', () => {
  it('shows the device as soon as it answers, while the rest of the page is still loading', async () => {
    authStore.setToken('t');
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = new URL(String(input));
      if (url.pathname === '/api/devices/7')
        return new Response(JSON.stringify(DEVICE), { headers: { 'content-type': 'application/json' } });
      return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } });
    });
    renderShell('/device-energy-details/7');
    expect(await screen.findByRole('heading', { name: 'Garage meter' })).toBeInTheDocument();
    expect(screen.getByText('PW-3 · Three-phase energy meter')).toBeInTheDocument();
    expect(screen.getByText('Online')).toBeInTheDocument();
    // The rest is asked for beside the device, and its places keep their size until it comes.
    await waitFor(() => expect(bodyRequested).toHaveBeenCalled());
    expect(document.querySelector('[data-toolbar-placeholder]')).not.toBeNull();
    expect(screen.getAllByRole('status', { name: 'Loading…' }).length).toBeGreaterThan(0);
    expect(document.querySelector('[data-charts]')).toBeNull();
  });

  it('starts the prefetch its route left to it once the heading has painted, and only once', async () => {
    authStore.setToken('t');
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      await new Promise((r) => setTimeout(r, 50));
      return new Response(JSON.stringify(DEVICE), { headers: { 'content-type': 'application/json' } });
    });
    const rest = vi.fn();
    const other = vi.fn();
    deferDevicePrefetch(8, other);
    deferDevicePrefetch(7, rest);
    renderShell('/device-energy-details/7');
    // Not while the device is on its way: the heading needs the device alone.
    await new Promise((r) => setTimeout(r, 20));
    expect(rest).not.toHaveBeenCalled();
    expect(await screen.findByRole('heading', { name: 'Garage meter' })).toBeInTheDocument();
    await waitFor(() => expect(rest).toHaveBeenCalledTimes(1));
    // Only the last page's prefetch is kept.
    expect(other).not.toHaveBeenCalled();
  });

  it('asks for no more than the device when the address names none', async () => {
    const asked: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      asked.push(new URL(String(input)).pathname);
      return new Response('{"message":"Not found"}', { status: 404, headers: { 'content-type': 'application/json' } });
    });
    renderShell('/device-energy-details/0');
    expect(await screen.findByRole('link', { name: 'Back to your devices' })).toBeInTheDocument();
    expect(asked).toEqual([]);
    expect(bodyRequested).not.toHaveBeenCalled();
  });
});
