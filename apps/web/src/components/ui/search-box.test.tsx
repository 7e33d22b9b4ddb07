import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderUi } from '@/test/render';
import { SearchBox } from './search-box';

describe('SearchBox', () => {
  it('searches from 2 characters on', async () => {
    const user = userEvent.setup();
    const onSearch = vi.fn();
    renderUi(<SearchBox onSearch={onSearch} onClear={() => {}} />);
    const box = screen.getByRole('searchbox', { name: 'Search' });
    await user.type(box, 'a');
    expect(onSearch).not.toHaveBeenCalled();
    await user.type(box, 'b');
    expect(onSearch).toHaveBeenLastCalledWith('ab');
  });

  it('searches a single character on Enter', async () => {
    const user = userEvent.setup();
    const onSearch = vi.fn();
    renderUi(<SearchBox onSearch={onSearch} onClear={() => {}} />);
    await user.type(screen.getByRole('searchbox'), 'x{Enter}');
    expect(onSearch).toHaveBeenCalledExactlyOnceWith('x');
  });

  it('clears when the input becomes empty', async () => {
    const user = userEvent.setup();
    const onClear = vi.fn();
    renderUi(<SearchBox onSearch={() => {}} onClear={onClear} />);
    const box = screen.getByRole('searchbox');
    await user.type(box, 'abc');
    expect(onClear).not.toHaveBeenCalled();
    await user.clear(box);
    expect(onClear).toHaveBeenCalledOnce();
  });

  it('is processing while the search runs, then idle', async () => {
    const user = userEvent.setup();
    let finish: () => void = () => {};
    const onSearch = vi.fn(() => new Promise<void>((r) => (finish = r)));
    renderUi(<SearchBox onSearch={onSearch} onClear={() => {}} />);
    const box = screen.getByRole('searchbox');
    await user.type(box, 'ab');
    expect(box).toHaveAttribute('data-state', 'processing');
    expect(box).toHaveAttribute('aria-busy', 'true');
    finish();
    await vi.waitFor(() => expect(box).toHaveAttribute('data-state', 'idle'));
  });
});
