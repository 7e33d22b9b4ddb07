import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCreateExport } from '@/features/exports';
import { errorTexts } from '@/lib/error-text';

/** Queues the week's PDF report as an export job; the app-wide export notices offer it when it is ready. */
export function PdfButton({ deviceId, week }: { deviceId: number; week: string }) {
  const { t, i18n } = useTranslation();
  const create = useCreateExport();
  return (
    <Button
      variant="default"
      leftSection={<IconFileTypePdf size={16} />}
      loading={create.isPending}
      data-quality-pdf
      onClick={() =>
        create.mutate(
          { deviceId, format: 'pdf', report: 'power-quality', week, language: i18n.language as 'en' | 'pl' | 'tr' },
          {
            onSuccess: () => notifications.show({ message: t('quality.pdfQueued') }),
            onError: (err) =>
              notifications.show({
                color: 'red',
                message: errorTexts(err)
                  .map((k) => t(k))
                  .join(' '),
              }),
          },
        )
      }
    >
      {t('quality.pdf')}
    </Button>
  );
}
