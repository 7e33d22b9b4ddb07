import { Alert, Anchor, Button, Skeleton, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Page } from '@/components/page';
import { QueryLoader } from '@/components/query-loader';
import { paths } from '@/config/paths';
import { LocationForm, LocationList, LocationLoader, LocationView } from '@/features/locations';
import { TariffForm, usePresets, useTariff } from '@/features/tariffs';

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
  // A new tariff: nothing to load.
  if (tariffId === null && validId) return children(null);
  return (
    <QueryLoader
      query={tariff}
      invalid={!validId}
      notFound={{ text: t('tariffs.notFound'), back: { to: paths.locationView(locationId), text: t('tariffs.backToLocation') } }}
      skeleton={<Skeleton h={400} aria-busy aria-label={t('app.loading')} />}
      errorText={t('errors.generic')}
    >
      {children}
    </QueryLoader>
  );
}
