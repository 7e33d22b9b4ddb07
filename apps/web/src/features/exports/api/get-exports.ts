import type { ExportJob } from '@phasewatch/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

export const exportKeys = {
  all: ['exports'] as const,
  one: (id: string) => ['exports', id] as const,
};

const unfinished = (jobs: readonly ExportJob[] | undefined) => !!jobs?.some((j) => j.status === 'queued' || j.status === 'running');

/** GET exports: the user's recent exports, newest first; asked again every 2 s while one is unfinished. */
export const exportsQueryOptions = () =>
  queryOptions({
    queryKey: exportKeys.all,
    queryFn: ({ signal }) => apiClient.get<ExportJob[]>(api.exports, { signal }),
    refetchInterval: (q) => (unfinished(q.state.data) ? 2000 : false),
  });

export function useExports(enabled = true) {
  return useQuery({ ...exportsQueryOptions(), enabled });
}

/** GET exports/:id: one export (status, progress); a 404 is answered to the caller. */
export function getExport(id: string, signal?: AbortSignal): Promise<ExportJob> {
  return apiClient.get<ExportJob>(api.export(id), { signal, notFoundRedirect: false });
}
