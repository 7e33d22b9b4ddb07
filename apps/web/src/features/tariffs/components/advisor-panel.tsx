import { Alert, Badge, Card, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import type { AdvisorOption, Location } from '@phasewatch/shared';
import { IconAlertTriangle, IconBulb } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Segmented } from '@/components/ui/segmented';
import { errorTexts } from '@/lib/error-text';
import { usePhone } from '@/lib/use-phone';
import { useAdvisor } from '../api/get-tariff-stats';
import { formatKWh, formatMoney } from '../format';

/**
 * The tariff advisor: what the location's (or one device's) real readings would have cost under every
 * preset of its country, cheapest first, with the saving a year against the current tariff and the energy
 * that would have to move into the cheap zone for each of the others to win.
 */
export function AdvisorPanel({
  location,
  deviceId,
  period,
}: {
  location: Location;
  deviceId: number | null;
  period: { from: string; to: string } | null;
}) {
  const { t, i18n } = useTranslation();
  const phone = usePhone();
  const [mode, setMode] = useState<'year' | 'period'>('year');
  const advisor = useAdvisor(
    deviceId ? { deviceId } : { locationId: location.id },
    mode === 'period' ? period : null,
    mode === 'year' || period !== null,
  );
  const a = advisor.data;
  const money = (v: number, currency: string) => formatMoney(v, currency, i18n.language);
  const saving = (o: AdvisorOption) => {
    if (o.savingPerYear === null)
      return (
        <Text span c="dimmed">
          —
        </Text>
      );
    const s = o.savingPerYear;
    return (
      // One unit: the sign never wraps away from the amount.
      <Text span c={s > 0 ? 'teal' : s < 0 ? 'red' : undefined} fw={600} style={{ whiteSpace: 'nowrap' }} data-advisor-saving>
        {s > 0 ? '+' : ''}
        {money(s, o.currency)}
      </Text>
    );
  };
  const shift = (o: AdvisorOption, best: AdvisorOption | undefined) => {
    if (o.shiftKWhPerYear === 0) return t('tariffs.advisor.cheapest');
    if (o.shiftKWhPerYear === null) return t('tariffs.advisor.cannotWin');
    return t('tariffs.advisor.shift', {
      kwh: formatKWh(o.shiftKWhPerYear, i18n.language),
      pct:
        o.shiftShare !== null && o.shiftShare < 0.1 ? '< 0.1' : o.shiftShare?.toLocaleString(i18n.language, { maximumFractionDigits: 1 }),
      best: best ? `${best.operator} ${best.group}` : '',
    });
  };
  const badges = (o: AdvisorOption) => (
    <Group gap={4} wrap="wrap">
      <Badge size="xs" tt="none" variant="light" color={o.priceSource === 'tariff' ? 'teal' : 'gray'} style={{ maxWidth: 'none' }}>
        {t(o.priceSource === 'tariff' ? 'tariffs.advisor.yourPrices' : 'tariffs.advisor.referencePrices')}
      </Badge>
      {o.unconfirmed && (
        <Badge size="xs" tt="none" color="yellow" variant="light" style={{ maxWidth: 'none' }}>
          {t('tariffs.unconfirmed')}
        </Badge>
      )}
    </Group>
  );
  const name = (o: AdvisorOption) => (
    <Stack gap={2}>
      <Text span fw={600} style={{ whiteSpace: 'nowrap' }}>
        {o.operator} {o.group}
      </Text>
      {badges(o)}
    </Stack>
  );

  return (
    <Card withBorder padding="lg" data-advisor>
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Title order={2} size="h4">
          <IconBulb size={18} style={{ verticalAlign: -3, marginRight: 6 }} aria-hidden />
          {t('tariffs.advisor.title')}
        </Title>
        <Segmented
          size="xs"
          aria-label={t('tariffs.advisor.periodLabel')}
          value={mode}
          onChange={(v) => setMode(v)}
          data={[
            { value: 'year', label: t('tariffs.advisor.lastYear') },
            { value: 'period', label: t('tariffs.advisor.thisPeriod') },
          ]}
        />
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {t('tariffs.advisor.intro')}
      </Text>
      {advisor.isError && (
        <Alert color="red" role="alert">
          {errorTexts(advisor.error)
            .map((m) => t(m, { defaultValue: m }))
            .join(' ')}
        </Alert>
      )}
      {!a && !advisor.isError && <Skeleton h={160} aria-busy aria-label={t('app.loading')} />}
      {a && a.options.length === 0 && <Text c="dimmed">{t('tariffs.advisor.noData')}</Text>}
      {a && a.options.length > 0 && (
        <Stack gap="sm" style={{ opacity: advisor.isPlaceholderData ? 0.6 : 1 }}>
          <Text size="sm" data-advisor-basis>
            {t('tariffs.advisor.basis', { days: a.daysWithData, from: a.from, to: a.to, kwh: formatKWh(a.kWh, i18n.language) })}
          </Text>
          {a.costedFrom && (
            <Text size="sm" c="dimmed" data-advisor-rule>
              {t('figures.tariffs.rule', { date: a.costedFrom })}
            </Text>
          )}
          {a.current ? (
            <Text size="sm" data-advisor-current>
              {t('tariffs.advisor.current', {
                name: a.current.name,
                cost: money(a.current.totalCost, a.current.currency),
                year: money(a.current.annualCost, a.current.currency),
              })}
            </Text>
          ) : (
            <Text size="sm" c="dimmed">
              {t('tariffs.advisor.noCurrent')}
            </Text>
          )}
          {phone ? (
            <Stack gap="xs" data-advisor-options>
              {a.options.map((o, i) => (
                <Paper key={o.presetId} withBorder p="sm" data-option={o.presetId}>
                  <Group gap={6} wrap="nowrap" align="flex-start" mb={4}>
                    <Text span c="dimmed">
                      {i + 1}.
                    </Text>
                    {name(o)}
                  </Group>
                  <Text size="sm">
                    {t('tariffs.advisor.perYear')}: <b>{money(o.annualCost, o.currency)}</b> · {t('tariffs.advisor.saving')}: {saving(o)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {shift(o, a.options[0])}
                  </Text>
                </Paper>
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table highlightOnHover data-advisor-options>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>#</Table.Th>
                    <Table.Th>{t('tariffs.advisor.preset')}</Table.Th>
                    <Table.Th ta="right">{t('tariffs.advisor.inPeriod')}</Table.Th>
                    <Table.Th ta="right">{t('tariffs.advisor.perYear')}</Table.Th>
                    <Table.Th ta="right">{t('tariffs.advisor.saving')}</Table.Th>
                    <Table.Th>{t('tariffs.advisor.toWin')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {a.options.map((o, i) => (
                    <Table.Tr key={o.presetId} data-option={o.presetId}>
                      <Table.Td>{i + 1}</Table.Td>
                      <Table.Td>{name(o)}</Table.Td>
                      <Table.Td ta="right">{money(o.totalCost, o.currency)}</Table.Td>
                      <Table.Td ta="right">{money(o.annualCost, o.currency)}</Table.Td>
                      <Table.Td ta="right">{saving(o)}</Table.Td>
                      <Table.Td>
                        <Text size="xs">{shift(o, a.options[0])}</Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {a.options.some((o) => o.group === 'G12as') && (
            <Alert color="yellow" variant="light" icon={<IconAlertTriangle />}>
              {t('tariffs.g12asNote')}
            </Alert>
          )}
          <Text size="xs" c="dimmed">
            {t('tariffs.advisor.assumptions')}
          </Text>
        </Stack>
      )}
    </Card>
  );
}
