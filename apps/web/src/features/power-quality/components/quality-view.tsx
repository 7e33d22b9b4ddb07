import { ActionIcon, Alert, Badge, Button, Card, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { mondayOf, type PowerQualityResponse } from '@phasewatch/shared';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '@/components/ui/date-field';
import { ApiError } from '@/lib/api-client';
import { errorTexts } from '@/lib/error-text';
import { usePowerQuality } from '../api/get-power-quality';
import { addDays, formatDay, formatDuration, formatPercent, formatTime, formatVolts, VERDICT_COLORS } from '../format';
import { Histogram } from './histogram';
import { PhaseBars } from './phase-bars';
import { TrendChart } from './trend-chart';

/** A table that scrolls sideways on a phone; the scroll region is focusable so a keyboard can scroll it. */
function Scroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
    <section aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      {children}
    </section>
  );
}

/** The week picker: previous / next week and any day of a week (its Monday is asked for). */
function WeekPicker({ week, latest, onWeek }: { week: string; latest: string; onWeek: (w: string) => void }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap" data-week-picker>
      <ActionIcon variant="default" size="lg" aria-label={t('quality.previousWeek')} onClick={() => onWeek(addDays(week, -7))}>
        <IconChevronLeft size={18} />
      </ActionIcon>
      <DateField
        label={t('quality.week')}
        accessibleLabel={t('quality.pickDay')}
        value={week}
        onChange={(v) => v && onWeek(mondayOf(Date.parse(`${v}T12:00:00Z`), 'UTC'))}
        name="week"
        maxDate={addDays(latest, 6)}
        style={{ flex: 1, minWidth: 0 }}
      />
      <ActionIcon
        variant="default"
        size="lg"
        aria-label={t('quality.nextWeek')}
        disabled={week >= latest}
        onClick={() => onWeek(addDays(week, 7))}
      >
        <IconChevronRight size={18} />
      </ActionIcon>
    </Group>
  );
}

/** `/device/quality/{id}`: the EN 50160 weekly voltage report of a device. */
export function QualityView({
  deviceId,
  week,
  latest,
  onWeek,
  pdf,
}: {
  deviceId: number;
  week: string;
  latest: string;
  onWeek: (w: string) => void;
  pdf?: ReactNode;
}) {
  const { t } = useTranslation();
  const q = usePowerQuality(deviceId, week);
  let body: ReactNode;
  if (q.isPending) body = <Skeleton h={420} aria-busy aria-label={t('app.loading')} />;
  else if (q.isError) {
    const known = q.error instanceof ApiError && (q.error.status === 400 || q.error.status === 404);
    body = (
      <Stack align="flex-start" data-quality-error>
        <Alert color={known ? 'gray' : 'red'} variant="light" role="alert">
          {errorTexts(q.error).map((k) => (
            <div key={k}>{t(k)}</div>
          ))}
        </Alert>
        {!known && <Button onClick={() => void q.refetch()}>{t('errors.retry')}</Button>}
      </Stack>
    );
  } else body = <Report report={q.data} pdf={pdf} />;
  return (
    <Stack gap="md" aria-busy={q.isFetching}>
      <Alert color="yellow" variant="light" data-indicative>
        {t('quality.indicative')}
      </Alert>
      <WeekPicker week={week} latest={latest} onWeek={onWeek} />
      {body}
    </Stack>
  );
}

