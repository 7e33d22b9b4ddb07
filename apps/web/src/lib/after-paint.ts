import { startTransition, useEffect, useState } from 'react';

/**
 * Runs `fn` once the browser has painted its next frame (a task queued from a requestAnimationFrame
 * callback runs after that frame); returns a cancel. For work a screen's first content must not wait for:
 * requests only a header or a later part needs, a second render of what is below the fold.
 */
export function afterNextPaint(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(fn, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}

/**
 * False until `ready` has been true for one painted frame, then true for good (set in a transition, so
 * input is not held up by what it renders).
 */
export function usePaintedOnce(ready = true): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!ready || painted) return;
    return afterNextPaint(() => startTransition(() => setPainted(true)));
  }, [ready, painted]);
  return painted;
}

/**
 * Runs `fn` when the browser is first idle after its next paint (at most `timeout` ms later): for work no
 * part of the screen shows at first (a header's count, a token check, a live connection), so that a screen
 * whose content comes a moment after its first paint (a list after its data) does not wait for it either.
 */
export function afterPaintWhenIdle(fn: () => void, timeout = 2000): () => void {
  let idle: number | undefined;
  const cancelPaint = afterNextPaint(() => {
    if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(fn, { timeout });
    else fn();
  });
  return () => {
    cancelPaint();
    if (idle !== undefined && typeof window.cancelIdleCallback === 'function') window.cancelIdleCallback(idle);
  };
}

/** False until `afterPaintWhenIdle` has run once since mounting, then true for good. */
export function useIdleAfterPaint(): boolean {
  const [due, setDue] = useState(false);
  useEffect(() => {
    if (due) return;
    return afterPaintWhenIdle(() => setDue(true));
  }, [due]);
  return due;
}
