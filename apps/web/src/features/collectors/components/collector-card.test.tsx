import type { CollectorStatus } from '@phasewatch/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '@/i18n';
import { renderUi } from '@/test/render';
import { CollectorCard } from './collector-card';

const api = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn() }));
vi.mock('@/lib/api', () => ({ apiClient: api }));

const retrying: CollectorStatus = {
  kind: 'fox-energy',
  address: 'http://192.168.1.20',
  pollSeconds: 5,
  hasKey: true,
  state: 'retrying',
  lastSuccessAt: '2026-11-27 10:00:00',
  lastError: '192.168.1.20:80 did not answer (EHOSTUNREACH)',
  lastErrorKey: 'unreachable',
  lastErrorAt: '2026-11-27 10:00:10',
  failures: 3,
  nextAttemptAt: '2026-11-27 10:01:00',
};

function renderCard() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderUi(
    <QueryClientProvider client={qc}>
      <CollectorCard deviceId={7} />
    </QueryClientProvider>,
  );
}

afterEach(async () => {
  vi.clearAllMocks();
  await setLanguage('en');
});

describe('CollectorCard', () => {
  it('says why reading fails, in words and with the technical reason, in the user language', async () => {
    api.get.mockResolvedValue(retrying);
    renderCard();
    expect(await screen.findByText('The device does not answer at this address.')).toBeInTheDocument();
    expect(screen.getByText('Retrying')).toBeInTheDocument();
    expect(screen.getByText(/EHOSTUNREACH/)).toBeInTheDocument();
    expect(screen.getByText(/failed 3× in a row/)).toBeInTheDocument();
    expect(api.get).toHaveBeenCalledWith('devices/7/collector', expect.objectContaining({ notFoundRedirect: false }));
    await setLanguage('pl');
    expect(await screen.findByText('Urządzenie nie odpowiada pod tym adresem.')).toBeInTheDocument();
    expect(screen.getByText('Ponawianie')).toBeInTheDocument();
  });

  it('shows nothing for a device that sends by itself (404), and no 404 page', async () => {
    api.get.mockRejectedValue(Object.assign(new Error('Not found'), { status: 404 }));
    renderCard();
    await waitFor(() => expect(api.get).toHaveBeenCalled());
    expect(screen.queryByTestId('collector-card')).toBeNull();
  });

  it('tests new settings with the stored key before saving them, and saves nothing the device refuses', async () => {
    const user = userEvent.setup();
    api.get.mockResolvedValue(retrying);
    renderCard();
    await user.click(await screen.findByRole('button', { name: 'Change' }));
    const address = screen.getByRole('textbox', { name: /^Device address/ });
    await user.clear(address);
    await user.type(address, 'http://192.168.1.44');
    api.post.mockResolvedValueOnce({ ok: false, error: 'no answer within 4000 ms', errorKey: 'timeout' });
    await user.click(screen.getByRole('button', { name: 'Test and save' }));
    expect(await screen.findByText('The device did not answer in time.')).toBeInTheDocument();
    // The key was left empty: the stored one is used, never sent back.
    expect(api.post).toHaveBeenCalledWith('devices/7/collector/test', { address: 'http://192.168.1.44' });
    expect(api.put).not.toHaveBeenCalled();

    api.post.mockResolvedValueOnce({ ok: true, kind: 'fox-energy', model: 'Wi-MEF-3' });
    api.put.mockResolvedValueOnce({ ...retrying, address: 'http://192.168.1.44', state: 'polling', lastErrorKey: null, lastError: null });
    await user.click(screen.getByRole('button', { name: 'Test and save' }));
    await waitFor(() =>
      expect(api.put).toHaveBeenCalledWith('devices/7/collector', { kind: 'fox-energy', address: 'http://192.168.1.44', pollSeconds: 5 }),
    );
    expect(await screen.findByText('Polling')).toBeInTheDocument();
    expect(screen.queryByTestId('collector-settings')).toBeNull();
  });
});
