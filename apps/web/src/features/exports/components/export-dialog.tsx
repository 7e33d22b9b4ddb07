import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  Progress,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  addLocalDays,
  EXPORT_FORMATS,
  type ExportFormat,
  type ExportJob,
  exportRequestSchema,
  localDate,
  READING_INTERVALS,
  type ReadingInterval,
  zonedTimeToUtc,
} from '@phasewatch/shared';
import { IconDownload, IconFileExport, IconPrinter } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DateField } from '@/components/ui/date-field';
import { useReadings } from '@/features/charts';
import { ApiError } from '@/lib/api-client';
import { storedTimezone } from '@/lib/auth-store';
import { effectiveTimezone, toZonedString } from '@/lib/dates';
import { useDevices } from '@/lib/devices-query';
import { fieldErrorText } from '@/lib/error-text';
import { parameterLabel } from '@/lib/quantities';
import { useCreateExport } from '../api/create-export';
import { downloadExport } from '../api/download-export';
import { useExports } from '../api/get-exports';
import { JobFailureReason } from '../job-failure';

export interface ExportDialogProps {
  opened: boolean;
  onClose(): void;
  /** The device of the page it was opened from; the analytics screen lets the user pick one. */
  deviceId?: number | null;
  /** The range shown on the page (local dates, both included), as the dialog's first choice. */
  from?: string;
  to?: string;
}

type Field = 'deviceId' | 'parameters' | 'from' | 'to' | 'fileName' | 'format' | 'interval';
type Errors = Partial<Record<Field, string>>;

const isDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));

const dayStart = (date: string, tz: string) => {
  const [y = 1970, m = 1, d = 1] = date.split('-').map(Number);
  return zonedTimeToUtc(tz, y, m, d);
};

/** A default file name: the device and the dates, without characters a file name may not hold. */
const defaultName = (device: string, from: string, to: string) =>
  `${device.replace(/[/\\:*?"<>|\p{Cc}]/gu, '-').trim() || 'export'} ${from}${to !== from ? ` – ${to}` : ''}`.slice(0, 100);

/**
 * The export dialog (spec sections 2, 5): parameters or all of them, a date range (required), a file name,
 * CSV or PDF (required), the interval, and print. The export runs in the background: the dialog shows
 * its progress and a download once ready (the app tells about it on any page too), and the recent exports.
 */
