import { Alert, Anchor, Button, Skeleton, Stack } from '@mantine/core';
import type { Device } from '@phasewatch/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useDevice } from '../api/get-device';

/**
 * Loads the device of the route's `:id` and renders `children` with it: a skeleton while it loads, a
 * plain "does not exist" for an unknown id or another user's device (404), a retry on failures.
 */
export function DeviceLoader({ children }: { children: (device: Device) => ReactNode }) {
  const { t } = useTranslation();
  const { id } = useParams();
  const deviceId = Number(id);
  const valid = Number.isInteger(deviceId) && deviceId > 0;
  const device = useDevice(deviceId, valid);
  if (!valid || (device.isError && device.error instanceof ApiError && device.error.status === 404)) {
    return (
      <Stack align="flex-start">
        <Alert color="gray" variant="light" role="alert">
          {t('device.notFound')}
        </Alert>
        <Anchor component={Link} to={paths.dashboard}>
          {t('errors.backHome')}
        </Anchor>
      </Stack>
    );
  }
  if (device.isPending) {
    return (
      <Stack aria-busy aria-label={t('app.loading')}>
        <Skeleton h={28} w={240} />
        <Skeleton h={180} />
        <Skeleton h={180} />
      </Stack>
    );
  }
  if (device.isError) {
    return (
      <Stack align="flex-start">
        <Alert color="red" role="alert">
          {t('device.loadError')}
        </Alert>
        <Button onClick={() => void device.refetch()}>{t('errors.retry')}</Button>
      </Stack>
    );
  }
  return children(device.data);
}
