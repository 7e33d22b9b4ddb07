import { Badge, Tooltip } from '@mantine/core';
import type { HubConnectionStatus } from '@phasewatch/shared';
import { useTranslation } from 'react-i18next';
import { useHubStatus } from './realtime-provider';

const COLORS: Record<HubConnectionStatus, string> = {
  connected: 'green',
  connecting: 'yellow',
  reconnecting: 'orange',
  disconnected: 'gray',
};

/** The hub's connection state for the layout header. */
export function HubStatusIndicator() {
  const { t } = useTranslation();
  const status = useHubStatus();
  return (
    <Tooltip label={t('realtime.tooltip')}>
      <Badge color={COLORS[status]} variant="dot" data-status={status} aria-live="polite">
        {t(`realtime.status.${status}`)}
      </Badge>
    </Tooltip>
  );
}
