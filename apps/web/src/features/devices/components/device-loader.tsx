import { Skeleton, Stack } from '@mantine/core';
import type { Device } from '@phasewatch/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { QueryLoader } from '@/components/query-loader';
import { paths } from '@/config/paths';
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
  return (
    <QueryLoader
      query={device}
      invalid={!valid}
      notFound={{ text: t('device.notFound'), back: { to: paths.dashboard, text: t('errors.backHome') } }}
      skeleton={
        <Stack aria-busy aria-label={t('app.loading')}>
          <Skeleton h={28} w={240} />
          <Skeleton h={180} />
          <Skeleton h={180} />
        </Stack>
      }
      errorText={t('device.loadError')}
    >
      {children}
    </QueryLoader>
  );
}
