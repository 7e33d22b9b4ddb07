import { ActionIcon, Button, Card, Group, NumberInput, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { GROUP_AREAS, type TariffArea } from '@phasewatch/shared';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DateField } from '@/components/ui/date-field';
import { honestNumberProps } from '@/lib/number-input';
import { areaLabel } from '../format';
import { lastDayBefore, longDate } from '../price-dates';
import { addPrice, type PriceDraft } from '../tariff-draft';
import type { DraftFields } from './draft-fields';

/**
 * The price lists of the form, oldest first: each with its validity (from, and until the day before the next
 * list), a price per zone and the fixed monthly fee, and the energy part of each zone's price (prosumers).
 */
export function TariffPricesCard({ fields: { draft, update, error, touch }, today }: { fields: DraftFields; today: string }) {
  const { t, i18n } = useTranslation();
  const areas = GROUP_AREAS[draft.group];
  const sortedPrices = [...draft.prices].sort((a, b) => (a.validFrom < b.validFrom ? -1 : 1));
  // A list's last day (the day before the next list starts), in the user's language: "until 30 June 2026".
  const untilOf = (p: PriceDraft) => {
    const i = sortedPrices.indexOf(p);
    const next = sortedPrices[i + 1]?.validFrom;
    return next ? lastDayBefore(next, i18n.language) : undefined;
  };
  const shownDate = (iso: string) => longDate(iso, i18n.language);
  const setPrice = (key: string, patch: Partial<PriceDraft>) =>
    update({ ...draft, prices: draft.prices.map((p) => (p.key === key ? { ...p, ...patch } : p)) });
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb={4}>
        <Title order={2} size="h4">
          {t('tariffs.form.sectionPrices')}
        </Title>
        <Button
          variant="light"
          size="compact-sm"
          leftSection={<IconPlus size={14} />}
          onClick={() => update(addPrice(draft, today))}
          data-add-price
        >
          {t('tariffs.form.addPrice')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {t('tariffs.form.pricesHint')}
      </Text>
      {error('prices') && (
        <Text c="red" size="sm" role="alert">
          {error('prices')}
        </Text>
      )}
      <Stack gap="sm">
        {sortedPrices.map((p) => {
          const i = draft.prices.indexOf(p);
          const until = untilOf(p);
          const money = (
            f: 'area1' | 'area2' | 'area3' | 'fixedMonthly' | 'energyArea1' | 'energyArea2' | 'energyArea3',
            label: string,
          ) => (
            <NumberInput
              {...honestNumberProps(i18n.language)}
              label={label}
              name={`prices.${i}.${f}`}
              min={0}
              value={p[f] ?? ''}
              onChange={(v) => setPrice(p.key, { [f]: v })}
              onBlur={() => touch(`prices.${i}.${f}`)}
              error={error(`prices.${i}.${f}`)}
            />
          );
          return (
            <Paper key={p.key} withBorder p="sm" data-price-row={p.validFrom}>
              <Group justify="space-between" mb={6} wrap="nowrap">
                <Text size="sm" fw={600}>
                  {until
                    ? t('tariffs.form.validRange', { from: shownDate(p.validFrom), until })
                    : t('tariffs.form.validFromOn', { from: p.validFrom ? shownDate(p.validFrom) : '…' })}
                </Text>
                {draft.prices.length > 1 && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('tariffs.form.removePrice', { from: p.validFrom })}
                    onClick={() => update({ ...draft, prices: draft.prices.filter((x) => x.key !== p.key) })}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                )}
              </Group>
              <SimpleGrid cols={{ base: 2, sm: 2 + areas.length }}>
                <DateField
                  label={t('tariffs.form.validFrom')}
                  name={`prices.${i}.validFrom`}
                  required
                  value={p.validFrom || null}
                  onChange={(v) => {
                    setPrice(p.key, { validFrom: v ?? '' });
                    touch(`prices.${i}.validFrom`);
                  }}
                  error={error(`prices.${i}.validFrom`)}
                  popoverProps={{ zIndex: 300 }}
                />
                {areas.map((a: TariffArea) => (
                  <div key={a}>{money(`area${a}`, `${areaLabel(t, a, draft.group)} · ${draft.currency}/kWh`)}</div>
                ))}
                {money('fixedMonthly', `${t('tariffs.form.fixedMonthly')} · ${draft.currency}`)}
              </SimpleGrid>
              <SimpleGrid cols={{ base: 2, sm: 2 + areas.length }} mt={6} data-energy-parts>
                {areas.map((a: TariffArea) => (
                  <div key={a}>{money(`energyArea${a}`, `${t('prosumer.energyPart', { area: a })} · ${draft.currency}/kWh`)}</div>
                ))}
              </SimpleGrid>
              <Text size="xs" c="dimmed" mt={4}>
                {t('prosumer.energyPartHint')}
              </Text>
            </Paper>
          );
        })}
      </Stack>
    </Card>
  );
}
