import { Anchor, Button, SimpleGrid, Text } from '@mantine/core';
import { type Device, deviceFigures } from '@phasewatch/shared';
import { IconChevronDown, IconSettings } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { storedTimezone } from '@/lib/auth-store';
import { effectiveTimezone } from '@/lib/dates';
import { usePhone } from '@/lib/use-phone';
import { DeleteDevice } from './delete-device';
import { LimitsForm } from './limits-form';
import { MeterValueForm } from './meter-value-form';

/**
 * Limit values, the meter value and delete: the bottom of a device page, a chunk of its own that the page
 * loads and renders after its first screen (see DeferredSettings in device-detail.tsx). On a phone they
 * fold under one button: set once, rarely visited.
 */
export function DeviceSettings({ device: d }: { device: Device }) {
  const { t } = useTranslation();
  const figures = deviceFigures(d.typeCode);
  const timezone = effectiveTimezone(storedTimezone());
  const phone = usePhone();
  const [open, setOpen] = useState(false);
  if (phone && !open) {
    return (
      <Button
        variant="light"
        h="auto"
        py={8}
        styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
        leftSection={<IconSettings size={16} aria-hidden />}
        rightSection={<IconChevronDown size={14} aria-hidden />}
        aria-expanded={false}
        onClick={() => setOpen(true)}
        style={{ alignSelf: 'flex-start' }}
        data-settings-more
      >
        {t('ux.settingsMore')}
      </Button>
    );
  }
  return (
    <>
      <SimpleGrid cols={{ base: 1, md: figures.limits ? 2 : 1 }}>
        {figures.limits && <LimitsForm device={d} />}
        {figures.meterValue && <MeterValueForm device={d} />}
      </SimpleGrid>
      <DeleteDevice device={d} />
      <Text size="xs" c="dimmed">
        {t('detail.timezoneNote', { zone: timezone })}{' '}
        <Anchor component={Link} to={paths.profile} size="xs" underline="always">
          {t('nav.profile')}
        </Anchor>
      </Text>
    </>
  );
}
