import type { PushSubscriptionRequest } from '@phasewatch/shared';
import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';

/** POST push/subscriptions: this browser's subscription for the signed-in user. */
export function saveSubscription(s: PushSubscriptionRequest): Promise<{ ok: true }> {
  return apiClient.post<{ ok: true }>(api.pushSubscriptions, s, { notFoundRedirect: false });
}

/** DELETE push/subscriptions: the user no longer gets pushes in this browser. */
export function deleteSubscription(endpoint: string): Promise<{ removed: boolean }> {
  return apiClient.delete<{ removed: boolean }>(api.pushSubscriptions, { body: { endpoint }, notFoundRedirect: false });
}
