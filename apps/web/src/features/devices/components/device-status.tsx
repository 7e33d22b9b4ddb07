import { Badge, Group } from '@mantine/core';
import type { DeviceListItem } from '@phasewatch/shared';
import { IconWifiOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLiveDeviceStatus } from '@/features/realtime';

/** Online and weak signal as the hub last pushed them, else as the list answered. */
export function useDeviceStatus(device: Pick<DeviceListItem, 'id' | 'status' | 'weakSignal'>) {
  const live = useLiveDeviceStatus(device.id);
  return { online: (live?.status ?? device.status) === 'online', weakSignal: live?.weakSignal ?? device.weakSignal };
}

/** The status badge (translated) and a weak-signal mark. */
export function DeviceStatusBadge({ device }: { device: Pick<DeviceListItem, 'id' | 'status' | 'weakSignal'> }) {
  const { t } = useTranslation();
  const { online, weakSignal } = useDeviceStatus(device);
  return (
    <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
      <Badge color={online ? 'teal' : 'gray'} variant="light" data-device-status={device.id}>
        {t(online ? 'dashboard.online' : 'dashboard.offline')}
      </Badge>
      {weakSignal && <IconWifiOff size={16} aria-label={t('dashboard.weakSignal')} role="img" title={t('dashboard.weakSignal')} />}
    </Group>
  );
}
