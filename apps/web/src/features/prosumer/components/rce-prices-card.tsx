import { Alert, Badge, Button, Card, FileInput, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { RCE_CSV_REFUSED_LISTED, type RceCsvResult, type RceDay } from '@phasewatch/shared';
import { IconUpload } from '@tabler/icons-react';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { useRceDays, useUploadRceCsv } from '../api';
import { monthLabel } from '../month-label';

/** Largest file the upload takes (the API's limit on `csv`, in characters; a CSV is ASCII). */
const MAX_CSV = 900_000;
/** RCE business days are Polish dates; the upload's range is shown on that clock. */
const RCE_ZONE = 'Europe/Warsaw';
/** Incomplete days listed by date at most (the rest are counted). */
const LISTED_DAYS = 31;

const nextDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

/** A moment on the RCE clock, "2025-06-15 11:00". */
function polishTime(ms: number): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: RCE_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(ms)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** A day's state: every quarter-hour priced, some, or none. */
export function dayState(d: RceDay): 'complete' | 'partial' | 'missing' {
  return d.priced >= d.expected ? 'complete' : d.priced > 0 ? 'partial' : 'missing';
}

/** Per month: days complete, incomplete (partly or not priced), days with PSE's prices, days with the user's own. */
export function monthsOf(days: readonly RceDay[]) {
  const out = new Map<string, { month: string; complete: number; incomplete: number; imported: number; uploaded: number }>();
  for (const d of days) {
    const month = d.date.slice(0, 7);
    const m = out.get(month) ?? { month, complete: 0, incomplete: 0, imported: 0, uploaded: 0 };
    if (dayState(d) === 'complete') m.complete++;
    else m.incomplete++;
    if (d.imported > 0) m.imported++;
    if (d.uploaded > 0) m.uploaded++;
    out.set(month, m);
  }
  return [...out.values()];
}

/**
 * The RCE prices on the Prosumer tab (issue 33): which business days of the year have a price for every
 * quarter-hour and where they come from (PSE's daily import, the user's upload), and the upload of a CSV of
 * the user's own prices with its outcome (stored, refused lines with reasons, the time covered).
 */
export function RcePricesCard({ year, today, rceSince }: { year: number; today: string; rceSince: string | null }) {
  const { t, i18n } = useTranslation();
  const from = `${year}-01-01`;
  const end = `${year + 1}-01-01`;
  // Up to today: tomorrow's prices come in the afternoon and are no gap yet.
  const to = end < nextDate(today) ? end : nextDate(today);
  const days = useRceDays({ from, to });
  const months = useMemo(() => monthsOf(days.data?.days ?? []), [days.data]);
  // Days the location's hourly-RCE ledger needs that lack a price for some quarter-hour.
  const gaps = useMemo(
    () => (rceSince === null ? [] : (days.data?.days ?? []).filter((d) => d.date >= rceSince && dayState(d) !== 'complete')),
    [days.data, rceSince],
  );
  return (
    <Card withBorder padding="lg" data-rce-prices>
      <Title order={3} size="h4" mb="xs">
        {t('prosumer.rce.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('prosumer.rce.intro')}
      </Text>
      <Stack gap="md">
        {days.isPending && <Skeleton h={120} aria-busy aria-label={t('app.loading')} />}
        {days.isError && (
          <Alert color="red" data-rce-days-error>
            {t('prosumer.loadError')}
          </Alert>
        )}
        {days.data && (
          <>
            {rceSince !== null &&
              (gaps.length > 0 ? (
                <Alert color="yellow" data-rce-gaps title={t('prosumer.rce.gapsTitle', { count: gaps.length })}>
                  <Text size="sm">{t('prosumer.rce.gapsText')}</Text>
                  <Text size="sm" mt={4} data-rce-gap-days>
                    {gaps
                      .slice(0, LISTED_DAYS)
                      .map((d) => (dayState(d) === 'partial' ? `${d.date} (${d.priced}/${d.expected})` : d.date))
                      .join(', ')}
                    {gaps.length > LISTED_DAYS ? ` ${t('prosumer.rce.more', { count: gaps.length - LISTED_DAYS })}` : ''}
                  </Text>
                </Alert>
              ) : (
                <Alert color="teal" data-rce-complete>
                  {t('prosumer.rce.allPriced')}
                </Alert>
              ))}
            {months.length > 0 && (
              <section
                aria-label={t('prosumer.rce.coverage')}
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll region must take focus to be scrolled by keyboard
                tabIndex={0}
                style={{ overflowX: 'auto' }}
              >
                <Table striped data-rce-coverage miw={480}>
                  <Table.Caption>{t('prosumer.rce.coverageCaption')}</Table.Caption>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('prosumer.month')}</Table.Th>
                      <Table.Th style={{ textAlign: 'right' }}>{t('prosumer.rce.complete')}</Table.Th>
                      <Table.Th style={{ textAlign: 'right' }}>{t('prosumer.rce.incomplete')}</Table.Th>
                      <Table.Th style={{ textAlign: 'right' }}>{t('prosumer.rce.fromPse')}</Table.Th>
                      <Table.Th style={{ textAlign: 'right' }}>{t('prosumer.rce.uploaded')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {months.map((m) => (
                      <Table.Tr key={m.month} data-rce-month={m.month}>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{monthLabel(m.month, i18n.language)}</Table.Td>
                        <Table.Td data-field="complete" style={{ textAlign: 'right' }}>
                          {m.complete}
                        </Table.Td>
                        <Table.Td data-field="incomplete" style={{ textAlign: 'right' }}>
                          {m.incomplete > 0 ? (
                            <Badge color="yellow" variant="light">
                              {m.incomplete}
                            </Badge>
                          ) : (
                            0
                          )}
                        </Table.Td>
                        <Table.Td data-field="imported" style={{ textAlign: 'right' }}>
                          {m.imported}
                        </Table.Td>
                        <Table.Td data-field="uploaded" style={{ textAlign: 'right' }}>
                          {m.uploaded}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </section>
            )}
          </>
        )}
        <RceUpload />
      </Stack>
    </Card>
  );
}

/** The CSV upload: a file picker (a button, keyboard-operable), then what the server stored and refused. */
function RceUpload() {
  const { t } = useTranslation();
  const upload = useUploadRceCsv();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<RceCsvResult | null>(null);
  const [error, setError] = useState<UploadError | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setResult(null);
    setError(null);
    if (!file) {
      setError({ key: 'prosumer.rce.noFile' });
      return;
    }
    if (file.size > MAX_CSV) {
      setError({ key: 'prosumer.rce.tooLarge' });
      return;
    }
    let csv: string;
    try {
      csv = await readText(file);
    } catch {
      setError({ key: 'prosumer.rce.unreadable' });
      return;
    }
    upload.mutate(csv, {
      onSuccess: (r) => setResult(r),
      onError: (err) => setError(errorOf(err)),
    });
  };
  return (
    <form noValidate onSubmit={(e) => void submit(e)} aria-label={t('prosumer.rce.uploadTitle')} data-rce-upload>
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {t('prosumer.rce.uploadTitle')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('prosumer.rce.uploadHint')}
        </Text>
        <Group align="flex-end" wrap="wrap">
          <FileInput
            label={t('prosumer.rce.file')}
            placeholder={t('prosumer.rce.filePlaceholder')}
            accept=".csv,.txt,text/csv"
            value={file}
            onChange={(f) => {
              setFile(f);
              setResult(null);
              setError(null);
            }}
            leftSection={<IconUpload size={16} />}
            // Mantine's placeholder grey is too faint on white (axe color-contrast): the prompt in the text colour.
            styles={{ placeholder: { color: 'var(--mantine-color-text)' } }}
            style={{ flex: '1 1 240px' }}
          />
          <Button type="submit" variant="light" loading={upload.isPending}>
            {t('prosumer.rce.upload')}
          </Button>
        </Group>
        {error && (
          <Alert color="red" role="alert" data-rce-upload-error title={t('prosumer.rce.uploadFailed')}>
            {'text' in error ? error.text : t(error.key, { line: error.line, reason: error.reason ? t(error.reason) : '' })}
          </Alert>
        )}
        {result && <UploadResult result={result} />}
      </Stack>
    </form>
  );
}

/** Why an upload failed: a text key (with the CSV's first bad line and its reason when the server named one), or the server's words. */
type UploadError = { key: string; line?: string; reason?: string } | { text: string };

function errorOf(err: unknown): UploadError {
  if (!(err instanceof ApiError)) return { key: 'errors.generic' };
  if (err.status === 413) return { key: 'prosumer.rce.tooLarge' };
  const fe = err.errors.find((e) => e.field === 'csv') ?? err.errors[0];
  if (!fe) return err.message ? { text: err.message } : { key: 'errors.generic' };
  const line = /line (\d+)/.exec(fe.message)?.[1];
  if (line) return { key: 'prosumer.rce.badLine', line, reason: fe.key ?? 'prosumer.errors.csv' };
  return fe.key ? { key: fe.key } : { text: fe.message };
}

function UploadResult({ result }: { result: RceCsvResult }) {
  const { t } = useTranslation();
  return (
    <Alert
      color={result.refused > 0 ? 'yellow' : 'teal'}
      data-rce-upload-result
      title={t('prosumer.rce.stored', { count: result.imported })}
    >
      <Stack gap={6}>
        {result.from !== null && result.to !== null && (
          <Text size="sm" data-rce-range>
            {t('prosumer.rce.range', { from: polishTime(result.from), to: polishTime(result.to) })}
          </Text>
        )}
        {result.refused > 0 && (
          <>
            <Text size="sm" fw={600}>
              {t('prosumer.rce.refused', { count: result.refused })}
            </Text>
            <Table withRowBorders={false} data-rce-refused>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('prosumer.rce.line')}</Table.Th>
                  <Table.Th>{t('prosumer.rce.reason')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.refusedLines.map((r) => (
                  <Table.Tr key={r.line}>
                    <Table.Td>{r.line}</Table.Td>
                    <Table.Td>{t(`prosumer.rce.reasons.${r.reason}`)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {result.refused > result.refusedLines.length && (
              <Text size="xs" c="dimmed">
                {t('prosumer.rce.moreRefused', { count: result.refused - result.refusedLines.length, listed: RCE_CSV_REFUSED_LISTED })}
              </Text>
            )}
          </>
        )}
      </Stack>
    </Alert>
  );
}
