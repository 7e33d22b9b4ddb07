import { Button, Group, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type Location, localDate, type Tariff, type TariffPresetInfo } from '@phasewatch/shared';
import { IconTrash } from '@tabler/icons-react';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ConfirmDelete } from '@/components/ui/confirm-delete';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { fieldErrorText } from '@/lib/error-text';
import { useDeleteTariff, useSaveTariff } from '../api/save-tariff';
import { draftIssues, draftOf, newDraft, requestOf, type TariffDraft } from '../tariff-draft';
import type { DraftFields } from './draft-fields';
import { SimulatedNote } from './simulated-note';
import { TariffPresetCard } from './tariff-preset-card';
import { TariffPricesCard } from './tariff-prices-card';
import { TariffScheduleCard } from './tariff-schedule-card';

/**
 * `/locations/tariff-edit/{locationId}/{tariffId|new}`: a tariff of a location — group and preset, the
 * zone schedule as a week grid per season, the meter's clock, statutory holidays, and the price history
 * with validity dates. Checked with the shared schema on every change (errors show once a field was left
 * or the form sent); Save sends the whole tariff.
 */
export function TariffForm({ location, tariff, presets }: { location: Location; tariff: Tariff | null; presets: TariffPresetInfo[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const today = localDate(Date.now(), location.timezone);
  const [draft, setDraft] = useState<TariffDraft>(() => {
    if (tariff) return draftOf(tariff);
    const country = location.timezone === 'Europe/Istanbul' ? 'TR' : 'PL';
    const first = presets.find((p) => p.country === country && (p.group === 'G12' || p.group === 'T3')) ?? presets[0];
    if (!first) throw new Error('no presets');
    return newDraft(first, `${today.slice(0, 8)}01`);
  });
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [sent, setSent] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [season, setSeason] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const save = useSaveTariff(location.id, tariff?.id ?? null);
  const remove = useDeleteTariff(location.id);

  const issues = useMemo(() => draftIssues(draft), [draft]);
  const touch = (path: string) => setTouched((s) => (s.has(path) ? s : new Set(s).add(path)));
  const error = (path: string) => {
    const key = serverErrors[path] ?? ((sent || touched.has(path)) && issues[path]);
    return key ? t(key, { defaultValue: key }) : undefined;
  };
  const update = (next: TariffDraft) => {
    setDraft(next);
    setServerErrors({});
  };
  const back = paths.locationView(location.id);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSent(true);
    if (Object.keys(issues).length > 0) {
      notifications.show({ color: 'red', message: t('messages.unableToSave') });
      return;
    }
    try {
      await save.mutateAsync(requestOf(draft));
      notifications.show({ color: 'teal', message: t('messages.dataSaved') });
      void navigate(back);
    } catch (err) {
      const byField: Record<string, string> = {};
      if (err instanceof ApiError) for (const fe of err.errors) if (fe.field) byField[fe.field] = fieldErrorText(fe);
      setServerErrors(byField);
      notifications.show({ color: 'red', message: t('messages.unableToSave') });
    }
  };

  const fields: DraftFields = { draft, update, error, touch };

  return (
    <form noValidate onSubmit={submit} aria-label={t('tariffs.form.title')}>
      <Stack gap="md">
        <TariffPresetCard fields={fields} presets={presets} onPresetChosen={() => setSeason(null)} />
        <TariffScheduleCard
          fields={fields}
          issues={issues}
          showErrors={sent || touched.has('schedule')}
          season={season}
          onSeason={setSeason}
          year={Number(today.slice(0, 4))}
        />
        <TariffPricesCard fields={fields} today={today} />

        <SimulatedNote />
        <Group justify="space-between" gap="sm">
          {tariff ? (
            <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={() => setConfirmDelete(true)}>
              {t('tariffs.form.delete')}
            </Button>
          ) : (
            <span />
          )}
          <Group gap="sm">
            <Button variant="default" component={Link} to={back}>
              {t('editDevice.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('editDevice.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
      {tariff && (
        <ConfirmDelete
          opened={confirmDelete}
          onClose={() => setConfirmDelete(false)}
          title={t('tariffs.form.deleteTitle', { name: tariff.name })}
          text={t('tariffs.form.deleteText', { devices: tariff.deviceCount })}
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(tariff.id, {
              onSuccess: () => {
                notifications.show({ color: 'teal', message: t('tariffs.deleted') });
                void navigate(back);
              },
              onError: () => notifications.show({ color: 'red', message: t('errors.generic') }),
            })
          }
        />
      )}
    </form>
  );
}
