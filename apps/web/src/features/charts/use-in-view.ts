import { useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * Whether the element has come near the viewport (once true, stays true): charts further down the page
 * load their readings only when the user scrolls towards them, so the first ones draw sooner.
 */
export function useInView<T extends Element>(margin = '300px'): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T | null>(null);
  const [seen, setSeen] = useState(typeof IntersectionObserver === 'undefined');
  // Already on screen at mount: no wait for the observer's first callback.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!seen && el && el.getBoundingClientRect().top < window.innerHeight + Number.parseInt(margin, 10)) setSeen(true);
  }, [seen, margin]);
  useEffect(() => {
    const el = ref.current;
    if (seen || !el) return;
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
  }, [seen, margin]);
  return [ref, seen];
}
