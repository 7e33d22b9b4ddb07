import { Alert, Button, FileInput, Group, Paper, Progress, Radio, Select, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import {
  IMPORT_FORMATS,
  type IMPORT_UNITS,
  type ImportFormat,
  type ImportJob,
  type ImportMapping,
  PARAMETER_NAMES,
  parameterInfo,
} from '@phasewatch/shared';
import { IconFileImport, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Page } from '@/components/page';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { storedTimezone } from '@/lib/auth-store';
import { useDevices } from '@/lib/devices-query';
import { dateTimeFormat } from '@/lib/intl';
import { effectiveTimezone } from '@/lib/timezone';
import { useCreateImport, useImport } from '../api/imports';

/** What a column of a generic file becomes: the time, a parameter (with its unit), or nothing. */
interface ColumnChoice {
  role: 'skip' | 'time' | 'parameter';
  parameter: string | null;
  unit: string | null;
}

/** The header line of a file (its first 64 KiB), split as the server splits it. */
async function headerOf(file: File): Promise<string[]> {
  const text = await file.slice(0, 64 * 1024).text();
  const line = (text.split(/\r?\n/)[0] ?? '').replace(/^\uFEFF/, '');
  const counts = [',', ';', '\t'].map((d) => line.split(d).length);
  const delimiter = [',', ';', '\t'][counts.indexOf(Math.max(...counts))] as string;
  return line.split(delimiter).map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
}

function mappingOf(columns: string[], choices: ColumnChoice[], zone: string): ImportMapping | undefined {
  const time = columns.find((_, i) => choices[i]?.role === 'time');
  const mapped = columns.flatMap((column, i) => {
    const c = choices[i];
    if (c?.role !== 'parameter' || !c.parameter) return [];
    return [{ column, parameter: c.parameter, ...(c.unit ? { unit: c.unit as (typeof IMPORT_UNITS)[number] } : {}) }];
  });
  if (!time || mapped.length === 0) return undefined;
  return { time: { column: time, ...(zone === 'user' ? {} : { zone }) }, columns: mapped };
}

/** Units a parameter's column may be in (power W/kW, energy Wh/kWh; others as the catalogue has them). */
function unitsFor(parameter: string | null): string[] {
  const unit = parameter ? parameterInfo(parameter)?.unit : undefined;
  if (unit === 'W') return ['W', 'kW'];
  if (unit === 'kWh') return ['kWh', 'Wh'];
  return [];
}

/**
 * /import: a file, the device it belongs to and its format (a column mapping for a generic CSV), a dry
 * run's summary (rows, range, duplicates, refused lines, the zone of times without one), then the import
 * with its progress.
 */
export function ImportPage() {
  const { t, i18n } = useTranslation();
  const devices = useDevices();
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const [format, setFormat] = useState<ImportFormat>('phasewatch');
  const [file, setFile] = useState<File | null>(null);
  const [columns, setColumns] = useState<string[]>([]);
  /** A key per column (names may repeat). */
  const [columnKeys, setColumnKeys] = useState<string[]>([]);
  const [choices, setChoices] = useState<ColumnChoice[]>([]);
  const [zone, setZone] = useState('user');
  const [dryRunId, setDryRunId] = useState<string | null>(null);
  const [importId, setImportId] = useState<string | null>(null);
  const create = useCreateImport();
  const dry = useImport(dryRunId);
  const run = useImport(importId);
  const list = devices.data ?? [];
  const userZone = effectiveTimezone(storedTimezone());

  const reset = () => {
    setDryRunId(null);
    setImportId(null);
    create.reset();
  };

  const pickFile = async (f: File | null) => {
    setFile(f);
    reset();
    if (!f) {
      setColumns([]);
      setColumnKeys([]);
      setChoices([]);
      return;
    }
    const header = await headerOf(f);
    setColumns(header);
    setColumnKeys(header.map((h, n) => `${n}:${h}`));
    setChoices(
      header.map((h, i) => {
        const name = h.replace(/\s*\[.*\]$/, '');
        if (i === 0) return { role: 'time', parameter: null, unit: null };
        if (PARAMETER_NAMES.includes(name)) return { role: 'parameter', parameter: name, unit: null };
        return { role: 'skip', parameter: null, unit: null };
      }),
    );
  };

  const mapping = format === 'generic' ? mappingOf(columns, choices, zone) : undefined;
  const columnRows = columns.map((name, index) => ({
    name,
    index,
    key: columnKeys[index] ?? name,
    choice: choices[index] ?? { role: 'skip' as const, parameter: null, unit: null },
  }));
  const ready = deviceId !== null && file !== null && (format !== 'generic' || mapping !== undefined);

  const start = (dryRun: boolean) => {
    if (!ready || !file) return;
    create.mutate(
      { file, deviceId: Number(deviceId), format, mapping, dryRun },
      {
        onSuccess: ({ id }) => {
          if (dryRun) {
            setDryRunId(id);
            setImportId(null);
          } else setImportId(id);
        },
      },
    );
  };

  const fmt = (iso: string | null) =>
    iso ? dateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short', timeZone: userZone }).format(new Date(iso)) : '–';

  const setChoice = (i: number, patch: Partial<ColumnChoice>) =>
    setChoices((cs) =>
      cs.map((c, k) => {
        if (k === i) return { ...c, ...patch };
        // One time column.
        if (patch.role === 'time' && c.role === 'time') return { ...c, role: 'skip' };
        return c;
      }),
    );

  if (devices.isPending)
    return (
      <Page titleKey="integrations.import.title">
        <Skeleton h={240} role="status" aria-busy aria-label={t('app.loading')} />
      </Page>
    );
  if (devices.isError)
    return (
      <Page titleKey="integrations.import.title">
        <Alert color="red" role="alert">
          {t('integrations.import.loadError')}
        </Alert>
      </Page>
    );
  if (list.length === 0)
    return (
      <Page titleKey="integrations.import.title">
        <Stack align="flex-start">
          <Text c="dimmed">{t('integrations.import.noDevices')}</Text>
          <Button component={Link} to={paths.dashboard} variant="light">
            {t('integrations.import.toDashboard')}
          </Button>
        </Stack>
      </Page>
    );

  const createError = create.error instanceof ApiError ? create.error : null;
  const running = create.isPending || dry.data?.status === 'queued' || dry.data?.status === 'running';

  return (
    <Page titleKey="integrations.import.title">
      <Text c="dimmed" maw={720}>
        {t('integrations.import.intro')}
      </Text>
      <Paper withBorder p="md" radius="md">
        <Stack gap="md" maw={720}>
          <Select
            label={t('integrations.import.device')}
            placeholder={t('integrations.import.devicePlaceholder')}
            data={list.map((d) => ({ value: String(d.id), label: d.name }))}
            value={deviceId}
            onChange={(v) => {
              setDeviceId(v);
              reset();
            }}
            searchable
            required
          />
          <Radio.Group
            label={t('integrations.import.format')}
            value={format}
            onChange={(v) => {
              setFormat(v as ImportFormat);
              reset();
            }}
          >
            <Stack gap={6} mt={4}>
              {IMPORT_FORMATS.map((f) => (
                <Radio
                  key={f}
                  value={f}
                  label={t(`integrations.import.formats.${f}`)}
                  description={t(`integrations.import.formatHints.${f}`)}
                />
              ))}
            </Stack>
          </Radio.Group>
          <FileInput
            label={t('integrations.import.file')}
            placeholder={t('integrations.import.filePlaceholder')}
            description={t('integrations.import.fileHint')}
            accept=".csv,.txt,.gz,text/csv"
            value={file}
            onChange={(f) => void pickFile(f)}
            leftSection={<IconUpload size={16} />}
            clearable
            required
          />
          {format === 'generic' && columns.length > 0 && (
            <Stack gap="xs">
              <Title order={2} size="h4">
                {t('integrations.import.mapping')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('integrations.import.mappingHint')}
              </Text>
              <Table.ScrollContainer minWidth={480}>
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('integrations.import.column')}</Table.Th>
                      <Table.Th>{t('integrations.import.meaning')}</Table.Th>
                      <Table.Th>{t('integrations.import.unit')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {columnRows.map(({ name: c, key, index: i, choice }) => {
                      const value = choice.role === 'parameter' ? (choice.parameter ?? 'skip') : choice.role;
                      const units = unitsFor(choice.parameter);
                      return (
                        <Table.Tr key={key}>
                          <Table.Td>{c || '–'}</Table.Td>
                          <Table.Td>
                            <Select
                              aria-label={t('integrations.import.meaningOf', { column: c })}
                              data={[
                                { value: 'skip', label: t('integrations.import.skip') },
                                { value: 'time', label: t('integrations.import.time') },
                                ...PARAMETER_NAMES.map((p) => ({ value: p, label: `${p} [${parameterInfo(p)?.unit ?? ''}]` })),
                              ]}
                              value={value}
                              searchable
                              allowDeselect={false}
                              onChange={(v) =>
                                setChoice(
                                  i,
                                  v === 'skip' || v === 'time'
                                    ? { role: v, parameter: null, unit: null }
                                    : { role: 'parameter', parameter: v, unit: unitsFor(v)[0] ?? null },
                                )
                              }
                            />
                          </Table.Td>
                          <Table.Td>
                            {units.length > 0 ? (
                              <Select
                                aria-label={t('integrations.import.unitOf', { column: c })}
                                data={units}
                                value={choice.unit}
                                allowDeselect={false}
                                onChange={(v) => setChoice(i, { unit: v })}
                              />
                            ) : (
                              '–'
                            )}
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <Select
                label={t('integrations.import.zone')}
                data={[
                  { value: 'user', label: t('integrations.import.zoneUser', { zone: userZone }) },
                  { value: 'UTC', label: 'UTC' },
                ]}
                value={zone}
                allowDeselect={false}
                onChange={(v) => {
                  setZone(v ?? 'user');
                  reset();
                }}
              />
              {!mapping && (
                <Text size="sm" c="orange">
                  {t('integrations.import.mappingIncomplete')}
                </Text>
              )}
            </Stack>
          )}
          <Group>
            <Button onClick={() => start(true)} disabled={!ready || running} loading={create.isPending && !dryRunId} variant="light">
              {t('integrations.import.check')}
            </Button>
          </Group>
          {createError && (
            <Alert color="red" role="alert">
              {createError.errors[0]?.key ? t(createError.errors[0].key) : createError.message}
            </Alert>
          )}
        </Stack>
      </Paper>

      {dryRunId && (
        <Paper withBorder p="md" radius="md" aria-live="polite">
          <Title order={2} size="h4" mb="sm">
            {t('integrations.import.dryRunTitle')}
          </Title>
          <ImportSummaryView job={dry.data} fmt={fmt} error={dry.isError} />
          {dry.data?.status === 'done' && !dry.data.problem && dry.data.imported > 0 && !importId && (
            <Button mt="md" leftSection={<IconFileImport size={16} />} onClick={() => start(false)} loading={create.isPending}>
              {t('integrations.import.run', { count: dry.data.imported })}
            </Button>
          )}
        </Paper>
      )}

      {importId && (
        <Paper withBorder p="md" radius="md" aria-live="polite">
          <Title order={2} size="h4" mb="sm">
            {t('integrations.import.runTitle')}
          </Title>
          <ImportSummaryView job={run.data} fmt={fmt} error={run.isError} />
          {run.data?.status === 'done' && deviceId && (
            <Button mt="md" component={Link} to={paths.deviceOverview(deviceId)} variant="light">
              {t('integrations.import.toDevice')}
            </Button>
          )}
        </Paper>
      )}
    </Page>
  );
}

function ImportSummaryView({ job, fmt, error }: { job: ImportJob | undefined; fmt: (iso: string | null) => string; error: boolean }) {
  const { t } = useTranslation();
  if (error)
    return (
      <Alert color="red" role="alert">
        {t('integrations.import.statusError')}
      </Alert>
    );
  if (!job || job.status === 'queued' || job.status === 'running')
    return (
      <Stack gap="xs">
        <Text size="sm">{t(job?.status === 'running' ? 'integrations.import.reading' : 'integrations.import.queued')}</Text>
        <Progress
          value={Math.round((job?.progress ?? 0) * 100)}
          animated
          aria-label={t('integrations.import.progress')}
          role="progressbar"
          aria-valuenow={Math.round((job?.progress ?? 0) * 100)}
        />
        {job && job.rows > 0 && <Text size="sm">{t('integrations.import.rowsSoFar', { count: job.rows })}</Text>}
      </Stack>
    );
  if (job.status === 'failed')
    return (
      <Alert color="red" role="alert">
        {t('integrations.import.failed')}
      </Alert>
    );
  if (job.problem)
    return (
      <Alert color="orange" role="alert" title={t('integrations.import.cannotRead')}>
        <Text size="sm">{t(job.problem.key, { value: job.problem.value ?? '', column: job.problem.column ?? '' })}</Text>
        <Text size="sm" mt="xs">
          {t('integrations.import.columnsFound', { columns: job.columns.join(', ') || '–' })}
        </Text>
      </Alert>
    );
  return (
    <Stack gap="xs" data-testid="import-summary">
      <Table variant="vertical" layout="fixed" withTableBorder>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w="45%">{t('integrations.import.rows')}</Table.Th>
            <Table.Td data-testid="import-rows">{job.rows}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{job.dryRun ? t('integrations.import.wouldImport') : t('integrations.import.imported')}</Table.Th>
            <Table.Td data-testid="import-imported">{job.imported}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('integrations.import.duplicates')}</Table.Th>
            <Table.Td>{job.duplicates}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('integrations.import.refused')}</Table.Th>
            <Table.Td>{job.refusedCount}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('integrations.import.range')}</Table.Th>
            <Table.Td>
              {fmt(job.from)} – {fmt(job.to)}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('integrations.import.parameters')}</Table.Th>
            <Table.Td>{job.parameters.join(', ') || '–'}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {job.localTimes && (
        <Text size="sm" c="dimmed">
          {t('integrations.import.localTimes', { zone: job.timezone })}
        </Text>
      )}
      {job.refused.length > 0 && (
        <Table.ScrollContainer minWidth={360}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={90}>{t('integrations.import.line')}</Table.Th>
                <Table.Th>{t('integrations.import.reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {job.refused.map((r) => (
                <Table.Tr key={r.line}>
                  <Table.Td>{r.line}</Table.Td>
                  <Table.Td>{t(r.key, { value: r.value ?? '', column: r.column ?? '', defaultValue: r.reason })}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
