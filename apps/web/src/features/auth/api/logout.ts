import { api } from '@/config/paths';
import { apiClient } from '@/lib/api';
import { authStore } from '@/lib/auth-store';
import { queryClient } from '@/lib/query-client';

/** GET account/logout; the auth is purged whatever the server answers (spec section 7). */
export async function logout(): Promise<void> {
  try {
    await apiClient.get(api.logout, { skipAuthRefresh: true, notFoundRedirect: false, timeoutMs: 10_000 });
  } catch {
    // purged below regardless
  } finally {
    authStore.purge();
    queryClient.clear();
  }
}
