import { Notifications } from '@mantine/notifications';
import type { NotificationEvent, NotificationItem } from '@phasewatch/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { RealtimeProvider } from '@/features/realtime';
import { fakeHubFactory } from '@/test/fake-hub';
import { renderUi } from '@/test/render';
import { notificationKeys } from '../api/notification-keys';
import { NotificationBell } from './notification-bell';

function setup(unread: number) {
  const { hubs, create } = fakeHubFactory();
  const qc = new QueryClient();
  qc.setQueryData(notificationKeys.unread, { unread });
  const invalidate = vi.spyOn(qc, 'invalidateQueries');
  renderUi(
    <QueryClientProvider client={qc}>
      <MemoryRouter>
        <RealtimeProvider signedIn getToken={() => 'tok'} createClient={create}>
          <Notifications />
          <NotificationBell />
        </RealtimeProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { hubs, invalidate };
}

const event = (held: NotificationItem['held'], over: Partial<NotificationItem> = {}): NotificationEvent => ({
  id: 5,
  deviceId: 2,
  level: 'critical',
  message: 'notifications.kinds.limit_critical',
  ts: 0,
  item: {
    id: 5,
    deviceId: 2,
    deviceName: 'Garage',
    deviceTypeCode: 13,
    kind: 'limit_critical',
    level: 'critical',
    state: 'active',
    startedAt: '2026-11-27 10:00:00',
    endedAt: null,
    durationSeconds: 0,
    worstValue: 150,
    unit: 'V',
    phase: 1,
    threshold: 184,
    occurrences: 1,
    read: false,
    acknowledgedAt: null,
    held,
    sent: { push: false, email: false },
    ...over,
  },
});

describe('NotificationBell', () => {
  it('shows the unread count and leads to the notification centre', () => {
    setup(3);
    const bell = screen.getByRole('link', { name: 'Notifications, unread: 3' });
    expect(bell).toHaveAttribute('href', '/notifications');
    expect(bell).toHaveTextContent('3');
  });

  it('shows no number when everything is read', () => {
    setup(0);
    expect(screen.getByRole('link', { name: 'Notifications' })).toHaveTextContent('');
  });

  it('caps a large count', () => {
    setup(120);
    expect(screen.getByRole('link', { name: 'Notifications, unread: 120' })).toHaveTextContent('99+');
  });

  it('refreshes the count and lists on a hub event and shows a toast, but none for a held alarm', async () => {
    const { hubs, invalidate } = setup(0);
    await waitFor(() => expect(hubs[0]?.status).toBe('connected'));
    act(() => hubs[0]?.push('notification', event('quietHours')));
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['notifications'] });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText(/Critical level exceeded/)).toBeNull();
    act(() => hubs[0]?.push('notification', event(null)));
    expect(await screen.findByText('Critical level exceeded · Garage')).toBeInTheDocument();
    expect(screen.getByText('Phase 1 at 150 V, beyond the critical level (184 V)')).toBeInTheDocument();
  });

  it('shows the alarms of one reading of a device as one toast, the most serious first', async () => {
    const { hubs } = setup(0);
    await waitFor(() => expect(hubs[0]?.status).toBe('connected'));
    const drop = event(null, { id: 8, deviceId: 9, deviceName: 'Cellar', kind: 'voltage_drop', level: 'warning', threshold: 207 });
    const critical = event(null, { id: 9, deviceId: 9, deviceName: 'Cellar' });
    act(() => hubs[0]?.push('notification', drop));
    expect(await screen.findByText('Voltage drop · Cellar')).toBeInTheDocument();
    act(() => hubs[0]?.push('notification', critical));
    expect(await screen.findByText('Critical level exceeded · Cellar')).toBeInTheDocument();
    expect(screen.getByText('Phase 1 at 150 V, beyond the critical level (184 V) (and 1 more)')).toBeInTheDocument();
    expect(screen.queryByText('Voltage drop · Cellar')).toBeNull();
  });
});
