import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  GROUP_AREAS,
  HOLIDAY_CALENDARS,
  type HolidayCalendar,
  type Location,
  localDate,
  TARIFF_GROUPS,
  type Tariff,
  type TariffArea,
  type TariffClock,
  type TariffGroup,
  type TariffPresetInfo,
} from '@phasewatch/shared';
import { IconAlertTriangle, IconPlus, IconTrash } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ConfirmDelete } from '@/components/ui/confirm-delete';
import { DateField } from '@/components/ui/date-field';
import { Segmented } from '@/components/ui/segmented';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { fieldErrorText } from '@/lib/error-text';
import { honestNumberProps } from '@/lib/number-input';
import { useHolidays } from '../api/get-holidays';
import { useDeleteTariff, useSaveTariff } from '../api/save-tariff';
import { areaLabel } from '../format';
import { lastDayBefore, longDate } from '../price-dates';
import {
  addPrice,
  addSeason,
  applyPreset,
  changeGroup,
  draftIssues,
  draftOf,
  newDraft,
  type PriceDraft,
  removeSeason,
  requestOf,
  type TariffDraft,
} from '../tariff-draft';
import { PresetNotes } from './preset-notes';
import { SimulatedNote } from './simulated-note';
import { WeekGrid } from './week-grid';

const CURRENCIES = ['PLN', 'EUR', 'TRY', 'USD', 'GBP', 'CZK', 'CHF', 'HUF', 'RON', 'SEK', 'NOK', 'DKK', 'UAH'];

/**
 * `/locations/tariff-edit/{locationId}/{tariffId|new}`: a tariff of a location — group and preset, the
 * zone schedule as a week grid per season, the meter's clock, statutory holidays, and the price history
 * with validity dates. Checked with the shared schema on every change (errors show once a field was left
 * or the form sent); Save sends the whole tariff.
 */