export default function ExportDialog({
  opened,
  onClose,
  deviceId: fixedDevice = null,
  from: initialFrom,
  to: initialTo,
}: ExportDialogProps) {
  const { t, i18n } = useTranslation();
  const tz = effectiveTimezone(storedTimezone());
  const today = localDate(Date.now(), tz);
  const devices = useDevices();
  const [deviceId, setDeviceId] = useState<number | null>(fixedDevice);
  // A device page keeps its range in the address: the dialog starts from it.
  const [search] = useSearchParams();
  const [from, setFrom] = useState(initialFrom ?? search.get('from') ?? search.get('date') ?? today);
  const [to, setTo] = useState(initialTo ?? search.get('to') ?? search.get('date') ?? today);
  const [all, setAll] = useState(false);
  const [parameters, setParameters] = useState<string[]>([]);
  const [format, setFormat] = useState<ExportFormat | ''>('');
  const [interval, setInterval] = useState<ReadingInterval>('1h');
  const [refused, setRefused] = useState<Refusal | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [startedId, setStartedId] = useState<string | null>(null);
  const create = useCreateExport();
  const exports = useExports(opened);

  const device = devices.data?.find((d) => d.id === deviceId) ?? null;
  const validDates = isDate(from) && isDate(to) && from <= to;
  const range = useMemo(
    () => (validDates ? { from: dayStart(from, tz), to: addLocalDays(dayStart(to, tz), 1, tz) } : null),
    [validDates, from, to, tz],
  );
  // What the device sent in the range: the parameters to choose from.
  const present = useReadings(
    { deviceId: deviceId ?? 0, from: range?.from ?? 0, to: range?.to ?? 1, interval: '24h' },
    opened && !!deviceId && !!range && range.to - range.from <= 20 * 366 * 86_400_000,
  );
  const available = useMemo(() => Object.keys(present.data?.series ?? {}), [present.data]);
  const name = fileName ?? defaultName(device?.name ?? '', from, to);

  const check = (): { ok: true; body: Parameters<typeof create.mutate>[0] } | { ok: false } => {
    const next: Errors = {};
    if (!deviceId) next.deviceId = 'validation.required';
    if (!from || !to) next.from = 'validation.dateRange';
    const body = {
      deviceId: deviceId ?? 0,
      parameters: all ? [] : parameters,
      allParameters: all,
      from: range ? new Date(range.from).toISOString() : from ? `${from}` : '',
      to: range ? new Date(range.to).toISOString() : to ? `${to}` : '',
      interval,
      format: format || undefined,
      fileName: name,
      language: i18n.language as 'en' | 'pl' | 'tr',
    };
    if (from && to && from > to) next.to = 'validation.dateOrder';
    const parsed = exportRequestSchema.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '') as Field;
        if (field && !next[field]) next[field] = issue.message;
      }
    }
    setErrors(next);
    return Object.keys(next).length === 0 ? { ok: true, body: body as Parameters<typeof create.mutate>[0] } : { ok: false };
  };

  const submit = () => {
    const c = check();
    if (!c.ok) return;
    setRefused(null);
    create.mutate(c.body, {
      onSuccess: (job) => setStartedId(job.id),
      onError: (err) => {
        if (err instanceof ApiError && err.status === 503) return setRefused({ kind: 'busy' });
        if (err instanceof ApiError && err.status === 429)
          return setRefused({ kind: 'limit', at: err.retryAfterSeconds === null ? null : Date.now() + err.retryAfterSeconds * 1000 });
        if (err instanceof ApiError && err.kind === 'http' && err.errors.length) {
          const next: Errors = {};
          for (const e of err.errors) if (e.field) next[e.field.split('.')[0] as Field] = fieldErrorText(e);
          setErrors(next);
          return;
        }
        notifications.show({ color: 'red', message: t('messages.exportFailed') });
      },
    });
  };

  const started = exports.data?.find((j) => j.id === startedId) ?? null;
  const err = (f: Field) => (errors[f] ? t(errors[f] as string) : undefined);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('exports.title')}
      size="lg"
      fullScreen={false}
      closeButtonProps={{ 'aria-label': t('widgets.close') }}
      data-export-dialog
    >
      <Stack gap="sm">
        {fixedDevice === null && (
          <Select
            label={t('exports.device')}
            placeholder={t('exports.pickDevice')}
            data={(devices.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))}
            value={deviceId ? String(deviceId) : null}
            onChange={(v) => {
              setDeviceId(v ? Number(v) : null);
              setParameters([]);
            }}
            error={err('deviceId')}
            required
            searchable
            name="deviceId"
          />
        )}
        {/* Side by side, or one under the other on a phone: a date in words needs the width. */}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="sm">
          <DateField
            label={t('exports.from')}
            value={isDate(from) ? from : null}
            onChange={(v) => v && setFrom(v)}
            error={err('from')}
            required
            name="from"
          />
          <DateField
            label={t('exports.to')}
            value={isDate(to) ? to : null}
            onChange={(v) => v && setTo(v)}
            error={err('to')}
            required
            name="to"
          />
        </SimpleGrid>
        <Checkbox label={t('exports.allParameters')} checked={all} onChange={(e) => setAll(e.currentTarget.checked)} name="allParameters" />
        <MultiSelect
          label={t('exports.parameters')}
          placeholder={present.isFetching ? t('app.loading') : available.length ? t('exports.pickParameters') : t('exports.noParameters')}
          data={available.map((p) => ({ value: p, label: `${parameterLabel(t, p)} (${p})` }))}
          value={all ? [] : parameters}
          onChange={setParameters}
          disabled={all}
          error={all ? undefined : err('parameters')}
          searchable
          clearable
          hidePickedOptions
          maxDropdownHeight={240}
          name="parameters"
          comboboxProps={{ withinPortal: true }}
        />
        <Group grow align="flex-start" wrap="wrap">
          <Select
            label={t('exports.interval')}
            data={READING_INTERVALS.map((i) => ({ value: i, label: t(`exports.intervals.${i}`) }))}
            value={interval}
            onChange={(v) => v && setInterval(v as ReadingInterval)}
            allowDeselect={false}
            error={err('interval')}
            name="interval"
            miw={150}
          />
          <TextInput
            label={t('exports.fileName')}
            value={name}
            onChange={(e) => setFileName(e.currentTarget.value)}
            error={err('fileName')}
            required
            name="fileName"
            miw={150}
          />
        </Group>
        <Radio.Group
          label={t('exports.format')}
          value={format}
          onChange={(v) => setFormat(v as ExportFormat)}
          error={err('format')}
          required
          name="format"
        >
          <Group mt={4}>
            {EXPORT_FORMATS.map((f) => (
              <Radio key={f} value={f} label={t(`exports.formats.${f}`)} />
            ))}
          </Group>
        </Radio.Group>
        <Group justify="space-between" mt="xs" wrap="wrap">
          <Button
            variant="default"
            leftSection={<IconPrinter size={16} />}
            onClick={() => {
              onClose();
              // After the dialog has closed: the page itself is printed, with its print stylesheet.
              setTimeout(() => window.print(), 300);
            }}
            data-print
          >
            {t('exports.print')}
          </Button>
          <Button leftSection={<IconFileExport size={16} />} onClick={submit} loading={create.isPending} data-export-submit>
            {t('exports.start')}
          </Button>
        </Group>
        {refused && <RefusedExport refused={refused} locale={i18n.language} tz={tz} />}
        {started && <StartedExport job={started} />}
        <RecentExports jobs={exports.data ?? []} loading={exports.isPending} locale={i18n.language} tz={tz} />
      </Stack>
    </Modal>
  );
}

