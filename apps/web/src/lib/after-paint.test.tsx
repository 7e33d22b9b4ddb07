import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterNextPaint, afterPaintWhenIdle, usePaintedOnce } from './after-paint';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The browser's frames by hand: requestAnimationFrame callbacks run when `frame()` is called. */
function manualFrames() {
  const pending = new Map<number, FrameRequestCallback>();
  let next = 1;
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => {
    pending.set(next, cb);
    return next++;
  });
  vi.spyOn(window, 'cancelAnimationFrame').mockImplementation((id) => void pending.delete(id));
  return {
    frame() {
      const due = [...pending.values()];
      pending.clear();
      for (const cb of due) cb(performance.now());
    },
    pending: () => pending.size,
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

function Below({ ready }: { ready: boolean }) {
  const painted = usePaintedOnce(ready);
  return <span data-testid="below">{painted ? 'shown' : 'later'}</span>;
}

describe('afterNextPaint', () => {
  it('runs after the next frame, in a task of its own, and not at all once cancelled', async () => {
    const frames = manualFrames();
    const ran: string[] = [];
    afterNextPaint(() => ran.push('a'));
    const cancel = afterNextPaint(() => ran.push('b'));
    await tick();
    expect(ran).toEqual([]);
    frames.frame();
    cancel();
    // Queued from the frame, so not yet within it.
    expect(ran).toEqual([]);
    await tick();
    expect(ran).toEqual(['a']);
  });
});

describe('usePaintedOnce', () => {
  it('stays false while not ready and until a frame has been painted, then stays true', async () => {
    const frames = manualFrames();
    const { rerender } = render(<Below ready={false} />);
    await act(tick);
    expect(frames.pending()).toBe(0);
    rerender(<Below ready />);
    await act(tick);
    expect(screen.getByTestId('below').textContent).toBe('later');
    frames.frame();
    await act(tick);
    expect(screen.getByTestId('below').textContent).toBe('shown');
    rerender(<Below ready={false} />);
    await act(tick);
    expect(screen.getByTestId('below').textContent).toBe('shown');
  });
});

describe('afterPaintWhenIdle', () => {
  it('waits for the next frame, then for the browser to be idle (with a time limit), and can be cancelled in either wait', async () => {
    const frames = manualFrames();
    const idle: { cb: IdleRequestCallback; timeout: number | undefined }[] = [];
    const cancelled: number[] = [];
    Object.assign(window, {
      requestIdleCallback: (cb: IdleRequestCallback, o?: IdleRequestOptions) => idle.push({ cb, timeout: o?.timeout }),
      cancelIdleCallback: (id: number) => cancelled.push(id),
    });
    try {
      const ran: string[] = [];
      afterPaintWhenIdle(() => ran.push('a'));
      const cancelEarly = afterPaintWhenIdle(() => ran.push('b'));
      cancelEarly();
      frames.frame();
      await tick();
      // Painted: now waiting for idle time, not run yet.
      expect(ran).toEqual([]);
      expect(idle.map((i) => i.timeout)).toEqual([2000]);
      const cancelLate = afterPaintWhenIdle(() => ran.push('c'), 500);
      frames.frame();
      await tick();
      cancelLate();
      expect(cancelled).toEqual([2]);
      idle[0]?.cb({ didTimeout: false, timeRemaining: () => 10 });
      expect(ran).toEqual(['a']);
    } finally {
      Reflect.deleteProperty(window, 'requestIdleCallback');
      Reflect.deleteProperty(window, 'cancelIdleCallback');
    }
  });
});
