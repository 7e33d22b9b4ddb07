import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { renderUi } from '@/test/render';
import { ImageInput } from './image-input';

beforeAll(() => {
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
});

const flag = () => screen.getByTestId('photo-remove-flag');

describe('ImageInput', () => {
  it('starts empty without an image and takes a chosen file as changed', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const { container } = renderUi(<ImageInput name="photo" onChange={onChange} />);
    expect(screen.getByText('No image')).toBeInTheDocument();
    expect(container.querySelector('[data-state]')).toHaveAttribute('data-state', 'empty');
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    await user.upload(input, file);
    expect(onChange).toHaveBeenLastCalledWith(file, 'changed');
    expect(container.querySelector('[data-state]')).toHaveAttribute('data-state', 'changed');
    expect(screen.getByRole('img', { name: 'Image preview' })).toHaveAttribute('src', 'blob:preview');
    expect(flag()).toHaveValue('0');
  });

  it('sets the hidden flag to 1 on remove and back to 0 on cancel', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const { container } = renderUi(<ImageInput name="photo" initialUrl="/stored.png" onChange={onChange} />);
    expect(screen.getByRole('img')).toHaveAttribute('src', '/stored.png');
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(flag()).toHaveValue('1');
    expect(container.querySelector('[data-state]')).toHaveAttribute('data-state', 'empty');
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(flag()).toHaveValue('0');
    expect(container.querySelector('[data-state]')).toHaveAttribute('data-state', 'cancelled');
    expect(screen.getByRole('img')).toHaveAttribute('src', '/stored.png');
    expect(onChange).toHaveBeenLastCalledWith(null, 'cancelled');
  });
});
