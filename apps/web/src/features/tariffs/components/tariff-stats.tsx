import { Alert, Anchor, Badge, Button, Card, Group, Select, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import {
  isoDate,
  type Location,
  localDate,
  MAX_TARIFF_PERIOD_DAYS,
  periodDays,
  type TariffArea,
  type TariffGroup,
  type TariffRef,
} from '@phasewatch/shared';
import { IconAlertTriangle, IconEdit } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DateField } from '@/components/ui/date-field';
import { paths } from '@/config/paths';
import { errorTexts } from '@/lib/error-text';
import { usePhone } from '@/lib/use-phone';
import { useTariffStats } from '../api/get-tariff-stats';
import { AREA_COLORS, areaLabel, formatKWh, formatMoney } from '../format';
import { AdvisorPanel } from './advisor-panel';
import { SimulatedNote } from './simulated-note';
import { ZoneChart } from './zone-chart';

const ymd = (s: string) => s.split('-').map(Number) as [number, number, number];
const plusDays = (date: string, n: number) => {
  const [y, m, d] = ymd(date);
  return isoDate(y, m, d + n);
};

/** Quick periods, as local dates `from` (inclusive) and `to` (exclusive). */
function quickPeriods(today: string) {
  const [y, m] = ymd(today);
  const tomorrow = plusDays(today, 1);
  return {
    thisMonth: { from: isoDate(y, m, 1), to: tomorrow },
    lastMonth: { from: isoDate(y, m - 1, 1), to: isoDate(y, m, 1) },
    last30: { from: plusDays(today, -29), to: tomorrow },
    thisYear: { from: isoDate(y, 1, 1), to: tomorrow },
    last12: { from: isoDate(y - 1, m, Number(today.slice(8)) + 1), to: tomorrow },
  };
}

/**
 * `/stats/tariff/{id}` ("Tariffs balance"): energy and cost per zone of the tariff's location (or one of
 * its devices) per local day and in total for a period kept in the URL, as a chart and a table, then the
 * advisor. Days are the location's (23 and 25 hours across DST).
 */
