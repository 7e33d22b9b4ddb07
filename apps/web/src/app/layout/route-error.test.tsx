import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { loadChunk } from '@/lib/lazy-chunk';
import { renderUi } from '@/test/render';
import { RouteError } from './route-error';

function renderRoute(lazy: () => Promise<never>) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        errorElement: <RouteError />,
        lazy: async () => {
          await loadChunk(lazy);
          return {};
        },
      },
    ],
    { initialEntries: ['/'] },
  );
  return renderUi(<RouterProvider router={router} />);
}

describe('RouteError', () => {
  it('shows a clear load error with a retry when a screen chunk fails to load', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    renderRoute(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js')));
    expect(await screen.findByText('The application could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('A part of the application failed to load. Check your connection and retry.')).toBeInTheDocument();
    screen.getByRole('button', { name: 'Retry' }).click();
    expect(reload).toHaveBeenCalledOnce();
    vi.unstubAllGlobals();
  });
});
