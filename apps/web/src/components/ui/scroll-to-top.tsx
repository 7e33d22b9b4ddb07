import { ActionIcon, Affix, Transition } from '@mantine/core';
import { useWindowScroll } from '@mantine/hooks';
import { IconArrowUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Spec section 9: the button appears after 200 px and scrolls up in 600 ms. */
export const SCROLL_TOP_OFFSET = 200;
export const SCROLL_TOP_DURATION_MS = 600;

/** Scrolls the window to the top over `duration` ms (ease-out), without the browser's fixed smooth speed. */
export function animateScrollToTop(duration = SCROLL_TOP_DURATION_MS): Promise<void> {
  const start = window.scrollY;
  const t0 = performance.now();
  return new Promise((resolve) => {
    // performance.now() rather than the frame timestamp: both clocks must share one origin.
    const step = () => {
      const p = Math.min(1, (performance.now() - t0) / duration);
      const eased = 1 - (1 - p) ** 3;
      window.scrollTo(0, Math.round(start * (1 - eased)));
      if (p < 1) requestAnimationFrame(step);
      else resolve();
    };
    requestAnimationFrame(step);
  });
}

export function ScrollToTop({ offset = SCROLL_TOP_OFFSET, duration = SCROLL_TOP_DURATION_MS }: { offset?: number; duration?: number }) {
  const { t } = useTranslation();
  const [scroll] = useWindowScroll();
  return (
    <Affix position={{ bottom: 20, right: 20 }} zIndex={100}>
      <Transition transition="slide-up" mounted={scroll.y > offset}>
        {(styles) => (
          <ActionIcon
            style={styles}
            size="xl"
            radius="xl"
            aria-label={t('widgets.scrollTop')}
            onClick={() => void animateScrollToTop(duration)}
          >
            <IconArrowUp size={22} />
          </ActionIcon>
        )}
      </Transition>
    </Affix>
  );
}
