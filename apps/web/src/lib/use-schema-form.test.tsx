import { TextInput } from '@mantine/core';
import { forgotPasswordRequestSchema } from '@phasewatch/shared';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useTranslation } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { renderUi } from '@/test/render';
import { useSchemaForm } from './use-schema-form';

function EmailForm({ onValid }: { onValid(v: unknown): void }) {
  const { t } = useTranslation();
  const form = useSchemaForm(forgotPasswordRequestSchema, { email: '' });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const v = form.validate();
        if (v) onValid(v);
      }}
    >
      <TextInput label="Email" {...form.textProps('email')} error={form.errors.email && t(form.errors.email)} />
      <button type="submit">send</button>
    </form>
  );
}

describe('useSchemaForm with the shared schemas', () => {
  it('validates on blur, on change and on input, with translated messages', async () => {
    const user = userEvent.setup();
    renderUi(<EmailForm onValid={() => {}} />);
    const input = screen.getByLabelText('Email');
    await user.click(input);
    await user.tab();
    // Untouched: leaving it says nothing yet.
    expect(screen.queryByText('This field is required.')).not.toBeInTheDocument();
    await user.type(input, 'nope');
    expect(screen.getByText('Enter a valid email address.')).toBeInTheDocument();
    await user.type(input, '@example.com');
    expect(screen.queryByText('Enter a valid email address.')).not.toBeInTheDocument();
    fireEvent.input(input, { target: { value: 'x@' } });
    expect(screen.getByText('Enter a valid email address.')).toBeInTheDocument();
    await user.clear(input);
    await user.tab();
    expect(screen.getByText('This field is required.')).toBeInTheDocument();
  });

  it('submits the parsed values only when the whole form is valid', async () => {
    const user = userEvent.setup();
    const onValid = vi.fn();
    renderUi(<EmailForm onValid={onValid} />);
    await user.click(screen.getByRole('button', { name: 'send' }));
    expect(onValid).not.toHaveBeenCalled();
    expect(screen.getByText('This field is required.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), '  Demo@Example.COM ');
    await user.click(screen.getByRole('button', { name: 'send' }));
    expect(onValid).toHaveBeenCalledWith({ email: 'demo@example.com' });
  });
});
