import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderUi } from '@/test/render';
import { Segmented } from './segmented';

const data = [
  { value: 'chart', label: 'Chart' },
  { value: 'table', label: 'Table' },
  { value: 'list', label: 'List' },
] as const;
type V = (typeof data)[number]['value'];

function Controlled({ onChange }: { onChange(v: string): void }) {
  const [v, setV] = useState<V>('chart');
  return (
    <Segmented
      aria-label="View as"
      value={v}
      onChange={(x) => {
        setV(x);
        onChange(x);
      }}
      data={data}
    />
  );
}

describe('Segmented', () => {
  it('is a named radio group whose checked option follows the value', () => {
    const { rerender } = renderUi(<Segmented aria-label="View as" value={'table' as V} onChange={() => {}} data={data} />);
    const group = screen.getByRole('radiogroup', { name: 'View as' });
    expect(group).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Table' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Chart' })).not.toBeChecked();
    rerender(<Segmented aria-label="View as" value={'chart' as V} onChange={() => {}} data={data} />);
    expect(screen.getByRole('radio', { name: 'Chart' })).toBeChecked();
  });

  it('changes by a click on a label and by the arrow keys', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderUi(<Controlled onChange={onChange} />);
    await user.click(screen.getByText('Table'));
    expect(onChange).toHaveBeenLastCalledWith('table');
    expect(screen.getByRole('radio', { name: 'Table' })).toBeChecked();
    await user.keyboard('{ArrowRight}');
    expect(onChange).toHaveBeenLastCalledWith('list');
    expect(screen.getByRole('radio', { name: 'List' })).toHaveFocus();
  });

  it('keeps two groups on one page apart', async () => {
    const user = userEvent.setup();
    const a = vi.fn();
    const b = vi.fn();
    renderUi(
      <>
        <Segmented aria-label="A" value={'chart' as V} onChange={a} data={data} />
        <Segmented aria-label="B" value={'chart' as V} onChange={b} data={data} />
      </>,
    );
    const [, tableOfB] = screen.getAllByRole('radio', { name: 'Table' });
    await user.click(tableOfB as HTMLElement);
    expect(b).toHaveBeenCalledWith('table');
    expect(a).not.toHaveBeenCalled();
    expect(screen.getAllByRole('radio', { name: 'Chart' })[0]).toBeChecked();
  });
});