function Report({ report: r, pdf }: { report: PowerQualityResponse; pdf?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const tz = r.timezone;
  return (
    <Stack gap="md" data-quality-report data-verdict={r.verdict}>
      <Card withBorder>
        <Group justify="space-between" align="flex-start" gap="md">
          <Stack gap={4} style={{ minWidth: 0, flex: '1 1 16rem' }}>
            <Text size="sm" c="dimmed">
              {t('quality.weekOf', { from: formatDay(r.fromMs, lng, tz), to: formatDay(r.toMs - 1, lng, tz) })} ·{' '}
              {t('quality.timezone', { tz })}
            </Text>
            <Group gap="xs">
              <Badge size="lg" color={VERDICT_COLORS[r.verdict]} data-week-verdict={r.verdict}>
                {t(`quality.verdict.${r.verdict}`)}
              </Badge>
            </Group>
            <Text size="sm">{t(`quality.verdictHelp.${r.verdict}`)}</Text>
          </Stack>
          {pdf}
        </Group>
      </Card>

      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          {t('quality.bars')}
        </Title>
        <PhaseBars report={r} />
        <Scroll label={t('quality.table.caption')}>
          <Table mt="md" striped withTableBorder fz="sm" data-phase-table>
            <Table.Caption>{t('quality.table.caption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                {(['phase', 'n', 'n1', 'n2', 'invalid', 'flagged', 'min', 'p05', 'p95', 'max', 'verdict'] as const).map((k) => (
                  <Table.Th key={k}>{t(`quality.table.${k}`)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {r.phases.map((p) => (
                <Table.Tr key={p.phase}>
                  <Table.Td>{t('quality.phase', { phase: p.phase })}</Table.Td>
                  <Table.Td>{p.n}</Table.Td>
                  <Table.Td>{p.n1}</Table.Td>
                  <Table.Td>{p.n2}</Table.Td>
                  <Table.Td>{p.invalid}</Table.Td>
                  <Table.Td>{p.flagged}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatVolts(p.min, lng)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatVolts(p.p05, lng)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatVolts(p.p95, lng)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatVolts(p.max, lng)}</Table.Td>
                  <Table.Td>{t(`quality.verdict.${p.verdict}`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Scroll>
        <Text size="sm" mt="sm" data-frequency>
          {r.frequency
            ? t('quality.frequency', {
                share: formatPercent(r.frequency.withinShare, lng, 2),
                outside: r.frequency.outside47to52,
                min: r.frequency.min.toLocaleString(lng),
                max: r.frequency.max.toLocaleString(lng),
              })
            : t('quality.noFrequency')}
        </Text>
      </Card>

      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          {t('quality.trend')}
        </Title>
        <TrendChart report={r} />
      </Card>

      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          {t('quality.histogram')}
        </Title>
        <Histogram report={r} />
      </Card>

      <Card withBorder data-events>
        <Title order={2} size="h4" mb="xs">
          {t('quality.events')}
        </Title>
        <Text size="xs" c="dimmed" mb="xs">
          {t('quality.eventsNote', { seconds: r.intervalSeconds })}
        </Text>
        {r.events.length === 0 ? (
          <Text size="sm">{t('quality.noEvents')}</Text>
        ) : (
          <Scroll label={t('quality.events')}>
            <Table striped withTableBorder fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('quality.table.phase')}</Table.Th>
                  <Table.Th>{t('quality.event')}</Table.Th>
                  <Table.Th>{t('quality.start')}</Table.Th>
                  <Table.Th>{t('quality.duration')}</Table.Th>
                  <Table.Th>{t('quality.extreme')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.events.map((e) => (
                  <Table.Tr key={`${e.phase}-${e.kind}-${e.startMs}`} data-event={e.kind}>
                    <Table.Td>{t('quality.phase', { phase: e.phase })}</Table.Td>
                    <Table.Td>
                      {t(`quality.kind.${e.kind}`)}
                      {e.length ? ` (${t(`quality.length.${e.length}`)})` : ''}
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(e.startMs, lng, tz)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDuration(e.durationSeconds, lng)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatVolts(e.extreme, lng)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Scroll>
        )}
      </Card>

      <Card withBorder data-overvoltage>
        <Title order={2} size="h4" mb="xs">
          {t('quality.overvoltage')}
        </Title>
        <Text size="sm" c="dimmed" mb="xs">
          {t('quality.overvoltageHelp')}
        </Text>
        <Scroll label={t('quality.perDay')}>
          <Table withTableBorder fz="sm" mb="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('quality.day')}</Table.Th>
                {r.overvoltageDays.map((d) => (
                  <Table.Th key={d.date} style={{ whiteSpace: 'nowrap' }}>
                    {formatDay(Date.parse(`${d.date}T12:00:00Z`), lng, 'UTC')}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row">{t('quality.count')}</Table.Th>
                {r.overvoltageDays.map((d) => (
                  <Table.Td key={d.date} data-day={d.date} c={d.count > 0 ? 'red.9' : undefined}>
                    {d.count}
                  </Table.Td>
                ))}
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Scroll>
        {r.overvoltage.length === 0 ? (
          <Text size="sm">{t('quality.noOvervoltage')}</Text>
        ) : (
          <Scroll label={t('quality.overvoltage')}>
            <Table striped withTableBorder fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('quality.start')}</Table.Th>
                  <Table.Th>{t('quality.table.phase')}</Table.Th>
                  <Table.Th>{t('quality.value')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.overvoltage.map((o) => (
                  <Table.Tr key={`${o.phase}-${o.startMs}`} data-overvoltage-row>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(o.startMs, lng, tz)}</Table.Td>
                    <Table.Td>{t('quality.phase', { phase: o.phase })}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatVolts(o.value, lng)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Scroll>
        )}
      </Card>
      <Text size="xs" c="dimmed">
        {t('quality.method')}
      </Text>
    </Stack>
  );
}
