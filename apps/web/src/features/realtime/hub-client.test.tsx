import type { HubConnection } from '@microsoft/signalr';
import type { LiveMeasurement } from '@phasewatch/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderUi } from '@/test/render';
import { createHubClient } from './hub-client';
import { HubStatusIndicator } from './hub-status-indicator';
import { RealtimeProvider } from './realtime-provider';
import { useLiveMeasurements } from './use-live-measurements';

type Fn = (...args: unknown[]) => void;

/** Stands in for the official connection: the real one is exercised against the server in e2e/hub. */
class FakeConnection {
  readonly handlers = new Map<string, Fn[]>();
  readonly invoked: [string, unknown[]][] = [];
  private reconnecting: Fn[] = [];
  private reconnected: Fn[] = [];
  private closed: Fn[] = [];
  startGate: Promise<void> = Promise.resolve();
  tokens: string[] = [];
  constructor(
    readonly url: string,
    readonly getToken: () => string | Promise<string>,
  ) {}
  async start() {
    this.tokens.push(await this.getToken());
    await this.startGate;
  }
  async stop() {
    for (const c of this.closed) c();
  }
  on(e: string, h: Fn) {
    const key = e.toLowerCase();
    this.handlers.set(key, [...(this.handlers.get(key) ?? []), h]);
  }
  off(e: string, h: Fn) {
    const key = e.toLowerCase();
    this.handlers.set(
      key,
      (this.handlers.get(key) ?? []).filter((x) => x !== h),
    );
  }
  async invoke(method: string, ...args: unknown[]) {
    this.invoked.push([method, args]);
    return true;
  }
  async send(method: string, ...args: unknown[]) {
    this.invoked.push([method, args]);
  }
  onreconnecting(c: Fn) {
    this.reconnecting.push(c);
  }
  onreconnected(c: Fn) {
    this.reconnected.push(c);
  }
  onclose(c: Fn) {
    this.closed.push(c);
  }
  push(event: string, payload: unknown) {
    for (const h of this.handlers.get(event.toLowerCase()) ?? []) h(payload);
  }
  dropAndReconnect() {
    for (const c of this.reconnecting) c();
    for (const c of this.reconnected) c('new-id');
  }
}

function fakeClient(token = 't1') {
  let fake: FakeConnection | null = null;
  const client = createHubClient({
    baseUrl: 'http://host/',
    getToken: () => token,
    connect: (url, getToken) => {
      fake = new FakeConnection(url, getToken);
      return fake as unknown as HubConnection;
    },
  });
  if (!fake) throw new Error('not built');
  return { client, fake: fake as FakeConnection };
}

describe('createHubClient', () => {
  it('connects to the hub path with the token and shows connected after start and reconnect', async () => {
    const { client, fake } = fakeClient();
    const seen: string[] = [];
    client.onStatus((s) => seen.push(s));
    expect(client.status).toBe('disconnected');
    await client.start();
    expect(fake.url).toBe('http://host/hubs/dashboardHub');
    expect(fake.tokens).toEqual(['t1']);
    fake.dropAndReconnect();
    expect(client.status).toBe('connected');
    await client.stop();
    expect(seen).toEqual(['connecting', 'connected', 'reconnecting', 'connected', 'disconnected']);
  });

  it('queues handlers registered before connecting and flushes them on connect', async () => {
    const { client, fake } = fakeClient();
    const got: LiveMeasurement[] = [];
    client.on('liveMeasurement', (m) => got.push(m));
    expect(fake.handlers.size).toBe(0);
    await client.start();
    fake.push('liveMeasurement', { deviceId: 1, ts: 1, values: {} });
    expect(got).toHaveLength(1);
  });

  it('rebuilds subscriptions after a reconnect and unsubscribes the last watcher', async () => {
    const { client, fake } = fakeClient();
    const unwatchA = client.watchDevice(5);
    const unwatchB = client.watchDevice(5);
    await client.start();
    expect(fake.invoked).toEqual([['SubscribeDevice', [5]]]);
    fake.dropAndReconnect();
    expect(fake.invoked).toEqual([
      ['SubscribeDevice', [5]],
      ['SubscribeDevice', [5]],
    ]);
    unwatchA();
    unwatchB();
    unwatchB();
    expect(fake.invoked.at(-1)).toEqual(['UnsubscribeDevice', [5]]);
    expect(fake.invoked).toHaveLength(3);
  });
});

function LiveValue({ deviceId }: { deviceId: number }) {
  const { latest } = useLiveMeasurements(deviceId);
  return <span data-testid="value">{latest ? String(latest.values.P) : '-'}</span>;
}

describe('RealtimeProvider', () => {
  it('writes pushed readings into the query cache for the page and shows the status', async () => {
    let fake: FakeConnection | null = null;
    const queryClient = new QueryClient();
    const create: typeof createHubClient = (opts) =>
      createHubClient({
        ...opts,
        connect: (url, getToken) => {
          fake = new FakeConnection(url, getToken);
          return fake as unknown as HubConnection;
        },
      });
    renderUi(
      <QueryClientProvider client={queryClient}>
        <RealtimeProvider signedIn getToken={() => 'tok'} createClient={create}>
          <HubStatusIndicator />
          <LiveValue deviceId={9} />
        </RealtimeProvider>
      </QueryClientProvider>,
    );
    // The label is translated by the catalogue; the state is on the element either way.
    await waitFor(() => expect(document.querySelector('[data-status]')?.getAttribute('data-status')).toBe('connected'));
    const conn = fake as FakeConnection | null;
    expect(conn?.invoked).toContainEqual(['SubscribeDevice', [9]]);
    expect(screen.getByTestId('value').textContent).toBe('-');
    act(() => conn?.push('liveMeasurement', { deviceId: 9, ts: 1, values: { P: 42 } }));
    expect(await screen.findByText('42')).toBeInTheDocument();
    act(() => conn?.push('liveMeasurement', { deviceId: 9, ts: 2, values: { P: 43 } }));
    expect(await screen.findByText('43')).toBeInTheDocument();
    expect(queryClient.getQueryData(['realtime', 'live', 9])).toMatchObject({ latest: { ts: 2 }, recent: [{ ts: 1 }, { ts: 2 }] });
  });
});
