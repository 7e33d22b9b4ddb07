import { useElementSize } from '@mantine/hooks';
import { type PowerQualityResponse, PQ_LIMITS } from '@phasewatch/shared';
import { useTranslation } from 'react-i18next';

const H = 180;
const PAD_L = 36;
const PAD_B = 22;
const PAD_T = 6;

/** How many 10-minute values (all phases, valid or flagged) fell in each 1 V step; bars outside 207–253 V in red. */
export function Histogram({ report }: { report: PowerQualityResponse }) {
  const { t, i18n } = useTranslation();
  const { ref, width } = useElementSize();
  const counts = new Map<number, number>();
  for (const p of report.trend.phases)
    for (const v of p.values) if (v !== null) counts.set(Math.floor(v), (counts.get(Math.floor(v)) ?? 0) + 1);
  const keys = [...counts.keys()];
  const lo = Math.min(200, ...keys);
  const hi = Math.max(258, ...keys);
  const max = Math.max(1, ...counts.values());
  const w = Math.max(width, 240);
  const slot = (w - PAD_L - 4) / (hi - lo + 1);
  const x = (v: number) => PAD_L + (v - lo) * slot;
  const y = (c: number) => PAD_T + (H - PAD_B - PAD_T) * (1 - c / max);
  const labelEvery = Math.max(1, Math.ceil(50 / slot / 5)) * 5;
  return (
    <div ref={ref} style={{ width: '100%' }}>
      {width > 0 && (
        <svg width={w} height={H} role="img" aria-label={t('quality.histogramLabel')} style={{ display: 'block' }} data-histogram>
          <text x={PAD_L - 4} y={PAD_T + 8} textAnchor="end" fontSize={10} fill="var(--mantine-color-dimmed)">
            {max.toLocaleString(i18n.language)}
          </text>
          <line x1={PAD_L} x2={w} y1={H - PAD_B} y2={H - PAD_B} stroke="var(--mantine-color-default-border)" />
          {[...counts.entries()].map(([v, c]) => (
            <rect
              key={v}
              x={x(v) + 0.5}
              y={y(c)}
              width={Math.max(1, slot - 1)}
              height={H - PAD_B - y(c)}
              fill={v < PQ_LIMITS.lower95 || v >= PQ_LIMITS.upper ? 'var(--mantine-color-red-6)' : 'var(--mantine-color-blue-6)'}
            >
              <title>{`${v}–${v + 1} V: ${c}`}</title>
            </rect>
          ))}
          {Array.from(
            { length: Math.floor((hi - lo) / labelEvery) + 1 },
            (_, k) => Math.ceil(lo / labelEvery) * labelEvery + k * labelEvery,
          )
            .filter((v) => v <= hi)
            .map((v) => (
              <text key={v} x={x(v)} y={H - 6} fontSize={10} textAnchor="middle" fill="var(--mantine-color-dimmed)">
                {v}
              </text>
            ))}
        </svg>
      )}
    </div>
  );
}
