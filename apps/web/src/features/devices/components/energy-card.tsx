import { Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconBolt } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatQuantity } from '@/lib/quantities';
import { useDeviceEnergy } from '../api/get-device-energy';

const FIGURES = ['today', 'month', 'year', 'total'] as const;

/** Active energy import today, this month, this year and in total (with the meter value), in kWh. */
export function EnergyCard({ deviceId }: { deviceId: number }) {
  const { t, i18n } = useTranslation();
  const energy = useDeviceEnergy(deviceId);

  let body: ReactNode;
  if (energy.isPending) {
    body = (
      <SimpleGrid cols={2} aria-busy aria-label={t('app.loading')}>
        {FIGURES.map((f) => (
          <Skeleton key={f} h={48} />
        ))}
      </SimpleGrid>
    );
  } else if (energy.isError) {
    body = (
      <Stack align="flex-start" gap="xs">
        <Text c="red" role="alert">
          {t('device.energy.error')}
        </Text>
        <Button size="xs" variant="light" onClick={() => void energy.refetch()}>
          {t('errors.retry')}
        </Button>
      </Stack>
    );
  } else {
    const e = energy.data;
    const kwh: Record<(typeof FIGURES)[number], number> = {
      today: e.today.energyKwh,
      month: e.month.energyKwh,
      year: e.year.energyKwh,
      total: e.total,
    };
    body = (
      <Stack gap="xs">
        <SimpleGrid cols={2} spacing="sm" verticalSpacing="md">
          {FIGURES.map((f) => (
            <div key={f} data-energy={f}>
              <Text size="xs" c="dimmed">
                {t(`device.energy.${f}`)}
              </Text>
              <Text fw={700} size="lg" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatQuantity(kwh[f], 'kWh', i18n.language)}
              </Text>
            </div>
          ))}
        </SimpleGrid>
        {e.meterValueKwh > 0 && (
          <Text size="xs" c="dimmed">
            {t('device.energy.totalHint', { value: formatQuantity(e.meterValueKwh, 'kWh', i18n.language) })}
          </Text>
        )}
      </Stack>
    );
  }

  return (
    <Card withBorder padding="lg" data-energy-card>
      <Group gap="xs" mb="md">
        <IconBolt size={20} color="var(--mantine-color-brand-6)" />
        <Title order={2} size="h4">
          {t('device.energy.title')}
        </Title>
      </Group>
      {body}
    </Card>
  );
}
