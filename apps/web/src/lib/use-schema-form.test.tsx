import { NumberInput, TextInput } from '@mantine/core';
import { forgotPasswordRequestSchema, notificationSettingsSchema, updateDeviceRequestSchema } from '@phasewatch/shared';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useTranslation } from 'react-i18next';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { i18n } from '@/i18n';
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

function MonthsForm({ onValid }: { onValid(v: unknown): void }) {
  const form = useSchemaForm(updateDeviceRequestSchema, { billingPeriodMonths: 1 } as { billingPeriodMonths: number });
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const v = form.validate();
        if (v) onValid(v);
      }}
    >
      <NumberInput label="Months" min={1} max={24} {...form.numberProps('billingPeriodMonths')} />
      <button type="submit">save</button>
    </form>
  );
}

function Threshold({ onValid }: { onValid(v: unknown): void }) {
  const form = useSchemaForm(notificationSettingsSchema, {
    pushEnabled: false,
    emailEnabled: false,
    voltageDropThreshold: 10,
    voltageRiseThreshold: 10,
    totalConsumptionThreshold: null as number | null,
    disableAtNight: true,
    notificationIntervalMinutes: 60,
    muteAll: false,
  });
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const v = form.validate();
        if (v) onValid(v);
      }}
    >
      <NumberInput label="Drop" decimalScale={1} {...form.numberProps('voltageDropThreshold')} />
      <NumberInput label="Total" {...form.numberProps('totalConsumptionThreshold', { nullable: true })} />
      <button type="submit">save</button>
    </form>
  );
}

describe('number fields: what is shown is what is sent', () => {
  it('keeps what was typed, refuses it with the rule, and sends nothing until it is valid', async () => {
    const user = userEvent.setup();
    const onValid = vi.fn();
    renderUi(<MonthsForm onValid={onValid} />);
    const input = screen.getByLabelText('Months') as HTMLInputElement;
    const save = screen.getByRole('button', { name: 'save' });
    // "1.5" stays 1.5 (it used to lose its separator and become 15) and is not a whole number.
    await user.clear(input);
    await user.type(input, '1.5');
    expect(input.value).toBe('1.5');
    expect(screen.getByText('Enter a whole number.')).toBeInTheDocument();
    await user.click(save);
    expect(onValid).not.toHaveBeenCalled();
    // Out of bounds: kept as typed on blur (no clamping to 24 or 1), refused.
    await user.clear(input);
    await user.type(input, '25');
    await user.tab();
    expect(input.value).toBe('25');
    expect(screen.getByText('The value is above the maximum.')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, '-5');
    await user.tab();
    expect(input.value).toBe('-5');
    expect(screen.getByText('The value is below the minimum.')).toBeInTheDocument();
    await user.clear(input);
    await user.tab();
    expect(screen.getByText('Enter a valid number.')).toBeInTheDocument();
    await user.click(save);
    expect(onValid).not.toHaveBeenCalled();
    // Bounds are inclusive.
    await user.type(input, '24');
    await user.click(save);
    expect(onValid).toHaveBeenLastCalledWith({ billingPeriodMonths: 24 });
  });

  it('reads decimals with the separator of the language (1,5 in Polish) and keeps an empty optional field empty', async () => {
    await i18n.changeLanguage('pl');
    onTestFinished(async () => {
      await i18n.changeLanguage('en');
    });
    const user = userEvent.setup();
    const onValid = vi.fn();
    renderUi(<Threshold onValid={onValid} />);
    const drop = screen.getByLabelText('Drop') as HTMLInputElement;
    await user.clear(drop);
    await user.type(drop, '12,5');
    expect(drop.value).toBe('12,5');
    await user.click(screen.getByRole('button', { name: 'save' }));
    expect(onValid).toHaveBeenLastCalledWith(expect.objectContaining({ voltageDropThreshold: 12.5, totalConsumptionThreshold: null }));
  });
});
