import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ExportJob } from '@phasewatch/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useHubClient } from '@/features/realtime';
import { loadArea } from '@/i18n';
import { downloadExport } from '../api/download-export';
import { exportKeys, getExport } from '../api/get-exports';
import { onPendingChange, pendingExports, settleExport } from '../export-tracker';
import { jobFailureKey } from '../job-failure';

type FileRef = Pick<ExportJob, 'id' | 'fileName' | 'format'>;

/** Exports told about in this tab (a hub event and the poll may both see one finish). */
const announced = new Set<string>();

/**
 * App-wide notices of background exports, on whatever page the user is: "Data exported" with a
 * download button when the hub's `exportReady` arrives (also for an export started in another tab), and
 * "Exporting data failed." for an export of this tab that failed (which the hub does not announce),
 * found by asking the server every few seconds while one of this tab's exports is unfinished.
 */
export function ExportNotices() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const hub = useHubClient();

  useEffect(() => {
    const ready = (file: FileRef) => {
      settleExport(file.id);
      void qc.invalidateQueries({ queryKey: exportKeys.all });
      if (announced.has(file.id)) return;
      announced.add(file.id);
      const name = `${file.fileName}.${file.format}`;
      // The download button's text is the analytics area's, which this app-wide listener does not load up front.
      void loadArea('analytics').finally(() =>
        notifications.show({
          id: `export-${file.id}`,
          color: 'teal',
          title: t('messages.dataExported'),
          autoClose: 15_000,
          message: (
            <Button
              size="compact-sm"
              variant="light"
              mt={4}
              data-export-toast={file.id}
              onClick={() => {
                downloadExport(file).catch(() => notifications.show({ color: 'red', message: t('messages.exportFailed') }));
              }}
            >
              {t('exports.downloadNamed', { name })}
            </Button>
          ),
        }),
      );
    };
    const failed = (job: ExportJob) => {
      const id = job.id;
      settleExport(id);
      void qc.invalidateQueries({ queryKey: exportKeys.all });
      if (announced.has(id)) return;
      announced.add(id);
      // The server's reason when it named one the user can read (a job thread that crashed or ran out of memory).
      const reason = jobFailureKey(job.error);
      if (!reason) notifications.show({ color: 'red', message: t('messages.exportFailed') });
      else void loadArea('jobs').finally(() => notifications.show({ color: 'red', message: `${t('messages.exportFailed')} ${t(reason)}` }));
    };

    const offHub = hub?.on('exportReady', (e) => {
      // The hub names the file without its type: the tracked export or the list knows it.
      const known =
        pendingExports().find((p) => p.id === e.exportId) ?? qc.getQueryData<ExportJob[]>(exportKeys.all)?.find((j) => j.id === e.exportId);
      if (known) ready(known);
      else void getExport(e.exportId).then(ready, () => {});
    });

    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      timer = undefined;
      for (const p of pendingExports()) {
        try {
          const job = await getExport(p.id);
          if (job.status === 'done') ready(job);
          else if (job.status === 'failed') failed(job);
        } catch {
          // Gone (expired) or the network: asked again on the next round.
        }
      }
      schedule();
    };
    const schedule = () => {
      if (!timer && pendingExports().length > 0) timer = setTimeout(() => void poll(), 3000);
    };
    const offPending = onPendingChange(schedule);
    schedule();
    return () => {
      offHub?.();
      offPending();
      clearTimeout(timer);
    };
  }, [hub, qc, t]);
  return null;
}
