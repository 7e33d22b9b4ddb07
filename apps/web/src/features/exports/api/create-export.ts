import type { ExportJob, ExportRequest } from '@phasewatch/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { trackExport } from '../export-tracker';
import { exportKeys } from './get-exports';

/** POST exports: queues an export; answers 202 with the job at once (503 when the server is busy). */
export function createExport(body: ExportRequest): Promise<ExportJob> {
  return apiClient.post<ExportJob>(api.exports, body, { notFoundRedirect: false });
}

export function useCreateExport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createExport,
    // The dialog says why a start was refused (busy, hourly limit): no generic server-error notice beside it.
    meta: { quietStatuses: [503] },
    onSuccess: (job) => {
      trackExport(job);
      qc.setQueryData<ExportJob[]>(exportKeys.all, (list) => [job, ...(list ?? []).filter((j) => j.id !== job.id)]);
      void qc.invalidateQueries({ queryKey: exportKeys.all });
    },
  });
}
