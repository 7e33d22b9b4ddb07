import { Alert, Anchor, Button, Skeleton, Stack } from '@mantine/core';
import type { Location } from '@phasewatch/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useLocation } from '../api/get-location';

/**
 * Loads a location by the route's id and renders `children` with it: a skeleton while it loads, a plain
 * "does not exist" for an unknown id or another user's location (404), a retry on failures.
 */
export function LocationLoader({ id, children }: { id: string | undefined; children: (location: Location) => ReactNode }) {
  const { t } = useTranslation();
  const locationId = Number(id);
  const valid = Number.isInteger(locationId) && locationId > 0 && String(locationId) === id;
  const location = useLocation(locationId, valid);
  if (!valid || (location.isError && location.error instanceof ApiError && location.error.status === 404)) {
    return (
      <Stack align="flex-start">
        <Alert color="gray" variant="light" role="alert">
          {t('locations.notFound')}
        </Alert>
        <Anchor component={Link} to={paths.locations}>
          {t('locations.backToList')}
        </Anchor>
      </Stack>
    );
  }
  if (location.isPending) {
    return (
      <Stack aria-busy aria-label={t('app.loading')}>
        <Skeleton h={28} w={240} />
        <Skeleton h={160} />
      </Stack>
    );
  }
  if (location.isError) {
    return (
      <Stack align="flex-start">
        <Alert color="red" role="alert">
          {t('locations.loadError')}
        </Alert>
        <Button onClick={() => void location.refetch()}>{t('errors.retry')}</Button>
      </Stack>
    );
  }
  return children(location.data);
}