export function TariffStatsView({ tariff, location, locations }: { tariff: TariffRef; location: Location; locations: Location[] }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const phone = usePhone();
  const [search, setSearch] = useSearchParams();
  const today = localDate(Date.now(), location.timezone);
  const quick = quickPeriods(today);
  const from = search.get('from') ?? quick.thisMonth.from;
  const to = search.get('to') ?? quick.thisMonth.to;
  const deviceParam = Number(search.get('device'));
  const deviceId = location.devices.some((d) => d.id === deviceParam) ? deviceParam : null;
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to) && from < to;
  const tooLong = valid && periodDays(from, to) > MAX_TARIFF_PERIOD_DAYS;
  const stats = useTariffStats(tariff.id, { from, to, deviceId }, valid && !tooLong);
  const set = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    setSearch(next, { replace: true });
  };
  const group = tariff.group as TariffGroup;
  const tariffOptions = locations.flatMap((l) => l.tariffs.map((x) => ({ value: String(x.id), label: `${l.name} · ${x.name}` })));
  const data = stats.data;
  const money = (v: number) => formatMoney(v, data?.currency ?? 'PLN', i18n.language);
  // Days before the first price list are not costed: "—", never a cost of 0.
  const costed = (date: string) => !data?.costedFrom || date >= data.costedFrom;
  const dayMoney = (date: string, v: number) => (costed(date) ? money(v) : '—');

  return (
    <Stack gap="md">
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('tariffs.stats.tariff')}
              data={tariffOptions}
              value={String(tariff.id)}
              allowDeselect={false}
              onChange={(v) => v && void navigate(`${paths.tariffStats(v)}?${search}`)}
            />
            <Select
              label={t('tariffs.stats.devices')}
              data={[
                { value: 'all', label: t('tariffs.stats.allDevices', { location: location.name }) },
                ...location.devices.map((d) => ({ value: String(d.id), label: d.name })),
              ]}
              value={deviceId ? String(deviceId) : 'all'}
              allowDeselect={false}
              onChange={(v) => set({ device: v === 'all' ? null : v })}
            />
          </SimpleGrid>
          <Group gap="xs" wrap="wrap" role="group" aria-label={t('tariffs.stats.quick')}>
            {(Object.keys(quick) as (keyof typeof quick)[]).map((k) => {
              const active = quick[k].from === from && quick[k].to === to;
              return (
                <Button key={k} size="compact-sm" variant={active ? 'filled' : 'light'} aria-pressed={active} onClick={() => set(quick[k])}>
                  {t(`tariffs.stats.periods.${k}`)}
                </Button>
              );
            })}
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }}>
            <DateField
              label={t('tariffs.stats.from')}
              name="from"
              value={valid ? from : null}
              onChange={(v) => v && set({ from: v })}
              popoverProps={{ zIndex: 300 }}
            />
            <DateField
              label={t('tariffs.stats.to')}
              name="to"
              value={valid ? plusDays(to, -1) : null}
              onChange={(v) => v && set({ to: plusDays(v, 1) })}
              error={!valid ? t('validation.dateOrder') : tooLong ? t('messages.dateRangeTooLong') : undefined}
              popoverProps={{ zIndex: 300 }}
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {t('tariffs.stats.zoneNote', { timezone: location.timezone })} {t(tariffClockNote(data?.clock))}
          </Text>
        </Stack>
      </Card>

      {stats.isError && (
        <Alert color="red" role="alert">
          {errorTexts(stats.error)
            .map((m) => t(m, { defaultValue: m }))
            .join(' ')}
        </Alert>
      )}
      {valid && !tooLong && !data && !stats.isError && <Skeleton h={260} aria-busy aria-label={t('app.loading')} />}

      {data && (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }} data-stats-summary style={{ opacity: stats.isPlaceholderData ? 0.6 : 1 }}>
            <Figure label={t('tariffs.stats.totalCost')} value={money(data.totalCost)} strong testId="totalCost" />
            <Figure label={t('tariffs.stats.energyCost')} value={money(data.energyCost)} testId="energyCost" />
            <Figure
              label={t('tariffs.stats.fixedCost')}
              value={money(data.fixedCost)}
              hint={t('tariffs.stats.fixedHint')}
              testId="fixedCost"
            />
            <Figure label={t('tariffs.stats.energy')} value={formatKWh(data.kWh, i18n.language)} testId="kWh" />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: data.zones.length }} data-stats-zones>
            {data.zones.map((z) => (
              <Card key={z.area} withBorder padding="sm" data-zone={z.area}>
                <Group gap={6} mb={2}>
                  <Badge color={AREA_COLORS[z.area as TariffArea]} variant="light">
                    {z.area}
                  </Badge>
                  <Text size="sm" fw={600}>
                    {areaLabel(t, z.area as TariffArea, group)}
                  </Text>
                </Group>
                <Text size="sm">
                  {formatKWh(z.kWh, i18n.language)} · {money(z.cost)}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('tariffs.stats.share', { pct: data.kWh > 0 ? Math.round((z.kWh / data.kWh) * 100) : 0 })}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
          {data.costedFrom && (
            <Text size="sm" c="dimmed" data-costing-rule>
              {t('figures.tariffs.rule', { date: data.costedFrom })}
            </Text>
          )}
          {data.unpricedKWh > 0 && (
            <Alert color="yellow" icon={<IconAlertTriangle />}>
              {t('tariffs.stats.unpriced', { kwh: formatKWh(data.unpricedKWh, i18n.language) })}{' '}
              <Anchor component={Link} to={paths.locationTariffEdit(location.id, tariff.id)}>
                {t('tariffs.stats.editPrices')}
              </Anchor>
            </Alert>
          )}
          {group === 'G12as' && (
            <Alert color="yellow" variant="light" icon={<IconAlertTriangle />}>
              {t('tariffs.g12asNote')}
            </Alert>
          )}
          <Card withBorder padding="lg">
            <Title order={2} size="h4" mb="sm">
              {t('tariffs.stats.perDay')} (kWh)
            </Title>
            {data.kWh === 0 ? <Text c="dimmed">{t('tariffs.stats.noData')}</Text> : <ZoneChart stats={data} group={group} />}
            <Group gap="md" mt="xs">
              {data.zones.map((z) => (
                <Group key={z.area} gap={4}>
                  <span
                    style={{
                      width: 12,
                      height: 12,
                      borderRadius: 2,
                      background: `var(--mantine-color-${AREA_COLORS[z.area as TariffArea]}-filled)`,
                    }}
                  />
                  <Text size="xs">{areaLabel(t, z.area as TariffArea, group)}</Text>
                </Group>
              ))}
            </Group>
            <Table.ScrollContainer minWidth={phone ? 0 : 560} mt="md" mah={480}>
              <Table striped stickyHeader data-stats-table fz={phone ? 'xs' : 'sm'}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('tariffs.stats.date')}</Table.Th>
                    {phone ? (
                      <Table.Th ta="right">{t('tariffs.stats.energy')}</Table.Th>
                    ) : (
                      data.zones.map((z) => (
                        <Table.Th key={z.area} ta="right">
                          {areaLabel(t, z.area as TariffArea, group)}
                        </Table.Th>
                      ))
                    )}
                    {!phone && <Table.Th ta="right">{t('tariffs.stats.fee')}</Table.Th>}
                    <Table.Th ta="right">{t('tariffs.stats.cost')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.days.map((d) => (
                    <Table.Tr key={d.date}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        {d.date}
                        {d.hours !== 24 && (
                          <Badge ml={6} size="xs" variant="light" color="gray" title={t('tariffs.stats.dstDay')}>
                            {d.hours} h
                          </Badge>
                        )}
                      </Table.Td>
                      {phone ? (
                        <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                          {d.zones.map((z) => (
                            <div key={z.area}>
                              <Text span size="xs" c="dimmed">
                                {z.area}:{' '}
                              </Text>
                              {formatKWh(z.kWh, i18n.language)}
                            </div>
                          ))}
                        </Table.Td>
                      ) : (
                        d.zones.map((z) => (
                          <Table.Td key={z.area} ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                            {formatKWh(z.kWh, i18n.language)}
                            <Text span size="xs" c="dimmed">
                              {' · '}
                              {dayMoney(d.date, z.cost)}
                            </Text>
                          </Table.Td>
                        ))
                      )}
                      {!phone && <Table.Td ta="right">{dayMoney(d.date, d.fixedCost)}</Table.Td>}
                      <Table.Td
                        ta="right"
                        fw={600}
                        title={costed(d.date) ? undefined : t('figures.tariffs.notCosted')}
                        data-not-costed={costed(d.date) ? undefined : true}
                      >
                        {costed(d.date) ? money(d.cost) : t('figures.tariffs.notCosted')}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Text size="xs" c="dimmed" mt="xs">
              {t('tariffs.stats.rounding')}
            </Text>
          </Card>
        </>
      )}

      <AdvisorPanel location={location} deviceId={deviceId} period={valid && !tooLong ? { from, to } : null} />
      <Group justify="space-between">
        <SimulatedNote />
        <Button
          variant="subtle"
          size="compact-sm"
          component={Link}
          to={paths.locationTariffEdit(location.id, tariff.id)}
          leftSection={<IconEdit size={14} />}
        >
          {t('tariffs.stats.editTariff')}
        </Button>
      </Group>
    </Stack>
  );
}

const tariffClockNote = (clock: string | undefined) => (clock === 'cet' ? 'tariffs.clock.cetHint' : 'tariffs.clock.localHint');

function Figure({ label, value, hint, strong, testId }: { label: string; value: string; hint?: string; strong?: boolean; testId: string }) {
  return (
    <Card withBorder padding="sm" data-figure={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={strong ? 800 : 700} size={strong ? 'xl' : 'lg'} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Card>
  );
}
