import { useWindowScroll } from '@mantine/hooks';
import type { CSSProperties, ReactNode } from 'react';

/** Spec section 9: sticks after 200 px, animates in 0.3 s. */
export const STICKY_OFFSET = 200;
export const STICKY_ANIMATION_S = 0.3;

/** Keeps its content pinned to the top of the window once the page has scrolled past `offset`. */
export function Sticky({
  children,
  offset = STICKY_OFFSET,
  top = 0,
  zIndex = 100,
}: {
  children: ReactNode;
  offset?: number;
  top?: number;
  zIndex?: number;
}) {
  const [scroll] = useWindowScroll();
  const stuck = scroll.y > offset;
  const style: CSSProperties = stuck
    ? {
        position: 'sticky',
        top,
        zIndex,
        animation: `pw-slide-down ${STICKY_ANIMATION_S}s ease`,
        transition: `box-shadow ${STICKY_ANIMATION_S}s ease`,
      }
    : { position: 'relative', transition: `box-shadow ${STICKY_ANIMATION_S}s ease` };
  return (
    <div data-stuck={stuck} style={style} className={stuck ? 'pw-sticky pw-sticky--stuck' : 'pw-sticky'}>
      {children}
    </div>
  );
}
