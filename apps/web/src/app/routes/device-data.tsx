import { Alert, Badge, Button, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { deviceKind } from '@phasewatch/shared';
import { IconTools, IconWifiOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Page } from '@/components/page';
import { useDevice } from '@/features/devices/api/get-device';
import { EnergyCard } from '@/features/devices/components/energy-card';
import { LiveValuesCard } from '@/features/devices/components/live-values-card';
import { useLiveDeviceStatus } from '@/features/realtime/use-live-measurements';
import { ApiError } from '@/lib/api-client';

/**
 * The device detail routes (energy, solar, thermostat, single-phase, generic) until their full screens
 * arrive: the device's name and status, its live values and its energy figures.
 */
export default function DeviceDataPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const deviceId = Number(id);
  const valid = Number.isInteger(deviceId) && deviceId > 0;
  const device = useDevice(deviceId, valid);
  const liveStatus = useLiveDeviceStatus(valid ? deviceId : null);

  let body: ReactNode;
  if (!valid || (device.isError && device.error instanceof ApiError && device.error.status === 404)) {
    body = (
      <Alert color="gray" variant="light" role="alert">
        {t('device.notFound')}
      </Alert>
    );
  } else if (device.isPending) {
    body = (
      <Stack aria-busy aria-label={t('app.loading')}>
        <Skeleton h={28} w={240} />
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Skeleton h={200} />
          <Skeleton h={200} />
        </SimpleGrid>
      </Stack>
    );
  } else if (device.isError) {
    body = (
      <Stack align="flex-start">
        <Alert color="red" role="alert">
          {t('device.loadError')}
        </Alert>
        <Button onClick={() => void device.refetch()}>{t('errors.retry')}</Button>
      </Stack>
    );
  } else {
    const d = device.data;
    const online = (liveStatus?.status ?? d.status) === 'online';
    const weak = liveStatus?.weakSignal ?? d.weakSignal;
    body = (
      <>
        <Group gap="sm">
          <Text fw={700} size="lg">
            {d.name}
          </Text>
          <Badge color={online ? 'teal' : 'gray'} variant="light" data-device-status={d.id}>
            {t(online ? 'dashboard.online' : 'dashboard.offline')}
          </Badge>
          {weak && <IconWifiOff size={16} aria-label={t('dashboard.weakSignal')} />}
          <Text c="dimmed" size="sm">
            {[d.model, d.typeName].filter(Boolean).join(' · ')}
          </Text>
        </Group>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <LiveValuesCard device={d} />
          {/* A thermostat meters no energy. */}
          {deviceKind(d.typeCode) !== 'thermostat' && <EnergyCard deviceId={d.id} />}
        </SimpleGrid>
        <Alert variant="light" icon={<IconTools />}>
          {t('placeholder.soon')}
        </Alert>
      </>
    );
  }

  return <Page titleKey="titles.deviceData">{body}</Page>;
}