/** Why the server did not start an export: its queue is full (503), or the user's hourly limit (429, until when). */
type Refusal = { kind: 'busy' } | { kind: 'limit'; at: number | null };

function RefusedExport({ refused, locale, tz }: { refused: Refusal; locale: string; tz: string }) {
  const { t } = useTranslation();
  if (refused.kind === 'busy')
    return (
      <Alert color="orange" role="alert" data-export-refused="busy">
        {t('messages.exportBusy')}
      </Alert>
    );
  const at = refused.at === null ? null : new Date(refused.at);
  const sameDay =
    at !== null && formatIn(at, locale, tz, { dateStyle: 'short' }) === formatIn(new Date(), locale, tz, { dateStyle: 'short' });
  return (
    <Alert color="orange" role="alert" data-export-refused="limit">
      {at === null
        ? t('figures.export.limitLater')
        : t('figures.export.limitAt', {
            time: formatIn(at, locale, tz, sameDay ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' }),
          })}
    </Alert>
  );
}

function formatIn(d: Date, locale: string, tz: string, opts: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(locale, { ...opts, timeZone: tz }).format(d);
}

function StartedExport({ job }: { job: ExportJob }) {
  const { t } = useTranslation();
  if (job.status === 'failed')
    return (
      <Alert color="red" role="alert">
        {t('messages.exportFailed')}
        <JobFailureReason error={job.error} />
      </Alert>
    );
  if (job.status !== 'done')
    return (
      <Stack gap={4} data-export-progress={job.status}>
        <Text size="sm">{t(`exports.status.${job.status}`)}</Text>
        <Progress value={Math.round(job.progress * 100)} animated aria-label={t('exports.progress')} />
      </Stack>
    );
  return (
    <Alert color="teal" title={t('messages.dataExported')} data-export-ready={job.id}>
      <Button size="xs" leftSection={<IconDownload size={14} />} onClick={() => void downloadExport(job)} data-download={job.id}>
        {t('exports.downloadNamed', { name: `${job.fileName}.${job.format}` })}
      </Button>
    </Alert>
  );
}

/** The user's recent exports: status, and a download while the file is kept. */
function RecentExports({ jobs, loading, locale, tz }: { jobs: ExportJob[]; loading: boolean; locale: string; tz: string }) {
  const { t } = useTranslation();
  const size = (n: number | null) =>
    n === null
      ? ''
      : n < 1024 * 1024
        ? `${Math.max(1, Math.round(n / 1024))} KB`
        : `${(n / 1024 / 1024).toLocaleString(locale, { maximumFractionDigits: 1 })} MB`;
  return (
    <Stack gap={4} mt="sm">
      <Text fw={600} size="sm">
        {t('exports.recent')}
      </Text>
      {jobs.length === 0 ? (
        <Text size="sm" c="dimmed">
          {loading ? t('app.loading') : t('exports.none')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={360}>
          <Table verticalSpacing={4} fz="sm" data-recent-exports>
            <Table.Tbody>
              {jobs.map((j) => (
                <Table.Tr key={j.id}>
                  <Table.Td>
                    <Text size="sm" fw={500} lineClamp={1}>
                      {j.fileName}.{j.format}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {j.deviceName} · {toZonedString(j.createdAt, tz, 'YYYY-MM-DD HH:mm')}
                      {j.size !== null ? ` · ${size(j.size)}` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    {j.status === 'done' ? (
                      <Button
                        size="compact-xs"
                        variant="light"
                        leftSection={<IconDownload size={12} />}
                        onClick={() => void downloadExport(j)}
                        aria-label={t('exports.downloadNamed', { name: `${j.fileName}.${j.format}` })}
                      >
                        {t('exports.download')}
                      </Button>
                    ) : (
                      <Badge color={j.status === 'failed' ? 'red' : 'gray'} variant="light">
                        {j.status === 'running' ? `${Math.round(j.progress * 100)} %` : t(`exports.status.${j.status}`)}
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Text size="xs" c="dimmed">
        {t('exports.kept')}
      </Text>
    </Stack>
  );
}
