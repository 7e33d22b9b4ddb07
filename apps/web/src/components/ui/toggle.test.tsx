import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderUi } from '@/test/render';
import { Toggle } from './toggle';

describe('Toggle', () => {
  it('switches between off and on by click and keyboard', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderUi(<Toggle label="Push" onChange={onChange} />);
    const input = screen.getByRole('switch', { name: 'Push' });
    expect(input).not.toBeChecked();
    await user.click(input);
    expect(input).toBeChecked();
    expect(onChange).toHaveBeenLastCalledWith(true);
    input.focus();
    await user.keyboard(' ');
    expect(input).not.toBeChecked();
    expect(onChange).toHaveBeenLastCalledWith(false);
  });

  it('follows the controlled value', () => {
    const { rerender } = renderUi(<Toggle label="Mute" checked onChange={() => {}} />);
    expect(screen.getByRole('switch', { name: 'Mute' })).toBeChecked();
    rerender(<Toggle label="Mute" checked={false} onChange={() => {}} />);
    expect(screen.getByRole('switch', { name: 'Mute' })).not.toBeChecked();
  });
});
