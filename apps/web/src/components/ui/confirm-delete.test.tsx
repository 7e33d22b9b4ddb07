import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderUi } from '@/test/render';
import { ConfirmDelete } from './confirm-delete';

describe('ConfirmDelete', () => {
  it('names what is deleted, cancels without deleting, and deletes on the red button', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const onConfirm = vi.fn();
    renderUi(
      <ConfirmDelete opened onClose={onClose} title="Delete Home?" text="Its 3 devices stay." pending={false} onConfirm={onConfirm} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete Home?' });
    expect(dialog).toHaveTextContent('Its 3 devices stay.');
    // The corner's close button is named (axe: button-name).
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Delete for good' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('shows the delete under way and does not take a second press', async () => {
    const onConfirm = vi.fn();
    renderUi(<ConfirmDelete opened onClose={() => {}} title="Delete G12?" text="x" pending onConfirm={onConfirm} />);
    await screen.findByRole('dialog', { name: 'Delete G12?' });
    const button = document.querySelector('[data-confirm-delete]') as HTMLButtonElement;
    expect(button).toHaveAttribute('data-loading');
    await userEvent.setup().click(button);
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
