import { Card, Group, Select, Switch, TextInput } from '@mantine/core';
import type { DeviceFigures } from '@phasewatch/shared';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Segmented } from '@/components/ui/segmented';
import type { ComparePeriod } from '@/features/charts/chart-data';
import type { PhaseView } from '@/features/charts/chart-specs';
import { CHART_INTERVALS, type ChartInterval, PRESETS, type Preset, presetSelection, type RangeSelection } from './chart-range';

export interface RangeControlsProps {
  sel: RangeSelection;
  /** The interval in use (the automatic one when none is picked). */
  interval: ChartInterval;
  figures: DeviceFigures;
  timezone: string;
  /** A change to the selection; applied to the latest one (two quick edits both count). */
  onChange(update: (sel: RangeSelection) => RangeSelection): void;
}

/**
 * The page's one date / date-range selection and chart options, applying to every chart: phase view,
 * the simple chart (a start date plus 24 hours) or a range of days, quick ranges, the interval and the
 * previous-period comparison of energy charts.
 */
export const RangeControls = memo(function RangeControls({ sel, interval, figures, timezone, onChange }: RangeControlsProps) {
  const { t } = useTranslation();
  const set = (patch: Partial<RangeSelection>) => onChange((cur) => ({ ...cur, ...patch }));
  return (
    <Card withBorder padding="md" data-range-controls>
      <Group gap="md" align="flex-end" wrap="wrap">
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
        <Switch
          label={t('detail.range.simple')}
          checked={sel.simple}
          onChange={(e) => set({ simple: e.currentTarget.checked, interval: null })}
          data-simple-chart
          mb={8}
        />
        {sel.simple ? (
          <TextInput
            type="date"
            label={t('detail.range.date')}
            value={sel.date}
            onChange={(e) => e.currentTarget.value && set({ date: e.currentTarget.value })}
            name="date"
            w={160}
          />
        ) : (
          <>
            <TextInput
              type="date"
              label={t('detail.range.from')}
              value={sel.from}
              onChange={(e) => e.currentTarget.value && set({ from: e.currentTarget.value, interval: null })}
              name="from"
              w={160}
            />
            <TextInput
              type="date"
              label={t('detail.range.to')}
              value={sel.to}
              onChange={(e) => e.currentTarget.value && set({ to: e.currentTarget.value, interval: null })}
              name="to"
              w={160}
            />
          </>
        )}
        <Select
          label={t('detail.range.quick')}
          placeholder={t('detail.range.pick')}
          data={PRESETS.map((p) => ({ value: p, label: t(`detail.range.preset.${p}`) }))}
          value={null}
          onChange={(v) => v && onChange((cur) => presetSelection(v as Preset, cur, Date.now(), timezone))}
          w={170}
          name="preset"
        />
        <div>
          <Segmented
            aria-label={t('detail.range.interval')}
            value={interval}
            onChange={(v) => set({ interval: v })}
            data={CHART_INTERVALS.map((i) => ({ value: i, label: t(`detail.interval.${i}`) }))}
            data-interval
          />
        </div>
        <Select
          label={t('detail.compare.label')}
          data={(['none', 'day', 'week', 'year'] as ComparePeriod[]).map((c) => ({ value: c, label: t(`detail.compare.${c}`) }))}
          value={sel.compare}
          onChange={(v) => set({ compare: (v ?? 'none') as ComparePeriod })}
          allowDeselect={false}
          w={170}
          name="compare"
        />
      </Group>
    </Card>
  );
});
