import { act, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderUi } from '@/test/render';
import { StepperWidget, useStepper } from './stepper';

describe('useStepper', () => {
  it('starts at step 1 as first, with no previous step', () => {
    const { result } = renderHook(() => useStepper(3));
    expect(result.current.active).toBe(1);
    expect(result.current.previous).toBeNull();
    expect(result.current.position).toBe('first');
    expect([1, 2, 3].map(result.current.statusOf)).toEqual(['current', 'pending', 'pending']);
  });

  it('tracks the previous step and marks completed, current and pending', () => {
    const { result } = renderHook(() => useStepper(3));
    act(() => result.current.next());
    expect(result.current.active).toBe(2);
    expect(result.current.previous).toBe(1);
    expect(result.current.position).toBe('between');
    expect([1, 2, 3].map(result.current.statusOf)).toEqual(['completed', 'current', 'pending']);
    act(() => result.current.next());
    expect(result.current.position).toBe('last');
    expect(result.current.previous).toBe(2);
    act(() => result.current.next());
    expect(result.current.active).toBe(3);
    act(() => result.current.goTo(1));
    expect(result.current.previous).toBe(3);
    expect(result.current.position).toBe('first');
  });
});

describe('StepperWidget', () => {
  it('moves with next and back and finishes on the last step', async () => {
    const user = userEvent.setup();
    const onFinish = vi.fn();
    const { container } = renderUi(
      <StepperWidget
        onFinish={onFinish}
        steps={[
          { label: 'One', content: <p>first body</p> },
          { label: 'Two', content: <p>second body</p> },
        ]}
      />,
    );
    expect(screen.getByText('first body')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('second body')).toBeInTheDocument();
    expect(container.querySelector('[data-position]')).toHaveAttribute('data-position', 'last');
    expect(container.querySelector('[data-previous]')).toHaveAttribute('data-previous', '1');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onFinish).toHaveBeenCalledOnce();
  });

  it('leaves a guarded step only when its check passes, and locks the steps before a final one', async () => {
    const user = userEvent.setup();
    let valid = false;
    const onNext = vi.fn(async () => valid);
    const onFinish = vi.fn();
    renderUi(
      <StepperWidget
        onFinish={onFinish}
        finishLabel="Done"
        steps={[
          { label: 'Details', content: <p>details body</p>, onNext, nextLabel: 'Create' },
          { label: 'Key', content: <p>key body</p>, final: true },
        ]}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onNext).toHaveBeenCalledOnce();
    expect(screen.getByText('details body')).toBeInTheDocument();
    valid = true;
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('key body')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(onFinish).toHaveBeenCalledOnce();
  });
});
