import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';
import { i18n } from '@/i18n';
import { catalogues } from '@/i18n/catalogues';

// The app loads catalogues on demand; tests have them all from the start.
for (const [lng, catalogue] of Object.entries(catalogues)) i18n.addResourceBundle(lng, 'translation', catalogue);

// jsdom lacks these browser APIs that Mantine uses (node-environment tests have no window at all).
const browser = typeof window !== 'undefined';
if (browser && !window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: vi.fn().mockImplementation((query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    })),
  });
}
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (browser) {
  window.ResizeObserver ??= ResizeObserverStub;
  window.HTMLElement.prototype.scrollIntoView ??= () => {};
  Object.defineProperty(window, 'scrollTo', { writable: true, value: vi.fn() });
  afterEach(() => {
    cleanup();
    window.localStorage.clear();
  });
  // Mantine's transitions keep running their timers after a component is gone (env="test" only skips their
  // styles): one that fired after the file's window was torn down failed a whole CI run with "window is not
  // defined" although every test had passed. The file waits for the longest of them (Mantine's are 150-300 ms)
  // while its window still exists.
  afterAll(() => new Promise((resolve) => setTimeout(resolve, 500)));
}
