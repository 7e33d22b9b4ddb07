import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderUi } from '@/test/render';
import { AppDrawer } from './app-drawer';

function resizeTo(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  window.dispatchEvent(new Event('resize'));
}

describe('AppDrawer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows its content when opened and nothing when hidden', () => {
    const { rerender } = renderUi(
      <AppDrawer opened title="Menu" onClose={() => {}}>
        <p>inside</p>
      </AppDrawer>,
    );
    expect(screen.getByText('inside')).toBeInTheDocument();
    rerender(
      <AppDrawer opened={false} title="Menu" onClose={() => {}}>
        <p>inside</p>
      </AppDrawer>,
    );
    expect(screen.queryByText('inside')).not.toBeInTheDocument();
  });

  it('handles resizing once, 200 ms after the last resize event', () => {
    const onClose = vi.fn();
    renderUi(
      <AppDrawer opened title="Menu" onClose={onClose}>
        <p>inside</p>
      </AppDrawer>,
    );
    act(() => {
      resizeTo(700);
      vi.advanceTimersByTime(150);
      resizeTo(800);
      vi.advanceTimersByTime(150);
    });
    expect(onClose).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(60));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('stays open when the window is still narrow', () => {
    const onClose = vi.fn();
    renderUi(
      <AppDrawer opened title="Menu" onClose={onClose}>
        <p>inside</p>
      </AppDrawer>,
    );
    act(() => {
      resizeTo(400);
      vi.advanceTimersByTime(250);
    });
    expect(onClose).not.toHaveBeenCalled();
  });
});
