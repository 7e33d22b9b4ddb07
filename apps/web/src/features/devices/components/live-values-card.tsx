import { Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type Device, deviceKind } from '@phasewatch/shared';
import { IconActivity } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLiveMeasurements } from '@/features/realtime/use-live-measurements';
import { storedTimezone } from '@/lib/auth-store';
import { effectiveTimezone } from '@/lib/dates';
import { dateTimeFormat } from '@/lib/intl';
import { newestReading, useLatestReading } from '../api/get-latest-reading';
import { cardParameters, formatQuantity, headlineValue } from '../live-values';
import { parameterLabel, parameterValue } from './param-label';

/**
 * The device's latest values: the last reading before the page opened, then every reading the hub
 * pushes (nothing is refetched). The headline figure on top, the kind's main parameters below.
 */
export function LiveValuesCard({ device }: { device: Pick<Device, 'id' | 'typeCode' | 'lastSeen'> }) {
  const { t, i18n } = useTranslation();
  const kind = deviceKind(device.typeCode);
  const live = useLiveMeasurements(device.id);
  const loaded = useLatestReading(device);
  const reading = newestReading(live.latest, loaded.data);
  const head = headlineValue(kind, reading?.values);
  const params = reading ? cardParameters(kind, reading.values).filter((p) => p !== head?.param) : [];

  let body: ReactNode;
  if (reading) {
    const time = dateTimeFormat(i18n.language, {
      dateStyle: 'short',
      timeStyle: 'medium',
      timeZone: effectiveTimezone(storedTimezone()),
    }).format(reading.ts);
    body = (
      <Stack gap="md">
        {head && (
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {parameterLabel(t, head.param.includes('+') ? 'power3phases' : head.param)}
            </Text>
            <Text fz={32} fw={700} lh={1.2} style={{ fontVariantNumeric: 'tabular-nums' }} data-live-headline>
              {formatQuantity(head.value, head.unit, i18n.language)}
            </Text>
          </div>
        )}
        {params.length > 0 && (
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm" verticalSpacing="sm">
            {params.map((p) => (
              <div key={p} data-live-param={p}>
                <Text size="xs" c="dimmed">
                  {parameterLabel(t, p)}
                </Text>
                <Text fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {parameterValue(t, p, reading.values[p] as number, i18n.language)}
                </Text>
              </div>
            ))}
          </SimpleGrid>
        )}
        <Text size="xs" c="dimmed">
          {t('device.live.updatedAt', { time })}
        </Text>
      </Stack>
    );
  } else if (loaded.isLoading) {
    body = (
      <Stack gap="xs" aria-busy aria-label={t('app.loading')}>
        <Skeleton h={36} w="50%" />
        <Skeleton h={48} />
      </Stack>
    );
  } else if (loaded.isError) {
    body = (
      <Text c="red" role="alert">
        {t('device.loadError')}
      </Text>
    );
  } else {
    body = <Text c="dimmed">{t('device.live.empty')}</Text>;
  }

  return (
    <Card withBorder padding="lg" data-live-card>
      <Group gap="xs" mb="md">
        <IconActivity size={20} color="var(--mantine-color-brand-6)" />
        <Title order={2} size="h4">
          {t('device.live.title')}
        </Title>
      </Group>
      {body}
    </Card>
  );
}
