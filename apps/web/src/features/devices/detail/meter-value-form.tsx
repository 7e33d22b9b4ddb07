import { Button, Card, Group, NumberInput, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type Device, meterValueSchema } from '@phasewatch/shared';
import { IconGauge } from '@tabler/icons-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { honestNumberProps, numberOfText } from '@/lib/number-input';
import { useUpdateMeterValue } from '../api/update-meter-value';

function meterError(v: number | string): string | undefined {
  const r = meterValueSchema.safeParse({ meterValueKwh: numberOfText(v) });
  return r.success ? undefined : r.error.issues[0]?.message;
}

/** The energy meter value: a reading (kWh) the user enters, added to the measured energy in the total. */
export function MeterValueForm({ device }: { device: Pick<Device, 'id' | 'meterValueKwh'> }) {
  const { t, i18n } = useTranslation();
  const save = useUpdateMeterValue(device.id);
  const [value, setValue] = useState<number | string>(device.meterValueKwh);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    setValue(device.meterValueKwh);
    setError(undefined);
  }, [device.meterValueKwh]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const err = meterError(value);
    setError(err);
    if (err) return;
    save.mutate(numberOfText(value), {
      onSuccess: () => notifications.show({ color: 'teal', message: t('messages.dataSaved') }),
      onError: () => notifications.show({ color: 'red', message: t('messages.energyMeterSaveFailed') }),
    });
  };

  return (
    <Card withBorder padding="lg" data-meter-value-form>
      <Group gap="xs" mb="xs">
        <IconGauge size={20} color="var(--mantine-color-brand-6)" aria-hidden />
        <Title order={2} size="h4">
          {t('detail.meterValue.title')}
        </Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        {t('detail.meterValue.hint')}
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <NumberInput
            label={t('detail.meterValue.label')}
            name="meterValueKwh"
            value={value}
            min={0}
            {...honestNumberProps(i18n.language)}
            decimalScale={3}
            suffix=" kWh"
            onChange={(v) => {
              setValue(v);
              setError(meterError(v));
            }}
            onBlur={() => setError(meterError(value))}
            error={error ? t(error) : undefined}
          />
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
