import type { ExportJob } from '@phasewatch/shared';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

/**
 * POST exports/:id/download: the spec's blob download (2-hour timeout), saved under the export's name
 * (`<fileName>.csv|.pdf`, the name the server's Content-Disposition gives too).
 */
export async function downloadExport(job: Pick<ExportJob, 'id' | 'fileName' | 'format'>): Promise<void> {
  const blob = await apiClient.download(api.exportDownload(job.id), undefined, { notFoundRedirect: false });
  const url = URL.createObjectURL(blob);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = `${job.fileName}.${job.format}`;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    // The click has handed the blob to the browser's download by the next task.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
