import { Anchor, Text } from '@mantine/core';
import { deviceDetailPath } from '@phasewatch/shared';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Page } from '@/components/page';
import { DeviceLoader, EditDeviceForm } from '@/features/devices';
import { formatServerDate } from '@/lib/dates';

/** /edit-device/{id}. */
export default function EditDevicePage() {
  const { t, i18n } = useTranslation();
  return (
    <Page titleKey="titles.editDevice">
      <DeviceLoader>
        {(device) => (
          <>
            <Text c="dimmed" mt={-8}>
              <Anchor component={Link} to={deviceDetailPath(device.typeCode, device.id)} fw={600} underline="always">
                {device.name}
              </Anchor>
              {` · ${t('editDevice.lastChanged', { date: formatServerDate(device.modifiedAt, { locale: i18n.language }) })}`}
            </Text>
            <EditDeviceForm device={device} />
          </>
        )}
      </DeviceLoader>
    </Page>
  );
}
