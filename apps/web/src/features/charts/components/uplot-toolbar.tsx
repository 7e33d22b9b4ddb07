import { ActionIcon, Group, UnstyledButton } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconZoomIn, IconZoomOut, IconZoomReset } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ChartData } from '../chart-data';
import classes from './uplot-chart.module.css';

/**
 * Above the plot: the legend (a button per column, not the min/max ones, turning it on and off) and the
 * zoom and pan buttons.
 */
export function ChartToolbar({
  data,
  labels,
  hidden,
  onToggle,
  onZoom,
  onPan,
  onReset,
}: {
  data: ChartData;
  labels: readonly string[];
  /** Columns turned off. */
  hidden: Record<number, boolean>;
  /** Column `col` clicked; `off`: it was off. */
  onToggle(col: number, off: boolean): void;
  onZoom(factor: number): void;
  onPan(dir: number): void;
  onReset(): void;
}) {
  const { t } = useTranslation();
  const legend = data.columns.map((c, col) => ({ c, col })).filter(({ c }) => !c.spec.stat);
  return (
    <div className={classes.toolbar}>
      <Group gap={6} wrap="wrap" role="group" aria-label={t('charts.series')} className={classes.legend}>
        {legend.map(({ c, col }) => {
          const off = !!hidden[col];
          return (
            <UnstyledButton
              key={col}
              className={classes.legendItem}
              aria-pressed={!off}
              data-series={c.spec.param}
              data-off={off || undefined}
              onClick={() => onToggle(col, off)}
            >
              <span className={classes.swatch} style={{ background: off ? 'transparent' : c.spec.color, borderColor: c.spec.color }} />
              {labels[col] ?? c.spec.param}
            </UnstyledButton>
          );
        })}
      </Group>
      <Group gap={2} wrap="nowrap" data-zoom-buttons>
        {(
          [
            ['zoomIn', IconZoomIn, () => onZoom(0.5)],
            ['zoomOut', IconZoomOut, () => onZoom(2)],
            ['panLeft', IconArrowLeft, () => onPan(-1)],
            ['panRight', IconArrowRight, () => onPan(1)],
            ['resetZoom', IconZoomReset, onReset],
          ] as const
        ).map(([key, Icon, action]) => (
          // A native tooltip (title): Mantine's Tooltip costs a positioning instance per button, 20 on a page.
          <ActionIcon
            key={key}
            variant="subtle"
            color="gray"
            size="sm"
            aria-label={t(`charts.${key}`)}
            title={t(`charts.${key}`)}
            onClick={action}
            data-action={key}
          >
            <Icon size={16} />
          </ActionIcon>
        ))}
      </Group>
    </div>
  );
}
