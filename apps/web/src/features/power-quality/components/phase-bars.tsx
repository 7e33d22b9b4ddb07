import { Group, Stack, Text } from '@mantine/core';
import type { PowerQualityResponse } from '@phasewatch/shared';
import { useTranslation } from 'react-i18next';
import { formatPercent } from '../format';

const W = 44;
const BASE_H = 120;
const TOP_H = 36;
const GREEN = 'var(--mantine-color-green-6)';
const RED = 'var(--mantine-color-red-6)';
const GREY = 'var(--mantine-color-gray-5)';

/**
 * The verdict per phase as bars in the style of a Fluke 435's power-quality screen: a wide base for the
 * 95 % requirement (filled by the share of 10-minute values outside 207–253 V against its 5 % allowance)
 * and a narrow top for the 100 % requirement (any value outside 195.5–253 V fills it); a part turns red
 * when its requirement is violated, grey when the week is not assessable.
 */
export function PhaseBars({ report }: { report: PowerQualityResponse }) {
  const { t, i18n } = useTranslation();
  return (
    <Group gap="lg" align="flex-end" role="list" aria-label={t('quality.bars')} data-phase-bars>
      {report.phases.map((p) => {
        const share = p.n1Share ?? 0;
        const used = Math.min(1, share / 0.05);
        const na = p.verdict === 'not-assessable';
        const baseColor = na ? GREY : share > 0.05 ? RED : GREEN;
        const topColor = na ? GREY : p.n2 > 0 ? RED : GREEN;
        const label = t('quality.barLabel', {
          phase: p.phase,
          verdict: t(`quality.verdict.${p.verdict}`),
          share: formatPercent(share, i18n.language, 2),
          n2: p.n2,
        });
        return (
          <Stack key={p.phase} gap={4} align="center" role="listitem" aria-label={label} data-phase={p.phase} data-verdict={p.verdict}>
            <svg width={W + 24} height={BASE_H + TOP_H + 8} aria-hidden="true" style={{ display: 'block' }}>
              <title>{label}</title>
              {/* Top: the 100 % requirement (narrow). */}
              <rect x={12 + W / 4} y={4} width={W / 2} height={TOP_H} fill="none" stroke={topColor} strokeWidth={2} />
              {p.n2 > 0 && <rect x={12 + W / 4} y={4} width={W / 2} height={TOP_H} fill={topColor} data-top-violated />}
              {/* Base: the 95 % requirement (wide), filled by the share of its allowance used. */}
              <rect x={12} y={4 + TOP_H} width={W} height={BASE_H} fill="none" stroke={baseColor} strokeWidth={2} />
              <rect x={12} y={4 + TOP_H + BASE_H * (1 - used)} width={W} height={BASE_H * used} fill={baseColor} data-base-used={used} />
            </svg>
            <Text fw={700} size="sm">
              {t('quality.phase', { phase: p.phase })}
            </Text>
            <Text size="xs" fw={700}>
              {t(`quality.verdict.${p.verdict}`)}
            </Text>
          </Stack>
        );
      })}
      <Stack gap={2} justify="flex-end" style={{ height: BASE_H + TOP_H }} aria-hidden="true">
        <Text size="xs" c="dimmed">
          {t('quality.top100')}
        </Text>
        <div style={{ flex: 1 }} />
        <Text size="xs" c="dimmed">
          {t('quality.base95')}
        </Text>
      </Stack>
    </Group>
  );
}
