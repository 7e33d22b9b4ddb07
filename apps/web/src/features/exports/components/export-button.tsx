import { Box, Button } from '@mantine/core';
import { IconFileExport } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { withArea } from '@/i18n';
import { loadChunk } from '@/lib/lazy-chunk';
import type { ExportDialogProps } from './export-dialog';
import './print.css';

const loadDialog = withArea('figures', () => import('./export-dialog'));
const ExportDialog = lazy(() => loadChunk(loadDialog));

/**
 * The export entry point of a device page and the analytics screen: a button whose dialog (and the form
 * code and schemas it needs) loads on the first press, as its own chunk.
 */
export function ExportButton({ size = 'xs', ...props }: Omit<ExportDialogProps, 'opened' | 'onClose'> & { size?: 'xs' | 'sm' }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [wanted, setWanted] = useState(false);
  return (
    <>
      <Button
        variant="default"
        size={size}
        onClick={() => {
          setWanted(true);
          setOpened(true);
        }}
        onMouseEnter={() => {
          // Start loading the dialog's chunk as the pointer comes near.
          void loadDialog().catch(() => {});
        }}
        data-export-open
        data-print-hide
        aria-label={t('exports.open')}
        title={t('exports.open')}
      >
        {/* Below 576 px the icon alone: the device page's toolbar stays on one line in every language. */}
        <IconFileExport size={16} aria-hidden />
        <Box component="span" visibleFrom="xs" ml={8}>
          {t('exports.open')}
        </Box>
      </Button>
      {wanted && (
        <Suspense fallback={null}>
          <ExportDialog opened={opened} onClose={() => setOpened(false)} {...props} />
        </Suspense>
      )}
    </>
  );
}
