import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { fakeHubFactory } from '@/test/fake-hub';
import { renderUi } from '@/test/render';
import { RealtimeProvider, type RealtimeProviderProps } from './realtime-provider';

function setup(props: Partial<RealtimeProviderProps> = {}) {
  const { hubs, create } = fakeHubFactory();
  const queryClient = new QueryClient();
  const ui = (p: Partial<RealtimeProviderProps>, children: ReactNode = null) => (
    <QueryClientProvider client={queryClient}>
      <RealtimeProvider signedIn getToken={() => 'tok'} createClient={create} {...props} {...p}>
        {children}
      </RealtimeProvider>
    </QueryClientProvider>
  );
  const view = renderUi(ui({}));
  return { hubs, rerender: (p: Partial<RealtimeProviderProps>) => view.rerender(ui(p)) };
}

describe('RealtimeProvider sessions', () => {
  it('keeps one connection while signed in, stops it on sign-out and opens a new one for the next user', async () => {
    const { hubs, rerender } = setup({ sessionKey: 1 });
    await waitFor(() => expect(hubs[0]?.status).toBe('connected'));
    rerender({ sessionKey: 1, getToken: () => 'refreshed' });
    expect(hubs).toHaveLength(1);

    rerender({ signedIn: false, sessionKey: null });
    expect(hubs[0]?.stopped).toBe(true);
    expect(hubs).toHaveLength(1);

    rerender({ signedIn: true, sessionKey: 2 });
    await waitFor(() => expect(hubs[1]?.status).toBe('connected'));
    rerender({ signedIn: true, sessionKey: 3 });
    expect(hubs[1]?.stopped).toBe(true);
    await waitFor(() => expect(hubs[2]?.status).toBe('connected'));
  });

  it('starts again a while after a failed start or a lost connection, not after sign-out', async () => {
    const { hubs, rerender } = setup({ restartDelayMs: 30 });
    const hub = hubs[0];
    if (!hub) throw new Error('no hub');
    await waitFor(() => expect(hub.status).toBe('connected'));

    hub.failStart = true;
    act(() => hub.lose());
    await waitFor(() => expect(hub.starts).toBeGreaterThanOrEqual(3));
    expect(hub.status).toBe('disconnected');
    hub.failStart = false;
    await waitFor(() => expect(hub.status).toBe('connected'));

    rerender({ signedIn: false, restartDelayMs: 30 });
    const starts = hub.starts;
    await new Promise((r) => setTimeout(r, 100));
    expect(hub.starts).toBe(starts);
    expect(hub.status).toBe('disconnected');
  });
});
