import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderUi } from '@/test/render';
import { ThemeMenu } from './preferences';

describe('header menus loaded after the first paint', () => {
  it('keeps a press that began on the look-alike button: the menu arrives meanwhile and opens on its click', async () => {
    renderUi(<ThemeMenu />);
    const button = screen.getByRole('button', { name: 'Theme' });
    expect(button).not.toHaveAttribute('data-menu-ready');
    fireEvent.pointerDown(button);
    // The menus arrive while the button is held (they load when the browser is idle).
    await act(async () => {
      await import('./preferences-menus');
      await new Promise((r) => setTimeout(r, 200));
    });
    // The pressed button is not swapped for the menu's own under the press.
    expect(button.isConnected).toBe(true);
    fireEvent.click(button);
    expect(await screen.findByRole('menuitem', { name: 'Dark' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Theme' })).toHaveAttribute('data-menu-ready');
  });

  it('opens from its button and closes with Escape once loaded, its open state held outside the menu', async () => {
    renderUi(<ThemeMenu />);
    fireEvent.click(screen.getByRole('button', { name: 'Theme' }));
    expect(await screen.findByRole('menuitem', { name: 'Light' })).toBeInTheDocument();
    // Closes and opens again as any menu.
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    fireEvent.click(screen.getByRole('button', { name: 'Theme' }));
    expect(await screen.findByRole('menuitem', { name: 'Light' })).toBeInTheDocument();
  });
});
