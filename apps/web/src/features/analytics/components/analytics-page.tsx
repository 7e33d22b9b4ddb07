import { Alert, Button, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { IconChartArcs, IconGridDots, IconScale, IconTable } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Page } from '@/components/page';
import { paths } from '@/config/paths';
import { ExportButton } from '@/features/exports';
import { storedTimezone } from '@/lib/auth-store';
import { effectiveTimezone } from '@/lib/dates';
import { useDevices } from '@/lib/devices-query';
import { ComparisonsPanel } from './comparisons-panel';
import { ConsumptionPanel } from './consumption-panel';
import { HeatmapPanel } from './heatmap-panel';
import { SumsPanel } from './sums-panel';

const TABS = ['heatmap', 'table', 'sums', 'comparisons'] as const;
type Tab = (typeof TABS)[number];

/**
 * The analytics screen, "Comparative analysis" (spec section 2): heatmaps, the consumption table, the
 * sum comparison and saved comparisons, one tab each (kept in the address), with the export dialog.
 */
export function AnalyticsPage() {
  const { t } = useTranslation();
  const timezone = effectiveTimezone(storedTimezone());
  const devices = useDevices();
  const [search, setSearch] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(search.get('tab') ?? '') ? (search.get('tab') as Tab) : 'heatmap';
  const list = devices.data ?? [];
  const chosen = Number(search.get('device'));
  const deviceId = list.some((d) => d.id === chosen) ? chosen : (list[0]?.id ?? null);
  const set = (patch: Record<string, string>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(patch)) next.set(k, v);
    setSearch(next, { replace: true, preventScrollReset: true });
  };

  let body: React.ReactNode;
  if (devices.isPending) body = <Skeleton h={300} role="status" aria-busy aria-label={t('app.loading')} />;
  else if (devices.isError)
    body = (
      <Alert color="red" role="alert">
        {t('analytics.loadError')}
      </Alert>
    );
  else if (list.length === 0)
    body = (
      <Stack align="flex-start">
        <Text c="dimmed">{t('analytics.noDevices')}</Text>
        <Button component={Link} to={paths.dashboard} variant="light">
          {t('analytics.toDashboard')}
        </Button>
      </Stack>
    );
  else
    body = (
      <Tabs value={tab} onChange={(v) => v && set({ tab: v })} keepMounted={false}>
        <Tabs.List mb="md" data-print-hide>
          <Tabs.Tab value="heatmap" leftSection={<IconGridDots size={16} />}>
            {t('analytics.tabs.heatmap')}
          </Tabs.Tab>
          <Tabs.Tab value="table" leftSection={<IconTable size={16} />}>
            {t('analytics.tabs.table')}
          </Tabs.Tab>
          <Tabs.Tab value="sums" leftSection={<IconScale size={16} />}>
            {t('analytics.tabs.sums')}
          </Tabs.Tab>
          <Tabs.Tab value="comparisons" leftSection={<IconChartArcs size={16} />}>
            {t('analytics.tabs.comparisons')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="heatmap">
          <HeatmapPanel devices={list} deviceId={deviceId} onDevice={(id) => set({ device: String(id) })} timezone={timezone} />
        </Tabs.Panel>
        <Tabs.Panel value="table">
          <ConsumptionPanel devices={list} timezone={timezone} />
        </Tabs.Panel>
        <Tabs.Panel value="sums">
          <SumsPanel devices={list} deviceId={deviceId} timezone={timezone} />
        </Tabs.Panel>
        <Tabs.Panel value="comparisons">
          <ComparisonsPanel devices={list} timezone={timezone} />
        </Tabs.Panel>
      </Tabs>
    );

  return (
    <Page titleKey="titles.comparativeAnalysis" actions={list.length > 0 ? <ExportButton size="sm" deviceId={null} /> : null}>
      {body}
    </Page>
  );
}
