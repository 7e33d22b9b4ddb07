import { Card, Group, Skeleton, Table, Text, Title } from '@mantine/core';
import { startOfLocalDay, startOfLocalMonth, startOfLocalYear } from '@phasewatch/shared';
import { IconScale } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Segmented } from '@/components/ui/segmented';
import { useReadings } from '@/features/charts';
import { formatQuantity } from '@/lib/quantities';
import { BALANCE_CARD_MIN_HEIGHT } from './balance-size';

const PARAMS = ['eai1', 'eai2', 'eai3', 'eae1', 'eae2', 'eae3', 'balance', 'balance_export'];
type Period = 'today' | 'month' | 'year';

/** Sum of a counter's energy per bucket (kWh), or null when the answer has none of it. */
function energy(series: Record<string, { kind: string; delta?: (number | null)[] }> | undefined, names: readonly string[]): number | null {
  let sum = 0;
  let seen = false;
  for (const n of names) {
    const s = series?.[n];
    if (s?.kind !== 'counter' || !s.delta) continue;
    seen = true;
    for (const d of s.delta) sum += d ?? 0;
  }
  return seen ? sum : null;
}

/**
 * The balanced (netted) energy the utility bills beside the sums of the per-phase counters, for today,
 * this month or this year. Shown for devices whose readings carry the balanced counters.
 */
export function BalanceCard({ deviceId, timezone }: { deviceId: number; timezone: string }) {
  const { t, i18n } = useTranslation();
  const [period, setPeriod] = useState<Period>('month');
  const [now] = useState(() => Date.now());
  const from =
    period === 'today'
      ? startOfLocalDay(now, timezone)
      : period === 'month'
        ? startOfLocalMonth(now, timezone)
        : startOfLocalYear(now, timezone);
  const q = useReadings({ deviceId, from, to: now + 60_000, interval: '24h', params: PARAMS });
  const series = q.data?.series as Record<string, { kind: string; delta?: (number | null)[] }> | undefined;
  const balanced = energy(series, ['balance']);
  if (q.isSuccess && balanced === null && energy(series, ['balance_export']) === null) return null;
  const kwh = (v: number | null) => (v === null ? '—' : formatQuantity(v, 'kWh', i18n.language));
  const rows = [
    { label: t('collectors.balance.import'), sum: energy(series, ['eai1', 'eai2', 'eai3']), net: balanced },
    { label: t('collectors.balance.export'), sum: energy(series, ['eae1', 'eae2', 'eae3']), net: energy(series, ['balance_export']) },
  ];
  return (
    <Card withBorder padding="lg" data-testid="balance-card" mih={BALANCE_CARD_MIN_HEIGHT}>
      <Group justify="space-between" mb="sm" gap="xs">
        <Group gap="xs" wrap="nowrap">
          <IconScale size={20} aria-hidden />
          <Title order={3} size="h5">
            {t('collectors.balance.title')}
          </Title>
        </Group>
        <Segmented<Period>
          size="xs"
          value={period}
          onChange={setPeriod}
          aria-label={t('collectors.balance.period')}
          data={(['today', 'month', 'year'] as const).map((p) => ({ value: p, label: t(`collectors.balance.${p}`) }))}
        />
      </Group>
      {q.isPending ? (
        <Skeleton h={90} />
      ) : (
        <Table withRowBorders={false} verticalSpacing={4} style={{ fontVariantNumeric: 'tabular-nums' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th />
              <Table.Th ta="right">{t('collectors.balance.sumOfPhases')}</Table.Th>
              <Table.Th ta="right">{t('collectors.balance.balanced')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.label}>
                <Table.Td>{r.label}</Table.Td>
                <Table.Td ta="right">{kwh(r.sum)}</Table.Td>
                <Table.Td ta="right" fw={700}>
                  {kwh(r.net)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Text size="xs" c="dimmed" mt="sm">
        {t('collectors.balance.explain')}
      </Text>
    </Card>
  );
}
