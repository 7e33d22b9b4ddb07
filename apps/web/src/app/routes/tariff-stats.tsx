import { Skeleton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Page } from '@/components/page';
import { NotFoundNote, QueryLoader } from '@/components/query-loader';
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
  return (
    <Page titleKey="titles.tariffsBalance">
      <QueryLoader
        query={locations}
        skeleton={<Skeleton h={300} aria-busy aria-label={t('app.loading')} />}
        errorText={t('errors.generic')}
      >
        {(list) =>
          location && tariff ? (
            <TariffStatsView key={tariff.id} tariff={tariff} location={location} locations={list} />
          ) : (
            <NotFoundNote text={t('tariffs.notFound')} back={{ to: paths.locations, text: t('locations.backToList') }} />
          )
        }
      </QueryLoader>
    </Page>
  );
}
