import { Button, Card, Group, NumberInput, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type Device,
  LIMIT_CRITICAL_MAX,
  LIMIT_CRITICAL_MIN,
  LIMIT_WARNING_MAX,
  LIMIT_WARNING_MIN,
  limitsSchema,
  NOMINAL_VOLTAGE,
} from '@phasewatch/shared';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { numberFormat } from '@/lib/intl';
import { honestNumberProps, numberOfText } from '@/lib/number-input';
import { useUpdateLimits } from '../api/update-limits';

type Field = 'warningLevel' | 'criticalLevel';
type Raw = Record<Field, number | string>;

/** The number a field's value stands for (an input's own text, e.g. on `input`, has the user's separator). */
const toNumber = (v: number | string): number => numberOfText(typeof v === 'string' ? v.replace(',', '.') : v);

/** Every problem of the pair by the shared rule (warning 0–50 %, critical 0–100 %, warning < critical). */
export function limitErrors(raw: Raw): Partial<Record<Field, string>> {
  const r = limitsSchema.safeParse({ warningLevel: toNumber(raw.warningLevel), criticalLevel: toNumber(raw.criticalLevel) });
  const out: Partial<Record<Field, string>> = {};
  if (!r.success) {
    for (const issue of r.error.issues) {
      const f = issue.path[0] as Field;
      if (f && !out[f]) out[f] = issue.message;
    }
  }
  return out;
}

/**
 * The voltage limit values (% of the nominal 230 V): checked with the shared schema as the user types,
 * changes and leaves a field; saved with PUT devices/:id/limits.
 */
export function LimitsForm({ device }: { device: Pick<Device, 'id' | 'limits'> }) {
  const { t, i18n } = useTranslation();
  const save = useUpdateLimits(device.id);
  const [raw, setRaw] = useState<Raw>({ ...device.limits });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  useEffect(() => {
    setRaw({ ...device.limits });
    setErrors({});
  }, [device.limits]);

  const check = (next: Raw) => setErrors(limitErrors(next));
  const change = (f: Field, v: number | string) => {
    const next = { ...raw, [f]: v };
    setRaw(next);
    check(next);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const errs = limitErrors(raw);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    save.mutate(
      { warningLevel: toNumber(raw.warningLevel), criticalLevel: toNumber(raw.criticalLevel) },
      {
        onSuccess: () => notifications.show({ color: 'teal', message: t('messages.dataSaved') }),
        onError: () => notifications.show({ color: 'red', message: t('messages.limitsSaveFailed') }),
      },
    );
  };
  const volts = (pct: number | string) => {
    const p = toNumber(pct);
    if (!Number.isFinite(p)) return '';
    const f = numberFormat(i18n.language, { maximumFractionDigits: 1 });
    return t('detail.limits.volts', { low: f.format(NOMINAL_VOLTAGE * (1 - p / 100)), high: f.format(NOMINAL_VOLTAGE * (1 + p / 100)) });
  };
  const field = (f: Field, min: number, max: number) => (
    <NumberInput
      label={t(`detail.limits.${f}`)}
      description={volts(raw[f])}
      name={f}
      value={raw[f]}
      min={min}
      max={max}
      {...honestNumberProps(i18n.language)}
      step={1}
      decimalScale={1}
      suffix=" %"
      onChange={(v) => change(f, v)}
      onInput={(e) => check({ ...raw, [f]: e.currentTarget.value.replace(/\s*%$/, '') })}
      onBlur={() => check(raw)}
      error={errors[f] ? t(errors[f] as string) : undefined}
      data-field={f}
    />
  );

  return (
    <Card withBorder padding="lg" data-limits-form>
      <Group gap="xs" mb="xs">
        <IconAlertTriangle size={20} color="var(--mantine-color-yellow-7)" aria-hidden />
        <Title order={2} size="h4">
          {t('detail.limits.title')}
        </Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        {t('detail.limits.hint', { nominal: NOMINAL_VOLTAGE })}
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {field('warningLevel', LIMIT_WARNING_MIN, LIMIT_WARNING_MAX)}
          {field('criticalLevel', LIMIT_CRITICAL_MIN, LIMIT_CRITICAL_MAX)}
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('detail.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
