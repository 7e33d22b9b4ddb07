import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderUi } from '@/test/render';
import { PasswordStrengthInput, passwordStrength } from './password-strength';

describe('passwordStrength', () => {
  it('gives each of the five checks an equal share of 100', () => {
    expect(passwordStrength('')).toBe(0);
    expect(passwordStrength('abc')).toBe(20);
    expect(passwordStrength('abcdefgh')).toBe(40);
    expect(passwordStrength('Abcdefgh')).toBe(60);
    expect(passwordStrength('Abcdefg1')).toBe(80);
    expect(passwordStrength('Abcdef1!')).toBe(100);
    expect(passwordStrength('ŻÓŁW-1ab')).toBe(100);
  });
});

function Harness({ onSubmit }: { onSubmit(v: string): void }) {
  const [v, setV] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(v);
      }}
    >
      <PasswordStrengthInput label="Password" value={v} onChange={(e) => setV(e.currentTarget.value)} />
      <button type="submit">go</button>
    </form>
  );
}

describe('PasswordStrengthInput', () => {
  it('highlights bars and checks as the password grows, and blocks nothing', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    const { container } = renderUi(<Harness onSubmit={onSubmit} />);
    const input = screen.getByLabelText('Password', { selector: 'input' });
    const lit = () => container.querySelectorAll('[data-lit="true"]').length;
    expect(lit()).toBe(0);
    await user.type(input, 'abc');
    expect(lit()).toBe(1);
    expect(screen.getByRole('meter')).toHaveAttribute('aria-valuenow', '20');
    await user.type(input, 'DEF12!');
    expect(lit()).toBe(5);
    expect(screen.getByRole('meter')).toHaveAttribute('aria-valuenow', '100');
    await user.clear(input);
    await user.type(input, 'a');
    await user.click(screen.getByRole('button', { name: 'go' }));
    expect(onSubmit).toHaveBeenCalledWith('a');
  });

  it('toggles the field between hidden and plain text', async () => {
    const user = userEvent.setup();
    renderUi(<Harness onSubmit={() => {}} />);
    const input = screen.getByLabelText('Password', { selector: 'input' });
    expect(input).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(input).toHaveAttribute('type', 'password');
  });
});
