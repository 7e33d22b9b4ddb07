import { api } from '@/config/paths';
import { loadPushBrowser } from '@/features/notifications';
import { stopSessionHub } from '@/features/realtime';
import { apiClient } from '@/lib/api';
import { authStore } from '@/lib/auth-store';
import { queryClient } from '@/lib/query-client';

/**
 * GET account/logout; the auth is purged whatever the server answers (spec section 7). The hub and any
 * cached queries go first, so nothing asks the server with the revoked token afterwards.
 */
export async function logout(): Promise<void> {
  // This browser stops receiving the user's push notifications (the next person on it must not get them).
  if (typeof navigator !== 'undefined' && navigator.serviceWorker?.controller)
    await loadPushBrowser()
      .then((m) => m.forgetPushOnSignOut())
      .catch(() => {});
  await stopSessionHub();
  await queryClient.cancelQueries();
  try {
    await apiClient.get(api.logout, { skipAuthRefresh: true, notFoundRedirect: false, timeoutMs: 10_000 });
  } catch {
    // purged below regardless
  } finally {
    authStore.purge();
    queryClient.clear();
  }
}
