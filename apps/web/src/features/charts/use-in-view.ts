import { useEffect, useRef, useState } from 'react';

/**
 * Whether the element has come near the viewport (once true, stays true): charts and forms further down
 * a page render and load only when the user scrolls towards them, so the first screen is ready sooner.
 * An IntersectionObserver alone decides (its first answer comes after the browser's own layout, one frame
 * after mount): no `getBoundingClientRect` in a render or layout effect, which would force a synchronous
 * layout of the whole page while it is being built. `initial` true skips the observer (e.g. the charts
 * of the first screen, known before layout); `active` false holds the observer back (e.g. while the
 * content above is still a placeholder of another height, so that the element is not "near" for a moment).
 */
export function useInView<T extends Element>(margin = '200px', initial = false, active = true): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T | null>(null);
  const [seen, setSeen] = useState(initial || typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = ref.current;
    if (seen || !el || !active) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setSeen(true);
          io.disconnect();
        }
      },
      { rootMargin: margin },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [seen, margin, active]);
  return [ref, seen];
}
