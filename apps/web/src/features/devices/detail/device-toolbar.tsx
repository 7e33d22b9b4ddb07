import { Box, Button, Group } from '@mantine/core';
import { type Device, deviceKind } from '@phasewatch/shared';
import { IconEdit, IconEye, IconWaveSine } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { ExportButton } from '@/features/exports';

/**
 * The device page's actions, at the right of its title: the overview and the edit screen. Further
 * actions of the device (an export, …) are added here, each a small button of the same size.
 */
export function DeviceToolbar({ device }: { device: Pick<Device, 'id' | 'name' | 'typeCode'> }) {
  const kind = deviceKind(device.typeCode);
  const { t } = useTranslation();
  return (
    <Group gap="xs" data-device-toolbar>
      <Button component={Link} to={paths.deviceOverview(device.id)} variant="default" size="xs" leftSection={<IconEye size={16} />}>
        {t('dashboard.overview')}
      </Button>
      <Button component={Link} to={paths.editDevice(device.id)} variant="default" size="xs" leftSection={<IconEdit size={16} />}>
        {t('dashboard.edit')}
      </Button>
      {(kind === 'energy' || kind === 'singlePhase') && (
        // Below 576 px an icon with its name for assistive technology: four labelled buttons would wrap and
        // push the first chart out of a phone's first screen.
        <Button
          component={Link}
          to={paths.deviceQuality(device.id)}
          variant="default"
          size="xs"
          aria-label={t('quality.open')}
          title={t('quality.open')}
          px={6}
        >
          <IconWaveSine size={16} aria-hidden />
          <Box component="span" visibleFrom="xs" ml={6}>
            {t('quality.open')}
          </Box>
        </Button>
      )}
      <ExportButton deviceId={device.id} />
    </Group>
  );
}