export function TariffForm({ location, tariff, presets }: { location: Location; tariff: Tariff | null; presets: TariffPresetInfo[] }) {
  const { t, i18n } = useTranslation();
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
  const areas = GROUP_AREAS[draft.group];
  const preset = presets.find((p) => p.id === draft.presetId) ?? null;
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

  const groupPresets = presets.filter((p) => p.group === draft.group);
  const presetOptions = groupPresets.map((p) => ({
    value: p.id,
    label: `${p.operator} ${p.group}${p.unconfirmed ? ` · ${t('tariffs.unconfirmed')}` : ''}`,
  }));
  const scheduleErrors = Object.entries(issues).filter(([p]) => p.startsWith('schedule'));
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
  const setSeasonField = (i: number, patch: Partial<TariffDraft['schedule']['seasons'][number]>) =>
    update({ ...draft, presetId: null, schedule: { seasons: draft.schedule.seasons.map((s, k) => (k === i ? { ...s, ...patch } : s)) } });

  return (
    <form noValidate onSubmit={submit} aria-label={t('tariffs.form.title')}>
      <Stack gap="md">
        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb="sm">
            {t('tariffs.form.sectionTariff')}
          </Title>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('tariffs.form.name')}
                required
                name="name"
                value={draft.name}
                onChange={(e) => update({ ...draft, name: e.currentTarget.value })}
                onBlur={() => touch('name')}
                error={error('name')}
              />
              <Select
                label={t('tariffs.form.group')}
                description={t('tariffs.form.groupHint')}
                required
                allowDeselect={false}
                name="group"
                data={TARIFF_GROUPS.map((g) => ({ value: g, label: `${g} · ${t(`tariffs.groups.${g}`)}` }))}
                value={draft.group}
                onChange={(v) => v && update(changeGroup(draft, v as TariffGroup))}
                error={error('group')}
              />
              <Select
                label={t('tariffs.form.preset')}
                description={t('tariffs.form.presetHint')}
                name="presetId"
                placeholder={t('tariffs.form.presetNone')}
                clearable
                data={presetOptions}
                value={draft.presetId}
                onChange={(v) => {
                  const p = presets.find((x) => x.id === v);
                  update(p ? applyPreset(draft, p, presets) : { ...draft, presetId: null });
                  setSeason(null);
                }}
                error={error('presetId')}
                nothingFoundMessage={t('tariffs.form.noPresets')}
              />
              <Select
                label={t('tariffs.form.currency')}
                name="currency"
                required
                allowDeselect={false}
                searchable
                data={[...new Set([draft.currency, ...CURRENCIES])]}
                value={draft.currency}
                onChange={(v) => v && update({ ...draft, currency: v })}
                error={error('currency')}
              />
            </SimpleGrid>
            {preset && <PresetNotes preset={preset} />}
            {draft.group === 'G12as' && (
              <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} data-g12as-note>
                {t('tariffs.g12asNote')}
              </Alert>
            )}
          </Stack>
        </Card>

        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb={4}>
            {t('tariffs.form.sectionSchedule')}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {t('tariffs.form.scheduleHint')}
          </Text>
          <Stack gap="sm">
            <div>
              <Text size="sm" fw={500} mb={4} id="clock-label">
                {t('tariffs.form.clock')}
              </Text>
              <Segmented
                aria-label={t('tariffs.form.clock')}
                value={draft.clock}
                onChange={(v) => update({ ...draft, clock: v as TariffClock })}
                data={[
                  { value: 'local', label: t('tariffs.clock.local') },
                  { value: 'cet', label: t('tariffs.clock.cet') },
                ]}
              />
              <Text size="xs" c="dimmed" mt={4}>
                {t(draft.clock === 'cet' ? 'tariffs.clock.cetHint' : 'tariffs.clock.localHint')}
              </Text>
            </div>
            <HolidayField
              value={draft.holidayCalendar}
              onChange={(v) => update({ ...draft, holidayCalendar: v })}
              year={Number(today.slice(0, 4))}
              lang={i18n.language}
            />
            {(sent || touched.has('schedule')) && scheduleErrors.length > 0 && (
              <Alert color="red" role="alert">
                {scheduleErrors.map(([p, k]) => (
                  <div key={p}>{t(k, { defaultValue: k })}</div>
                ))}
              </Alert>
            )}
            <Tabs
              value={season && draft.seasonKeys.includes(season) ? season : (draft.seasonKeys[0] ?? null)}
              onChange={setSeason}
              keepMounted={false}
            >
              {/* The add button beside the tab list, not in it: a tablist holds tabs only (axe aria-required-children). */}
              <Group gap="xs" align="center" wrap="wrap">
                <Tabs.List style={{ flex: 1 }}>
                  {draft.schedule.seasons.map((s, i) => (
                    <Tabs.Tab key={draft.seasonKeys[i]} value={draft.seasonKeys[i] ?? ''}>
                      {seasonName(t, s.name)} ({s.from} – {s.to})
                    </Tabs.Tab>
                  ))}
                </Tabs.List>
                {draft.schedule.seasons.length < 4 && (
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    leftSection={<IconPlus size={14} />}
                    onClick={() => {
                      const next = addSeason(draft, t('tariffs.form.newSeason'));
                      update(next);
                      setSeason(next.seasonKeys.at(-1) ?? null);
                      touch('schedule');
                    }}
                  >
                    {t('tariffs.form.addSeason')}
                  </Button>
                )}
              </Group>
              {draft.schedule.seasons.map((s, i) => (
                <Tabs.Panel key={draft.seasonKeys[i]} value={draft.seasonKeys[i] ?? ''} pt="sm">
                  <SimpleGrid cols={{ base: 1, xs: 3 }} mb="sm">
                    <TextInput
                      label={t('tariffs.form.seasonName')}
                      value={seasonName(t, s.name)}
                      onChange={(e) => setSeasonField(i, { name: e.currentTarget.value })}
                      error={error(`schedule.seasons.${i}.name`)}
                    />
                    <TextInput
                      label={t('tariffs.form.seasonFrom')}
                      description={t('tariffs.form.monthDayHint')}
                      value={s.from}
                      onChange={(e) => setSeasonField(i, { from: e.currentTarget.value })}
                      onBlur={() => touch(`schedule.seasons.${i}.from`)}
                      error={error(`schedule.seasons.${i}.from`)}
                    />
                    <TextInput
                      label={t('tariffs.form.seasonTo')}
                      description={t('tariffs.form.monthDayHint')}
                      value={s.to}
                      onChange={(e) => setSeasonField(i, { to: e.currentTarget.value })}
                      onBlur={() => touch(`schedule.seasons.${i}.to`)}
                      error={error(`schedule.seasons.${i}.to`)}
                    />
                  </SimpleGrid>
                  <WeekGrid
                    days={s.days}
                    group={draft.group}
                    areas={areas}
                    label={t('tariffs.grid.label', { season: seasonName(t, s.name) })}
                    onChange={(days) => setSeasonField(i, { days })}
                  />
                  {draft.schedule.seasons.length > 1 && (
                    <Button
                      mt="sm"
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      leftSection={<IconTrash size={14} />}
                      onClick={() => {
                        update(removeSeason(draft, draft.seasonKeys[i] ?? ''));
                        setSeason(null);
                        touch('schedule');
                      }}
                    >
                      {t('tariffs.form.removeSeason')}
                    </Button>
                  )}
                </Tabs.Panel>
              ))}
            </Tabs>
          </Stack>
        </Card>

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

/** Presets name their seasons `summer`, `winter`, `all-year`: shown in the interface language. */
export function seasonName(t: TFunction, name: string): string {
  return ['summer', 'winter', 'all-year'].includes(name) ? t(`tariffs.seasons.${name}`) : name;
}

function HolidayField({
  value,
  onChange,
  year,
  lang,
}: {
  value: HolidayCalendar | null;
  onChange(v: HolidayCalendar | null): void;
  year: number;
  lang: string;
}) {
  const { t } = useTranslation();
  const holidays = useHolidays(value, year, lang);
  const [open, setOpen] = useState(false);
  return (
    <div>
      <Select
        label={t('tariffs.form.holidays')}
        description={t('tariffs.form.holidaysHint')}
        name="holidayCalendar"
        data={[
          { value: 'none', label: t('tariffs.form.holidaysNone') },
          ...HOLIDAY_CALENDARS.map((c) => ({ value: c, label: t(`tariffs.calendars.${c}`) })),
        ]}
        value={value ?? 'none'}
        allowDeselect={false}
        onChange={(v) => onChange(v === 'none' || !v ? null : (v as HolidayCalendar))}
      />
      {value && (
        <Anchor component="button" type="button" size="xs" mt={4} onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          {t(open ? 'tariffs.form.hideHolidays' : 'tariffs.form.showHolidays', { year })}
        </Anchor>
      )}
      {value && open && (
        <Stack gap={2} mt={4} data-holidays>
          {holidays.data?.holidays.map((h) => (
            <Text key={h.date} size="xs">
              {h.date} · {h.name}
            </Text>
          ))}
          {value === 'PL' && (
            <Text size="xs" c="dimmed">
              {t('tariffs.form.wigiliaNote')}
            </Text>
          )}
        </Stack>
      )}
    </div>
  );
}
