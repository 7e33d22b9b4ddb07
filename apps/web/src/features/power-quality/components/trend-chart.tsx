import { Group, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import type { PowerQualityResponse } from '@phasewatch/shared';
import { PQ_LIMITS } from '@phasewatch/shared';
import { useTranslation } from 'react-i18next';
import { formatDay, phaseColor } from '../format';

const H = 260;
const PAD_L = 46;
const PAD_B = 24;
const PAD_T = 8;
const DAY = 86_400_000;

/** The week's 10-minute values per phase (gaps where invalid), with the limit lines 195.5, 207, 230 and 253 V. */
export function TrendChart({ report }: { report: PowerQualityResponse }) {
  const { t, i18n } = useTranslation();
  const { ref, width } = useElementSize();
  const all = report.trend.phases.flatMap((p) => p.values.filter((v): v is number => v !== null));
  const lo = Math.floor(Math.min(190, ...all) / 5) * 5;
  const hi = Math.ceil(Math.max(260, ...all) / 5) * 5;
  const w = Math.max(width, 240);
  const n = Math.max(1, report.bins);
  const x = (i: number) => PAD_L + ((w - PAD_L - 6) * i) / n;
  const y = (v: number) => PAD_T + (H - PAD_B - PAD_T) * (1 - (v - lo) / (hi - lo));
  const step = report.trend.stepSeconds * 1000;
  const limits = [
    { v: PQ_LIMITS.upper, color: 'var(--mantine-color-red-6)', dash: '6 3' },
    { v: PQ_LIMITS.lower95, color: 'var(--mantine-color-orange-6)', dash: '6 3' },
    { v: PQ_LIMITS.lower100, color: 'var(--mantine-color-red-6)', dash: '2 3' },
    { v: PQ_LIMITS.nominal, color: 'var(--mantine-color-gray-5)', dash: '1 3' },
  ];
  const days: number[] = [];
  for (let d = report.fromMs; d < report.toMs; d += DAY) days.push(d);
  return (
    <div ref={ref} style={{ width: '100%' }}>
      {width > 0 && (
        <svg width={w} height={H} role="img" aria-label={t('quality.trendLabel')} style={{ display: 'block' }} data-trend-chart>
          {limits.map((l) => (
            <g key={l.v}>
              <line x1={PAD_L} x2={w - 6} y1={y(l.v)} y2={y(l.v)} stroke={l.color} strokeDasharray={l.dash} strokeWidth={1} />
              <text x={PAD_L - 4} y={y(l.v) + 4} textAnchor="end" fontSize={10} fill="var(--mantine-color-dimmed)">
                {l.v.toLocaleString(i18n.language)}
              </text>
            </g>
          ))}
          {days.map((d) => {
            const i = (d - report.trend.startMs) / step;
            return (
              <g key={d}>
                <line x1={x(i)} x2={x(i)} y1={PAD_T} y2={H - PAD_B} stroke="var(--mantine-color-default-border)" strokeWidth={1} />
                {w > 500 && (
                  <text x={x(i) + 3} y={H - 8} fontSize={10} fill="var(--mantine-color-dimmed)">
                    {formatDay(d, i18n.language, report.timezone)}
                  </text>
                )}
              </g>
            );
          })}
          {report.trend.phases.map((p) => {
            let d = '';
            let pen = false;
            p.values.forEach((v, i) => {
              if (v === null) {
                pen = false;
                return;
              }
              d += `${pen ? 'L' : 'M'}${x(i + 0.5).toFixed(1)},${y(v).toFixed(1)}`;
              pen = true;
            });
            return <path key={p.phase} d={d} fill="none" stroke={phaseColor(p.phase)} strokeWidth={1.2} data-phase-line={p.phase} />;
          })}
        </svg>
      )}
      <Group gap="md" mt={4}>
        {report.trend.phases.map((p) => (
          <Group key={p.phase} gap={4}>
            <span style={{ display: 'inline-block', width: 14, height: 3, background: phaseColor(p.phase) }} />
            <Text size="xs">{t('quality.phase', { phase: p.phase })}</Text>
          </Group>
        ))}
      </Group>
    </div>
  );
}
