import { describe, expect, it } from 'vitest';
import { type Handler, HandlerQueue, nextStatus, SubscriptionRegistry } from './connection-state';

describe('nextStatus', () => {
  it('walks the states of spec section 4', () => {
    expect(nextStatus('disconnected', 'start')).toBe('connecting');
    expect(nextStatus('connecting', 'started')).toBe('connected');
    expect(nextStatus('connected', 'reconnecting')).toBe('reconnecting');
    expect(nextStatus('reconnecting', 'reconnected')).toBe('connected');
    expect(nextStatus('reconnecting', 'closed')).toBe('disconnected');
    expect(nextStatus('connecting', 'startFailed')).toBe('disconnected');
    expect(nextStatus('connected', 'stop')).toBe('disconnected');
    expect(nextStatus('connected', 'start')).toBe('connected');
  });
});

describe('HandlerQueue', () => {
  const target = () => {
    const on: [string, Handler][] = [];
    const off: [string, Handler][] = [];
    return { on, off, t: { on: (e: string, h: Handler) => on.push([e, h]), off: (e: string, h: Handler) => off.push([e, h]) } };
  };

  it('queues handlers until connected and flushes them in order', () => {
    const { on, t } = target();
    const q = new HandlerQueue(t);
    const h1 = () => {};
    const h2 = () => {};
    q.register('connecting', 'a', h1);
    q.register('reconnecting', 'b', h2);
    expect(on).toEqual([]);
    expect(q.size).toBe(2);
    expect(q.flush()).toBe(2);
    expect(on).toEqual([
      ['a', h1],
      ['b', h2],
    ]);
    expect(q.flush()).toBe(0);
  });

  it('registers at once while connected and removes queued or registered handlers', () => {
    const { on, off, t } = target();
    const q = new HandlerQueue(t);
    const h = () => {};
    q.register('connected', 'a', h);
    expect(on).toEqual([['a', h]]);
    q.unregister('a', h);
    expect(off).toEqual([['a', h]]);
    q.register('disconnected', 'b', h);
    q.unregister('b', h);
    expect(q.flush()).toBe(0);
    expect(off).toHaveLength(1);
  });
});

describe('SubscriptionRegistry', () => {
  it('counts watchers per device', () => {
    const r = new SubscriptionRegistry();
    expect(r.add(1)).toBe(true);
    expect(r.add(1)).toBe(false);
    expect(r.add(2)).toBe(true);
    expect(r.all().sort()).toEqual([1, 2]);
    expect(r.remove(1)).toBe(false);
    expect(r.remove(1)).toBe(true);
    expect(r.remove(1)).toBe(false);
    expect(r.all()).toEqual([2]);
  });
});
