import { Alert, Card, Group, MultiSelect, Pagination, Select, Skeleton, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import {
  CONSUMPTION_INTERVALS,
  CONSUMPTION_MAX_DEVICES,
  CONSUMPTION_MAX_RANGE_MS,
  CONSUMPTION_PAGE_SIZES,
  type ConsumptionInterval,
  type DeviceListItem,
  localDate,
} from '@phasewatch/shared';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_FIELD_WIDTH, DateField } from '@/components/ui/date-field';
import { formatChartValue } from '@/features/charts';
import { dateTimeFormat } from '@/lib/intl';
import { dateTimeRange, isDate, shiftDate } from '../analytics-dates';
import { useConsumption } from '../api/get-consumption';

/**
 * The datetime-range consumption table: energy per device and bucket (15 minutes … a month) with each
 * device's total and the total of all, sorted by any column and paged on the server.
 */
export function ConsumptionPanel({ devices, timezone }: { devices: DeviceListItem[]; timezone: string }) {
  const { t, i18n } = useTranslation();
  const today = localDate(Date.now(), timezone);
  const [ids, setIds] = useState<string[]>(() => devices.slice(0, 3).map((d) => String(d.id)));
  const [from, setFrom] = useState(shiftDate(today, -6, timezone));
  const [to, setTo] = useState(today);
  const [interval, setInterval] = useState<ConsumptionInterval>('24h');
  const [sort, setSort] = useState<{ key: string; dir: 'asc' | 'desc' }>({ key: 'time', dir: 'asc' });
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  // The spec's date-time range: each end a date and an optional time (from 00:00, to the end of the day).
  const [fromTime, setFromTime] = useState('');
  const [toTime, setToTime] = useState('');
  const span = isDate(from) && isDate(to) ? dateTimeRange(from, fromTime, to, toTime, timezone) : null;
  const valid = span !== null;
  const tooLong = !!span && span.to - span.from > CONSUMPTION_MAX_RANGE_MS[interval];
  const deviceIds = ids.map(Number);
  const q = useConsumption(
    { deviceIds, from: span?.from ?? 0, to: span?.to ?? 1, interval, sort: sort.key, dir: sort.dir, page, pageSize },
    !!span && !tooLong && deviceIds.length > 0,
  );
  const fmt = useMemo(() => {
    const opts: Intl.DateTimeFormatOptions =
      interval === 'month'
        ? { timeZone: timezone, month: 'long', year: 'numeric' }
        : interval === '24h'
          ? { timeZone: timezone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }
          : { timeZone: timezone, day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZoneName: 'shortOffset' };
    return dateTimeFormat(i18n.language, opts);
  }, [interval, timezone, i18n.language]);
  const value = (v: number | null) => (v === null ? '—' : formatChartValue(v, 'kWh', i18n.language));
  // What each device is at its location (issue 33): the total adds grid meters and separate supplies, never
  // production or a sub-meter under a listed grid meter (the server says which: `inTotal`).
  const roleOf = useMemo(() => new Map(devices.map((d) => [d.id, d.role])), [devices]);

  const header = (key: string, label: string, align: 'left' | 'right', note?: ReactNode) => {
    const active = sort.key === key;
    const Icon = active ? (sort.dir === 'asc' ? IconArrowUp : IconArrowDown) : IconSelector;
    return (
      <Table.Th
        key={key}
        ta={align}
        aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
        style={{ whiteSpace: 'nowrap' }}
      >
        <UnstyledButton
          onClick={() => {
            setSort((s) => ({ key, dir: s.key === key && s.dir === 'asc' ? 'desc' : key === 'time' ? 'asc' : 'desc' }));
            setPage(1);
          }}
          data-sort={key}
          style={{ fontWeight: 600, fontSize: 'inherit' }}
        >
          <Group gap={4} wrap="nowrap" justify={align === 'right' ? 'flex-end' : 'flex-start'}>
            {label}
            <Icon size={14} aria-hidden />
          </Group>
        </UnstyledButton>
        {note}
      </Table.Th>
    );
  };
  const deviceNote = (d: { id: number; inTotal?: boolean }) => {
    const role = roleOf.get(d.id);
    const out = d.inTotal === false;
    if (!role && !out) return undefined;
    return (
      <Text size="xs" c={out ? undefined : 'dimmed'} fw={out ? 600 : 400} data-device-role={role} data-in-total={String(!out)}>
        {[role ? t(`analytics.table.roles.${role}`) : null, out ? t('analytics.table.notInTotal') : null].filter(Boolean).join(' · ')}
      </Text>
    );
  };

  const data = q.data;
  let body: React.ReactNode;
  if (deviceIds.length === 0) body = <Text c="dimmed">{t('analytics.pickDevices')}</Text>;
  else if (!valid) body = <Alert color="yellow">{t(isDate(from) && isDate(to) ? 'validation.dateOrder' : 'validation.dateRange')}</Alert>;
  else if (tooLong) body = <Alert color="yellow">{t('messages.dateRangeTooLong')}</Alert>;
  else if (q.isError && !data) body = <Alert color="red">{t('analytics.loadError')}</Alert>;
  else if (!data) body = <Skeleton h={240} role="status" aria-busy aria-label={t('app.loading')} />;
  else
    body = (
      <>
        <Table.ScrollContainer minWidth={420}>
          <Table striped highlightOnHover verticalSpacing={4} fz="sm" style={{ fontVariantNumeric: 'tabular-nums' }} data-consumption-table>
            <Table.Caption>
              {t('analytics.table.caption', { unit: data.unit })}
              {data.devices.length > 1 && <TotalCaption devices={data.devices} roleOf={roleOf} />}
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                {header('time', t('analytics.table.time'), 'left')}
                {data.devices.map((d) => header(`device:${d.id}`, d.name, 'right', deviceNote(d)))}
                {data.devices.length > 1 && header('total', t('analytics.table.total'), 'right')}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.rows.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={data.devices.length + 2}>
                    <Text c="dimmed" size="sm">
                      {t('analytics.table.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {data.rows.map((r) => (
                <Table.Tr key={r.start} data-row-start={r.start}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{fmt.format(r.start)}</Table.Td>
                  {r.values.map((v, i) => (
                    <Table.Td
                      key={data.devices[i]?.id ?? i}
                      ta="right"
                      c={data.devices[i]?.inTotal === false ? 'dimmed' : undefined}
                      style={{ whiteSpace: 'nowrap' }}
                    >
                      {value(v)}
                    </Table.Td>
                  ))}
                  {data.devices.length > 1 && (
                    <Table.Td ta="right" fw={600} style={{ whiteSpace: 'nowrap' }}>
                      {value(r.total)}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th>{t('analytics.table.sum')}</Table.Th>
                {data.devices.map((d) => (
                  <Table.Th
                    key={d.id}
                    ta="right"
                    c={d.inTotal === false ? 'dimmed' : undefined}
                    style={{ whiteSpace: 'nowrap' }}
                    data-device-total={d.id}
                  >
                    {value(d.total)}
                  </Table.Th>
                ))}
                {data.devices.length > 1 && (
                  <Table.Th ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {value(data.total)}
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
        <Group justify="space-between" mt="xs" gap="xs" data-print-hide>
          <Text size="xs" c="dimmed">
            {t('charts.rows', { count: data.totalRows })}
          </Text>
          {data.totalRows > data.pageSize && (
            <Pagination
              size="sm"
              total={Math.ceil(data.totalRows / data.pageSize)}
              value={data.page}
              onChange={setPage}
              siblings={0}
              boundaries={1}
              getControlProps={(control) => ({ 'aria-label': t(`charts.page.${control}`) })}
              getItemProps={(p) => ({ 'aria-label': t('charts.page.number', { page: p }) })}
            />
          )}
        </Group>
      </>
    );

  return (
    <Stack gap="md">
      <Card withBorder padding="md" data-print-hide>
        <Group gap="md" align="flex-end" wrap="wrap">
          <MultiSelect
            label={t('analytics.devices')}
            data={devices.map((d) => ({ value: String(d.id), label: d.name }))}
            value={ids}
            onChange={(v) => {
              setIds(v.slice(0, CONSUMPTION_MAX_DEVICES));
              setPage(1);
            }}
            maxValues={CONSUMPTION_MAX_DEVICES}
            searchable
            w={320}
            name="devices"
          />
          <Group gap="md" align="flex-end" wrap="wrap">
            <DateField
              label={t('analytics.from')}
              value={isDate(from) ? from : null}
              onChange={(v) => {
                if (!v) return;
                setFrom(v);
                setPage(1);
              }}
              w={DATE_FIELD_WIDTH.sm}
              name="from"
            />
            <TimeInput
              label={t('figures.table.fromTime')}
              value={fromTime}
              onChange={(e) => {
                setFromTime(e.currentTarget.value);
                setPage(1);
              }}
              w={120}
              name="fromTime"
            />
            <DateField
              label={t('analytics.to')}
              value={isDate(to) ? to : null}
              onChange={(v) => {
                if (!v) return;
                setTo(v);
                setPage(1);
              }}
              w={DATE_FIELD_WIDTH.sm}
              name="to"
            />
            <TimeInput
              label={t('figures.table.toTime')}
              description={toTime ? undefined : t('figures.table.endOfDay')}
              value={toTime}
              onChange={(e) => {
                setToTime(e.currentTarget.value);
                setPage(1);
              }}
              w={120}
              name="toTime"
            />
          </Group>
          <Select
            label={t('analytics.table.interval')}
            data={CONSUMPTION_INTERVALS.map((i) => ({ value: i, label: t(`analytics.intervals.${i}`) }))}
            value={interval}
            onChange={(v) => {
              if (!v) return;
              setInterval(v as ConsumptionInterval);
              setPage(1);
            }}
            allowDeselect={false}
            w={140}
            name="interval"
          />
          <Select
            label={t('analytics.table.pageSize')}
            data={CONSUMPTION_PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
            value={String(pageSize)}
            onChange={(v) => {
              if (!v) return;
              setPageSize(Number(v));
              setPage(1);
            }}
            allowDeselect={false}
            w={130}
            name="pageSize"
          />
        </Group>
      </Card>
      <Card withBorder padding="md" aria-busy={q.isFetching || undefined}>
        {body}
      </Card>
    </Stack>
  );
}

/** The caption's account of the Total column: the devices it adds, and those shown but not added (with their role). */
function TotalCaption({ devices, roleOf }: { devices: { id: number; name: string; inTotal?: boolean }[]; roleOf: Map<number, string> }) {
  const { t } = useTranslation();
  const added = devices.filter((d) => d.inTotal !== false).map((d) => d.name);
  const left = devices
    .filter((d) => d.inTotal === false)
    .map((d) => {
      const role = roleOf.get(d.id);
      return role ? `${d.name} (${t(`analytics.table.roles.${role}`)})` : d.name;
    });
  return (
    <span data-total-caption>
      {' '}
      {t('analytics.table.totalAdds', { devices: added.join(', ') })}
      {left.length > 0 && ` ${t('analytics.table.totalLeavesOut', { devices: left.join(', ') })}`}
    </span>
  );
}
