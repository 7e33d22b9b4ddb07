import { Button, Card, Collapse, Group, Select, Text } from '@mantine/core';
import type { DeviceFigures } from '@phasewatch/shared';
import { IconAdjustmentsHorizontal, IconCalendarEvent, IconChevronDown } from '@tabler/icons-react';
import { memo, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '@/components/ui/date-field';
import { Segmented } from '@/components/ui/segmented';
import type { ComparePeriod, PhaseView } from '@/features/charts';
import { dateTimeFormat } from '@/lib/intl';
import { usePhone } from '@/lib/use-phone';
import {
  activePreset,
  CHART_INTERVALS,
  type ChartInterval,
  PRESETS,
  type Preset,
  presetSelection,
  type RangeSelection,
  type ResolvedRange,
} from './chart-range';

export interface RangeControlsProps {
  sel: RangeSelection;
  /** The range the charts show (the automatic interval when none is picked; a moved window says so). */
  range: ResolvedRange;
  figures: DeviceFigures;
  timezone: string;
  /** The time the selection is read at (what "today" and "the last 24 hours" mean). */
  now: number;
  /** A change to the selection; applied to the latest one (two quick edits both count). */
  onChange(update: (sel: RangeSelection) => RangeSelection): void;
}

type RangeChoice = Preset | 'day' | 'days';

/**
 * The page's one date / date-range selection and chart options, applying to every chart, in one compact
 * row above them: the phase view, the range (quick ranges, a day you pick — the simple chart, its start
 * date plus 24 hours — or days you pick, in a calendar in the user's language), the interval and the
 * previous-period comparison of energy charts. The range menu shows the active choice, and a line under
 * the row says which span the charts show. On phones the interval and the comparison fold away.
 */
export const RangeControls = memo(function RangeControls({ sel, range, figures, timezone, now, onChange }: RangeControlsProps) {
  const { t, i18n } = useTranslation();
  const phone = usePhone();
  const [optionsOpen, setOptionsOpen] = useState(false);
  const set = (patch: Partial<RangeSelection>) => onChange((cur) => ({ ...cur, ...patch }));
  const preset = activePreset(sel, now, timezone);
  const choice: RangeChoice = preset ?? (sel.mode === 'day' ? 'day' : 'days');
  const choose = (v: string | null) => {
    if (!v) return;
    if (v === 'day') onChange((cur) => ({ ...cur, mode: 'day', interval: null }));
    else if (v === 'days') onChange((cur) => ({ ...cur, mode: 'days', interval: null }));
    else onChange((cur) => presetSelection(v as Preset, cur, Date.now(), timezone));
  };

  const options = (
    <>
      <Group gap={6} wrap="nowrap">
        <Text size="xs" c="dimmed" component="span" aria-hidden>
          {t('detail.range.interval')}
        </Text>
        <Segmented
          aria-label={t('detail.range.interval')}
          value={range.interval}
          onChange={(v) => set({ interval: v as ChartInterval })}
          data={CHART_INTERVALS.map((i) => ({ value: i, label: t(`detail.interval.${i}`) }))}
          data-interval
        />
      </Group>
      <Select
        aria-label={t('detail.compare.label')}
        data={(['none', 'day', 'week', 'year'] as ComparePeriod[]).map((c) => ({ value: c, label: t(`detail.compare.${c}`) }))}
        value={sel.compare}
        onChange={(v) => set({ compare: (v ?? 'none') as ComparePeriod })}
        allowDeselect={false}
        w={220}
        name="compare"
      />
    </>
  );

  return (
    <Card withBorder padding="sm" data-range-controls>
      <Group gap="sm" align="center" wrap="wrap">
        {figures.phaseViews.length > 0 && (
          <Segmented
            aria-label={t('detail.view.label')}
            value={String(sel.view)}
            onChange={(v) => set({ view: (v === 'summary' ? 'summary' : Number(v)) as PhaseView })}
            data={[
              { value: 'summary', label: t('detail.view.summary') },
              ...figures.phaseViews.map((p) => ({ value: String(p), label: t('detail.view.phase', { phase: p }) })),
            ]}
            data-phase-view
          />
        )}
        <Select
          aria-label={t('detail.range.quick')}
          leftSection={<IconCalendarEvent size={16} aria-hidden />}
          data={[
            ...PRESETS.map((p) => ({ value: p, label: t(`detail.range.preset.${p}`) })),
            { value: 'day', label: t('detail.range.simple') },
            { value: 'days', label: t('ux.range.days') },
          ]}
          value={choice}
          onChange={choose}
          allowDeselect={false}
          w={230}
          name="range"
          data-range-choice={choice}
          comboboxProps={{ zIndex: 300 }}
        />
        {sel.mode === 'day' && (
          <DateField
            accessibleLabel={t('detail.range.date')}
            value={sel.date}
            onChange={(v) => v && set({ date: v })}
            name="date"
            w={210}
            popoverProps={{ zIndex: 300 }}
          />
        )}
        {sel.mode === 'days' && <DaysField sel={sel} onChange={onChange} />}
        {phone ? (
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden />}
            rightSection={<IconChevronDown size={14} aria-hidden style={{ transform: optionsOpen ? 'rotate(180deg)' : undefined }} />}
            aria-expanded={optionsOpen}
            onClick={() => setOptionsOpen((o) => !o)}
            data-chart-options
          >
            {t('ux.range.options')}
          </Button>
        ) : (
          options
        )}
      </Group>
      {phone && (
        <Collapse in={optionsOpen}>
          <Group gap="sm" mt="sm" wrap="wrap">
            {options}
          </Group>
        </Collapse>
      )}
      <Text size="xs" c="dimmed" mt={6} data-range-caption>
        {rangeCaption(t, i18n.language, timezone, sel, range, preset)}
      </Text>
    </Card>
  );
});

/** The "from – to" days field: a range picked in the calendar is applied once both ends are chosen. */
function DaysField({ sel, onChange }: Pick<RangeControlsProps, 'sel' | 'onChange'>) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<[string | null, string | null]>([sel.from, sel.to]);
  useEffect(() => setPicked([sel.from, sel.to]), [sel.from, sel.to]);
  return (
    <DateField
      type="range"
      accessibleLabel={t('ux.range.days')}
      value={picked}
      onChange={(v) => {
        setPicked(v);
        const [from, to] = v;
        if (from && to) onChange((cur) => ({ ...cur, mode: 'days', from, to, interval: null }));
      }}
      allowSingleDateInRange
      name="days"
      miw={250}
      popoverProps={{ zIndex: 300 }}
    />
  );
}

/** What the charts show, in words: the choice and its span ("Last 24 hours: 26 Nov, 07:00 – 27 Nov, 07:00"). */
export function rangeCaption(
  t: (key: string, o?: Record<string, unknown>) => string,
  locale: string,
  timeZone: string,
  sel: RangeSelection,
  range: ResolvedRange,
  preset: Preset | null,
): string {
  if (range.reversed) return t('validation.dateOrder');
  const wholeDays = sel.mode === 'days';
  const span = wholeDays
    ? dateTimeFormat(locale, { timeZone, dateStyle: 'medium' }).formatRange(range.from, range.to - 1)
    : dateTimeFormat(locale, { timeZone, day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }).formatRange(
        range.from,
        range.to,
      );
  if (range.shifted) return t('ux.range.shifted', { span });
  const name = preset ? t(`detail.range.preset.${preset}`) : t(sel.mode === 'day' ? 'ux.range.oneDay' : 'ux.range.days');
  return t('ux.range.caption', { name, span });
}
