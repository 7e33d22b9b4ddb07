import { SimpleGrid, Skeleton, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatKWh, formatMoney } from '@/features/tariffs';
import { useLocationSummary } from '../api/get-location';

/** Energy and cost of a location this month (so far) and, unless compact, last month. */
export function LocationFigures({ locationId, compact }: { locationId: number; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const summary = useLocationSummary(locationId);
  if (summary.isPending) return <Skeleton h={compact ? 20 : 64} aria-busy aria-label={t('app.loading')} />;
  if (summary.isError)
    return (
      <Text size="sm" c="red">
        {t('locations.figuresError')}
      </Text>
    );
  const s = summary.data;
  const currency = s.tariff?.currency ?? 'PLN';
  const cost = (v: number | null) => (v === null ? t('locations.noTariffCost') : formatMoney(v, currency, i18n.language));
  if (compact) {
    return (
      <Text size="sm" data-month-figures>
        {t('locations.thisMonthShort', { kwh: formatKWh(s.thisMonth.kWh, i18n.language), cost: cost(s.thisMonth.totalCost) })}
      </Text>
    );
  }
  const period = (key: 'thisMonth' | 'lastMonth') => (
    <div data-period={key}>
      <Text size="xs" c="dimmed">
        {t(`locations.${key}`)}
      </Text>
      <Text fw={700} size="lg" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {cost(s[key].totalCost)}
      </Text>
      <Text size="sm">{formatKWh(s[key].kWh, i18n.language)}</Text>
      {s[key].totalCost !== null && (
        <Text size="xs" c="dimmed">
          {t('locations.costSplit', { energy: cost(s[key].energyCost), fee: cost(s[key].fixedCost) })}
        </Text>
      )}
    </div>
  );
  return (
    <SimpleGrid cols={2} data-location-figures>
      {period('thisMonth')}
      {period('lastMonth')}
    </SimpleGrid>
  );
}
