import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderUi } from '@/test/render';
import { Sticky } from './sticky';

function scrollWindowTo(y: number) {
  Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
  Object.defineProperty(window, 'pageYOffset', { configurable: true, value: y });
  window.dispatchEvent(new Event('scroll'));
}

afterEach(() => scrollWindowTo(0));

describe('Sticky', () => {
  it('sticks after the default 200 px offset with a 0.3 s animation', () => {
    renderUi(<Sticky>toolbar</Sticky>);
    const box = screen.getByText('toolbar');
    expect(box).toHaveAttribute('data-stuck', 'false');
    act(() => scrollWindowTo(250));
    expect(box).toHaveAttribute('data-stuck', 'true');
    expect(box.style.position).toBe('sticky');
    expect(box.style.animation).toContain('0.3s');
    act(() => scrollWindowTo(100));
    expect(box).toHaveAttribute('data-stuck', 'false');
  });

  it('honours a custom offset', () => {
    renderUi(<Sticky offset={50}>bar</Sticky>);
    act(() => scrollWindowTo(60));
    expect(screen.getByText('bar')).toHaveAttribute('data-stuck', 'true');
  });
});
