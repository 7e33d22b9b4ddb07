import type { CollectorSource, CollectorStatus, CollectorTestResponse } from '@phasewatch/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { collectorKeys } from './get-collector';

/**
 * New settings of a collected device: POST devices/:id/collector/test (with the stored key unless a new
 * one is given), and only when the device answers, PUT devices/:id/collector. A device that does not
 * answer resolves to the test's answer and nothing is saved.
 */
export async function updateCollector(
  id: number,
  source: CollectorSource,
): Promise<{ saved: CollectorStatus | null; test: CollectorTestResponse }> {
  const test = await apiClient.post<CollectorTestResponse>(api.deviceCollectorTest(id), {
    address: source.address,
    ...(source.key ? { key: source.key } : {}),
  });
  if (!test.ok) return { saved: null, test };
  // A Shelly says its generation; it is read as what it said.
  const saved = await apiClient.put<CollectorStatus>(api.deviceCollector(id), { ...source, kind: test.kind });
  return { saved, test };
}

export function useUpdateCollector(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (source: CollectorSource) => updateCollector(id, source),
    onSuccess: (r) => {
      if (r.saved) qc.setQueryData(collectorKeys.status(id), r.saved);
    },
  });
}
