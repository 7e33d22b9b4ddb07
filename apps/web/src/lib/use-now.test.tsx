import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNow } from './use-now';

function Age({ period, onRender }: { period: number; onRender(now: number): void }) {
  const now = useNow(period);
  onRender(now);
  return <span>{now}</span>;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('useNow', () => {
  it('settles after mounting even when the clock moves on between every call (no update loop)', () => {
    // A clock that is a millisecond later at every look: a subscription that reads the time (the old
    // hook did, and React resubscribed at each render) made the component render without end.
    let t = 1_800_000_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => t++);
    const renders: number[] = [];
    const { unmount } = render(<Age period={7_001} onRender={(n) => renders.push(n)} />);
    expect(renders.length).toBeLessThanOrEqual(3);
    unmount();
  });

  it('ticks once a period for every component of that period, and stops when nobody shows it', () => {
    vi.useFakeTimers();
    const a: number[] = [];
    const b: number[] = [];
    const one = render(<Age period={1_000} onRender={(n) => a.push(n)} />);
    const two = render(<Age period={1_000} onRender={(n) => b.push(n)} />);
    const before = [a.length, b.length];
    for (let i = 0; i < 3; i++) {
      act(() => {
        vi.advanceTimersByTime(1_000);
      });
    }
    expect(a.length - (before[0] ?? 0)).toBe(3);
    expect(b.length - (before[1] ?? 0)).toBe(3);
    expect(a.at(-1)).toBe(b.at(-1));
    one.unmount();
    two.unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
