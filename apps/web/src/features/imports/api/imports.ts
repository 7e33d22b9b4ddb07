import type { ImportFormat, ImportJob, ImportMapping } from '@phasewatch/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

export interface ImportStart {
  file: File;
  deviceId: number;
  format: ImportFormat;
  mapping?: ImportMapping | undefined;
  dryRun: boolean;
}

/** POST imports (multipart): the file and its settings; 202 with the import's id at once. */
export function createImport(req: ImportStart): Promise<{ id: string }> {
  const form = new FormData();
  form.set('deviceId', String(req.deviceId));
  form.set('format', req.format);
  form.set('dryRun', String(req.dryRun));
  if (req.mapping) form.set('mapping', JSON.stringify(req.mapping));
  // The file last: the server reads the fields first, then streams the file to disk.
  form.set('file', req.file, req.file.name);
  return apiClient.post<{ id: string }>(api.imports, form, { notFoundRedirect: false, timeoutMs: 30 * 60_000 });
}

export function useCreateImport() {
  return useMutation({ mutationFn: createImport });
}

/** GET imports/:id, asked again every second until it is done or failed. */
export function useImport(id: string | null) {
  return useQuery({
    queryKey: ['imports', id],
    queryFn: ({ signal }) => apiClient.get<ImportJob>(api.import(id as string), { signal, notFoundRedirect: false }),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && (q.state.data.status === 'done' || q.state.data.status === 'failed') ? false : 1000),
  });
}
