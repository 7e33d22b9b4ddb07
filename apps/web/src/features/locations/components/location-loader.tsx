import { Skeleton, Stack } from '@mantine/core';
import type { Location } from '@phasewatch/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryLoader } from '@/components/query-loader';
import { paths } from '@/config/paths';
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
  return (
    <QueryLoader
      query={location}
      invalid={!valid}
      notFound={{ text: t('locations.notFound'), back: { to: paths.locations, text: t('locations.backToList') } }}
      skeleton={
        <Stack aria-busy aria-label={t('app.loading')}>
          <Skeleton h={28} w={240} />
          <Skeleton h={160} />
        </Stack>
      }
      errorText={t('locations.loadError')}
    >
      {children}
    </QueryLoader>
  );
}
