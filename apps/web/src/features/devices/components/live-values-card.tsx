import { Badge, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { type Device, deviceKind } from '@phasewatch/shared';
import { IconActivity, IconChevronDown } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLiveMeasurements } from '@/features/realtime';
import { formatQuantity, parameterLabel, parameterValue } from '@/lib/quantities';
import { usePhone } from '@/lib/use-phone';
import { newestReading, useLatestReading } from '../api/get-latest-reading';
import { cardParameters, headlineValue } from '../live-values';
import { useDeviceStatus } from './device-status';
import { ReadingAge } from './reading-age';

/**
 * The device's latest values: the last reading before the page opened, then every reading the hub
 * pushes (nothing is refetched). The headline figure on top, the kind's main parameters below, and
 * the reading's age ticking ("3 seconds ago"), so values that do not change still show data flowing.
 * An offline device (or one with a weak signal) shows its values dimmed (in the secondary text colour,
 * which still reads at 4.5:1) with their age and its state: they are the last ones it sent, not live. On phones the other parameters fold under the headline.
 */
export function LiveValuesCard({ device }: { device: Pick<Device, 'id' | 'typeCode' | 'lastSeen' | 'status' | 'weakSignal'> }) {
  const { t, i18n } = useTranslation();
  const kind = deviceKind(device.typeCode);
  const live = useLiveMeasurements(device.id);
  const loaded = useLatestReading(device);
  const { online, weakSignal } = useDeviceStatus(device);
  const phone = usePhone();
  const [allShown, setAllShown] = useState(false);
  const reading = newestReading(live.latest, loaded.data);
  const head = headlineValue(kind, reading?.values);
  const params = reading ? cardParameters(kind, reading.values).filter((p) => p !== head?.param) : [];
  const stale = !online || weakSignal;
  const folded = phone && !allShown;

  let body: ReactNode;
  if (reading) {
    body = (
      <Stack gap="sm">
        {head && (
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {parameterLabel(t, head.param.includes('+') ? 'power3phases' : head.param)}
            </Text>
            <Text
              fz={30}
              fw={stale ? 500 : 700}
              lh={1.15}
              c={stale ? 'dimmed' : undefined}
              style={{ fontVariantNumeric: 'tabular-nums' }}
              data-live-headline
            >
              {formatQuantity(head.value, head.unit, i18n.language)}
            </Text>
          </div>
        )}
        {params.length > 0 && !folded && (
          <SimpleGrid cols={{ base: 2, xs: 3, lg: 4 }} spacing="xs" verticalSpacing={6} id={`live-params-${device.id}`}>
            {params.map((p) => (
              <div key={p} data-live-param={p}>
                <Text size="xs" c="dimmed" lh={1.3}>
                  {parameterLabel(t, p)}
                </Text>
                <Text fw={stale ? 400 : 600} size="sm" c={stale ? 'dimmed' : undefined} style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {parameterValue(t, p, reading.values[p] as number, i18n.language)}
                </Text>
              </div>
            ))}
          </SimpleGrid>
        )}
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
    <Card withBorder padding="md" data-live-card data-stale={(reading && stale) || undefined}>
      <Group gap="xs" mb="sm" justify="space-between" wrap="wrap">
        <Group gap="xs" wrap="nowrap">
          <IconActivity size={20} color="var(--mantine-color-brand-6)" aria-hidden />
          <Title order={2} size="h4">
            {t('device.live.title')}
          </Title>
        </Group>
        {reading && (
          <Group gap={6} wrap="nowrap">
            {stale && (
              <Badge color={online ? 'yellow' : 'gray'} variant="light" size="sm">
                {t(online ? 'dashboard.weakSignal' : 'dashboard.offline')}
              </Badge>
            )}
            <Text size="xs" c="dimmed" component="span">
              {t(stale ? 'ux.live.lastReading' : 'ux.live.reading')} <ReadingAge ts={reading.ts} size="xs" c="dimmed" span fw={600} />
            </Text>
          </Group>
        )}
      </Group>
      {body}
      {reading && phone && params.length > 0 && (
        <Button
          variant="subtle"
          size="compact-sm"
          mt="xs"
          rightSection={<IconChevronDown size={14} aria-hidden style={{ transform: allShown ? 'rotate(180deg)' : undefined }} />}
          aria-expanded={allShown}
          aria-controls={`live-params-${device.id}`}
          onClick={() => setAllShown((s) => !s)}
          data-live-more
        >
          {t(allShown ? 'ux.live.fewer' : 'ux.live.all', { count: params.length })}
        </Button>
      )}
    </Card>
  );
}
