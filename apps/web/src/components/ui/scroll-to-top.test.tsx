import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderUi } from '@/test/render';
import { animateScrollToTop, ScrollToTop } from './scroll-to-top';

function scrollWindowTo(y: number) {
  Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
  Object.defineProperty(window, 'pageYOffset', { configurable: true, value: y });
  window.dispatchEvent(new Event('scroll'));
}

afterEach(() => scrollWindowTo(0));

describe('ScrollToTop', () => {
  it('appears only after the 200 px offset', () => {
    renderUi(<ScrollToTop />);
    expect(screen.queryByRole('button', { name: 'Scroll to top' })).not.toBeInTheDocument();
    act(() => scrollWindowTo(200));
    expect(screen.queryByRole('button', { name: 'Scroll to top' })).not.toBeInTheDocument();
    act(() => scrollWindowTo(201));
    expect(screen.getByRole('button', { name: 'Scroll to top' })).toBeInTheDocument();
  });

  it('scrolls to the top when clicked', async () => {
    const user = userEvent.setup();
    const scrollTo = vi.mocked(window.scrollTo);
    scrollTo.mockClear();
    renderUi(<ScrollToTop duration={30} />);
    act(() => scrollWindowTo(900));
    await user.click(screen.getByRole('button', { name: 'Scroll to top' }));
    await vi.waitFor(() => expect(scrollTo).toHaveBeenLastCalledWith(0, 0));
  });
});

describe('animateScrollToTop', () => {
  it('takes the whole duration and passes through intermediate positions', async () => {
    const scrollTo = vi.mocked(window.scrollTo);
    scrollTo.mockClear();
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 1000 });
    const t0 = performance.now();
    await animateScrollToTop(120);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(110);
    const ys = scrollTo.mock.calls.map((c) => c[1] as number);
    expect(ys.at(-1)).toBe(0);
    expect(ys.some((y) => y > 0 && y < 1000)).toBe(true);
  });
});
