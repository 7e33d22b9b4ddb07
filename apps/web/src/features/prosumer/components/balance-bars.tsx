import { useTranslation } from 'react-i18next';

/** One period's bars. */
export interface BarPeriod {
  label: string;
  production: number;
  consumption: number;
  importKWh: number;
  exportKWh: number;
}

const SERIES = [
  { key: 'production', color: 'var(--mantine-color-yellow-6)' },
  { key: 'consumption', color: 'var(--mantine-color-blue-6)' },
  { key: 'importKWh', color: 'var(--mantine-color-red-6)' },
  { key: 'exportKWh', color: 'var(--mantine-color-teal-6)' },
] as const;
const LABEL: Record<(typeof SERIES)[number]['key'], string> = {
  production: 'prosumer.production',
  consumption: 'prosumer.consumption',
  importKWh: 'prosumer.import',
  exportKWh: 'prosumer.export',
};

/**
 * Grouped bars (production, consumption, import, export) per period, as plain SVG that scales to its box:
 * the figures themselves are in the table beside it, so the chart is an image with a label.
 */
export function BalanceBars({ periods }: { periods: readonly BarPeriod[] }) {
  const { t } = useTranslation();
  const max = Math.max(1e-9, ...periods.flatMap((p) => SERIES.map((s) => p[s.key])));
  const w = 1000;
  const h = 220;
  const group = w / Math.max(1, periods.length);
  const bar = Math.max(0.5, (group * 0.8) / SERIES.length);
  const every = Math.ceil(periods.length / 12);
  return (
    <div data-balance-chart>
      <svg viewBox={`0 0 ${w} ${h + 24}`} width="100%" role="img" aria-label={t('prosumer.chartLabel')} preserveAspectRatio="none">
        {periods.map((p, i) => (
          <g key={p.label}>
            {SERIES.map((s, k) => {
              const v = (p[s.key] / max) * h;
              return <rect key={s.key} x={i * group + group * 0.1 + k * bar} y={h - v} width={bar} height={v} fill={s.color} />;
            })}
            {i % every === 0 && (
              <text x={i * group + group / 2} y={h + 18} textAnchor="middle" fontSize={14} fill="currentColor">
                {p.label}
              </text>
            )}
          </g>
        ))}
      </svg>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, fontSize: 13 }}>
        {SERIES.map((s) => (
          <span key={s.key} style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
            <span aria-hidden style={{ width: 10, height: 10, background: s.color, display: 'inline-block' }} />
            {t(LABEL[s.key])}
          </span>
        ))}
      </div>
    </div>
  );
}
