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
