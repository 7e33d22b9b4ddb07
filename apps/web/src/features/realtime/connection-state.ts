import type { HubConnectionStatus } from '@phasewatch/shared';

/** What happens to a hub connection, as the official client reports it. */
export type HubLifecycleEvent = 'start' | 'started' | 'startFailed' | 'reconnecting' | 'reconnected' | 'closed' | 'stop';

/**
 * The connection states of spec section 4. The hub shows connected after a start or a reconnect, and
 * only then; a failed start or a final close leaves it disconnected.
 */
export function nextStatus(current: HubConnectionStatus, event: HubLifecycleEvent): HubConnectionStatus {
  switch (event) {
    case 'start':
      return current === 'connected' ? current : 'connecting';
    case 'started':
    case 'reconnected':
      return 'connected';
    case 'reconnecting':
      return 'reconnecting';
    case 'startFailed':
    case 'closed':
    case 'stop':
      return 'disconnected';
  }
}

export type Handler = (...args: never[]) => void;

/** Where queued handlers are registered once connected (the official client's `on`). */
export interface HandlerTarget {
  on(event: string, handler: Handler): void;
  off(event: string, handler: Handler): void;
}

/**
 * Handlers registered while not connected wait here and are flushed on connect and on reconnect
 * (spec section 4); while connected they go straight through.
 */
export class HandlerQueue {
  private readonly pending: { event: string; handler: Handler }[] = [];

  constructor(private readonly target: HandlerTarget) {}

  register(status: HubConnectionStatus, event: string, handler: Handler): void {
    if (status === 'connected') this.target.on(event, handler);
    else this.pending.push({ event, handler });
  }

  unregister(event: string, handler: Handler): void {
    const i = this.pending.findIndex((p) => p.event === event && p.handler === handler);
    if (i >= 0) this.pending.splice(i, 1);
    else this.target.off(event, handler);
  }

  /** Registers everything queued, in order; called after a start and after each reconnect. */
  flush(): number {
    const queued = this.pending.splice(0);
    for (const p of queued) this.target.on(p.event, p.handler);
    return queued.length;
  }

  get size(): number {
    return this.pending.length;
  }
}

/**
 * Device subscriptions, counted per device so several components can watch one device. They belong
 * to the server connection, which is new after every reconnect, so `all()` is invoked again then.
 */
export class SubscriptionRegistry {
  private readonly counts = new Map<number, number>();

  /** True when this is the first watcher (the hub must be told). */
  add(deviceId: number): boolean {
    const n = this.counts.get(deviceId) ?? 0;
    this.counts.set(deviceId, n + 1);
    return n === 0;
  }

  /** True when that was the last watcher (the hub may be told to stop). */
  remove(deviceId: number): boolean {
    const n = this.counts.get(deviceId) ?? 0;
    if (n <= 1) {
      this.counts.delete(deviceId);
      return n === 1;
    }
    this.counts.set(deviceId, n - 1);
    return false;
  }

  all(): number[] {
    return [...this.counts.keys()];
  }
}
