import type { CollectorTestRequest, CollectorTestResponse } from '@phasewatch/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

/** POST collectors/test: the server reads the device once and says what it found, or why it could not. */
export function testCollector(body: CollectorTestRequest): Promise<CollectorTestResponse> {
  return apiClient.post<CollectorTestResponse>(api.collectorTest, body);
}

export function useTestCollector() {
  return useMutation({ mutationFn: testCollector });
}
