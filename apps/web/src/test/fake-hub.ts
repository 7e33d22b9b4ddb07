import type { HubConnectionStatus, HubEventMap, HubEventName } from '@phasewatch/shared';
import type { createHubClient, HubClient } from '@/features/realtime';

/** A hub client without a server: its start succeeds or fails on demand, and tests push events into it. */
export class FakeHub implements HubClient {
  status: HubConnectionStatus = 'disconnected';
  starts = 0;
  stopped = false;
  failStart = false;
  readonly watched: number[] = [];
  private readonly listeners = new Set<(s: HubConnectionStatus) => void>();
  private readonly handlers = new Map<string, Set<(p: never) => void>>();

  constructor(readonly getToken: () => string | Promise<string>) {}

  private set(s: HubConnectionStatus) {
    this.status = s;
    for (const l of this.listeners) l(s);
  }
  onStatus(listener: (s: HubConnectionStatus) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  async start() {
    this.starts++;
    this.set('connecting');
    await this.getToken();
    if (this.failStart) {
      this.set('disconnected');
      throw new Error('negotiate failed');
    }
    this.set('connected');
  }
  async stop() {
    this.stopped = true;
    this.set('disconnected');
  }
  /** The server closed the connection for good (the automatic reconnects gave up). */
  lose() {
    this.set('disconnected');
  }
  on<E extends HubEventName>(event: E, handler: (payload: HubEventMap[E]) => void) {
    const set = this.handlers.get(event) ?? new Set();
    set.add(handler as (p: never) => void);
    this.handlers.set(event, set);
    return () => set.delete(handler as (p: never) => void);
  }
  push<E extends HubEventName>(event: E, payload: HubEventMap[E]) {
    for (const h of this.handlers.get(event) ?? []) (h as (p: HubEventMap[E]) => void)(payload);
  }
  async invoke<T>(): Promise<T> {
    return undefined as T;
  }
  async send() {}
  watchDevice(deviceId: number) {
    this.watched.push(deviceId);
    return () => {
      const i = this.watched.indexOf(deviceId);
      if (i >= 0) this.watched.splice(i, 1);
    };
  }
}

/** A `createClient` for RealtimeProvider that records every hub it builds. */
export function fakeHubFactory() {
  const hubs: FakeHub[] = [];
  const create: typeof createHubClient = (opts) => {
    const hub = new FakeHub(opts.getToken);
    hubs.push(hub);
    return hub;
  };
  return { hubs, create };
}
