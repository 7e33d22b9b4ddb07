import { Alert, Anchor, Button, Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Page } from '@/components/page';
import { paths } from '@/config/paths';
import { useLocations } from '@/features/locations';
import { TariffStatsView } from '@/features/tariffs';

/** `/stats/tariff/{id}`: "Tariffs balance" of a tariff of one of the user's locations. */
export function TariffStatsPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const locations = useLocations();
  const tariffId = Number(id);
  const location = locations.data?.find((l) => l.tariffs.some((x) => x.id === tariffId));
  const tariff = location?.tariffs.find((x) => x.id === tariffId);
  let body: React.ReactNode;
  if (locations.isPending) body = <Skeleton h={300} aria-busy aria-label={t('app.loading')} />;
  else if (locations.isError)
    body = (
      <Stack align="flex-start">
        <Alert color="red" role="alert">
          {t('errors.generic')}
        </Alert>
        <Button onClick={() => void locations.refetch()}>{t('errors.retry')}</Button>
      </Stack>
    );
  else if (!location || !tariff)
    body = (
      <Stack align="flex-start">
        <Alert color="gray" variant="light" role="alert">
          {t('tariffs.notFound')}
        </Alert>
        <Anchor component={Link} to={paths.locations}>
          {t('locations.backToList')}
        </Anchor>
      </Stack>
    );
  else body = <TariffStatsView key={tariff.id} tariff={tariff} location={location} locations={locations.data} />;
  return <Page titleKey="titles.tariffsBalance">{body}</Page>;
}
