import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
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
}
