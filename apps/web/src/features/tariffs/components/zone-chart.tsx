import { useElementSize } from '@mantine/hooks';
import type { TariffArea, TariffGroup, TariffStats } from '@phasewatch/shared';
import { useTranslation } from 'react-i18next';
import { AREA_COLORS, areaLabel, formatKWh } from '../format';

const H = 220;
const PAD_L = 44;
const PAD_B = 22;
const PAD_T = 8;

/**
 * Energy per local day, stacked by zone, as an SVG bar chart laid out in pixels for its width (the table
 * below holds the same figures; each bar's title names them).
 */
export function ZoneChart({ stats, group }: { stats: TariffStats; group: TariffGroup }) {
  const { t, i18n } = useTranslation();
  const { ref, width } = useElementSize();
  const days = stats.days;
  const max = Math.max(0.001, ...days.map((d) => d.kWh));
  const step = niceStep(max / 4);
  const top = Math.ceil(max / step) * step;
  const w = Math.max(width, 200);
  const slot = (w - PAD_L - 4) / Math.max(1, days.length);
  const bar = Math.max(1, Math.min(28, slot * 0.75));
  const y = (kwh: number) => PAD_T + (H - PAD_B - PAD_T) * (1 - kwh / top);
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  const labelEvery = Math.max(1, Math.ceil(days.length / Math.max(2, Math.floor(w / 70))));
  return (
    <div ref={ref} style={{ width: '100%' }}>
      {width > 0 && (
        <svg
          width={w}
          height={H}
          role="img"
          aria-label={t('tariffs.stats.chartLabel', { days: days.length, kwh: formatKWh(stats.kWh, i18n.language) })}
          style={{ display: 'block' }}
          data-zone-chart
        >
          {ticks.map((v) => (
            <g key={v}>
              <line x1={PAD_L} x2={w} y1={y(v)} y2={y(v)} stroke="var(--mantine-color-default-border)" strokeWidth={1} />
              <text x={PAD_L - 6} y={y(v) + 4} textAnchor="end" fontSize={11} fill="var(--mantine-color-dimmed)">
                {v.toLocaleString(i18n.language, { maximumFractionDigits: 1 })}
              </text>
            </g>
          ))}
          {days.map((d, i) => {
            const x = PAD_L + 2 + i * slot + (slot - bar) / 2;
            let acc = 0;
            return (
              <g key={d.date} data-day={d.date}>
                <title>{`${d.date}: ${d.zones.map((z) => `${areaLabel(t, z.area as TariffArea, group)} ${formatKWh(z.kWh, i18n.language)}`).join(', ')}`}</title>
                {d.zones.map((z) => {
                  const y0 = y(acc);
                  acc += z.kWh;
                  const y1 = y(acc);
                  return z.kWh > 0 ? (
                    <rect
                      key={z.area}
                      x={x}
                      y={y1}
                      width={bar}
                      height={Math.max(0, y0 - y1)}
                      fill={`var(--mantine-color-${AREA_COLORS[z.area as TariffArea]}-filled)`}
                    />
                  ) : null;
                })}
                {i % labelEvery === 0 && (
                  <text x={x} y={H - 6} fontSize={11} fill="var(--mantine-color-dimmed)">
                    {d.date.slice(5)}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      )}
    </div>
  );
}

/** 1, 2 or 5 × a power of ten at or above `x`. */
function niceStep(x: number): number {
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 5, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}
