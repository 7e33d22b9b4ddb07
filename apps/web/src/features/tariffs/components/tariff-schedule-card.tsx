import { Alert, Anchor, Button, Card, Group, Select, SimpleGrid, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { GROUP_AREAS, HOLIDAY_CALENDARS, type HolidayCalendar, type TariffClock } from '@phasewatch/shared';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Segmented } from '@/components/ui/segmented';
import { useHolidays } from '../api/get-holidays';
import { addSeason, removeSeason, type TariffDraft } from '../tariff-draft';
import type { DraftFields } from './draft-fields';
import { WeekGrid } from './week-grid';

/**
 * The schedule part of the form: the meter's clock, the holidays, and the seasons as tabs, each with its
 * dates and its week grid of zones.
 */
export function TariffScheduleCard({
  fields: { draft, update, error, touch },
  issues,
  showErrors,
  season,
  onSeason,
  year,
}: {
  fields: DraftFields;
  /** The draft's problems by field path (the schedule's are listed above the seasons). */
  issues: Record<string, string>;
  /** The schedule was touched or the form sent. */
  showErrors: boolean;
  /** The season tab shown (null: the first). */
  season: string | null;
  onSeason(key: string | null): void;
  /** This year, for the holiday list. */
  year: number;
}) {
  const { t, i18n } = useTranslation();
  const areas = GROUP_AREAS[draft.group];
  const scheduleErrors = Object.entries(issues).filter(([p]) => p.startsWith('schedule'));
  const setSeasonField = (i: number, patch: Partial<TariffDraft['schedule']['seasons'][number]>) =>
    update({ ...draft, presetId: null, schedule: { seasons: draft.schedule.seasons.map((s, k) => (k === i ? { ...s, ...patch } : s)) } });
  return (
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
          year={year}
          lang={i18n.language}
        />
        {showErrors && scheduleErrors.length > 0 && (
          <Alert color="red" role="alert">
            {scheduleErrors.map(([p, k]) => (
              <div key={p}>{t(k, { defaultValue: k })}</div>
            ))}
          </Alert>
        )}
        <Tabs
          value={season && draft.seasonKeys.includes(season) ? season : (draft.seasonKeys[0] ?? null)}
          onChange={onSeason}
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
                  onSeason(next.seasonKeys.at(-1) ?? null);
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
                    onSeason(null);
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
  );
}

/** Presets name their seasons `summer`, `winter`, `all-year`: shown in the interface language. */
export function seasonName(t: TFunction, name: string): string {
  return ['summer', 'winter', 'all-year'].includes(name) ? t(`tariffs.seasons.${name}`) : name;
}

/** The statutory holidays the schedule follows, with this year's list on demand. */
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
