import { Alert, Anchor, Button, Skeleton, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Page } from '@/components/page';
import { paths } from '@/config/paths';
import { LocationForm, LocationList, LocationLoader, LocationView } from '@/features/locations';
import { TariffForm, usePresets, useTariff } from '@/features/tariffs';
import { ApiError } from '@/lib/api-client';

/** `/locations`: "Location list". */
export function LocationListPage() {
  const { t } = useTranslation();
  return (
    <Page
      titleKey="titles.locationList"
      actions={
        <Button component={Link} to={paths.locationEdit(paths.newId)} leftSection={<IconPlus size={18} />}>
          {t('locations.add')}
        </Button>
      }
    >
      <LocationList />
    </Page>
  );
}

/** `/locations/view/{id}`. */
export function LocationViewPage() {
  const { id } = useParams();
  return (
    <Page titleKey="titles.locations">
      <LocationLoader id={id}>{(location) => <LocationView location={location} />}</LocationLoader>
    </Page>
  );
}

/** `/locations/edit/{id}`, and `/locations/edit/new` for a new one. */
export function LocationEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  return (
    <Page titleKey="titles.locations">
      <Text c="dimmed" mt={-8}>
        {t(id === paths.newId ? 'locations.form.newTitle' : 'locations.form.editTitle')}
      </Text>
      {id === paths.newId ? (
        <LocationForm location={null} />
      ) : (
        <LocationLoader id={id}>{(location) => <LocationForm location={location} />}</LocationLoader>
      )}
    </Page>
  );
}

/** `/locations/tariff-edit/{locationId}/{tariffId}`, and `…/new` for a new tariff of the location. */
export function LocationTariffEditPage() {
  const { t } = useTranslation();
  const { locationId, tariffId } = useParams();
  const isNew = tariffId === paths.newId;
  const tid = Number(tariffId);
  const presets = usePresets();
  return (
    <Page titleKey="titles.locations">
      <LocationLoader id={locationId}>
        {(location) => (
          <TariffEditor
            locationId={location.id}
            tariffId={isNew ? null : tid}
            validId={isNew || (Number.isInteger(tid) && tid > 0 && String(tid) === tariffId)}
          >
            {(tariff) =>
              presets.data ? (
                <>
                  <Text c="dimmed" mt={-8}>
                    <Anchor component={Link} to={paths.locationView(location.id)} fw={600}>
                      {location.name}
                    </Anchor>
                    {' · '}
                    {tariff ? tariff.name : t('tariffs.form.newTitle')}
                  </Text>
                  <TariffForm location={location} tariff={tariff} presets={presets.data} />
                </>
              ) : presets.isError ? (
                <Alert color="red">{t('errors.generic')}</Alert>
              ) : (
                <Skeleton h={400} aria-busy aria-label={t('app.loading')} />
              )
            }
          </TariffEditor>
        )}
      </LocationLoader>
    </Page>
  );
}

function TariffEditor({
  locationId,
  tariffId,
  validId,
  children,
}: {
  locationId: number;
  tariffId: number | null;
  validId: boolean;
  children: (tariff: import('@phasewatch/shared').Tariff | null) => React.ReactNode;
}) {
  const { t } = useTranslation();
  const tariff = useTariff(locationId, tariffId ?? 0, tariffId !== null && validId);
  if (!validId || (tariff.isError && tariff.error instanceof ApiError && tariff.error.status === 404)) {
    return (
      <Stack align="flex-start">
        <Alert color="gray" variant="light" role="alert">
          {t('tariffs.notFound')}
        </Alert>
        <Anchor component={Link} to={paths.locationView(locationId)}>
          {t('tariffs.backToLocation')}
        </Anchor>
      </Stack>
    );
  }
  if (tariffId === null) return children(null);
  if (tariff.isPending) return <Skeleton h={400} aria-busy aria-label={t('app.loading')} />;
  if (tariff.isError) {
    return (
      <Stack align="flex-start">
        <Alert color="red" role="alert">
          {t('errors.generic')}
        </Alert>
        <Button onClick={() => void tariff.refetch()}>{t('errors.retry')}</Button>
      </Stack>
    );
  }
  return children(tariff.data);
}
