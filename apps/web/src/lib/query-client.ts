import { notifications } from '@mantine/notifications';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { i18n } from '@/i18n';
import { ApiError } from './api-client';
import { type AuthState, authStore } from './auth-store';

/** A mutation's `meta.quietStatuses`: statuses its own screen explains (no generic notice beside that). */
function quietFor(meta: Record<string, unknown> | undefined, err: ApiError): boolean {
  const quiet = meta?.quietStatuses;
  return Array.isArray(quiet) && quiet.includes(err.status);
}

/** Server failures, lost connections and timeouts are told to the user once, whoever asked. */
function notifyFailure(err: unknown, meta?: Record<string, unknown>) {
  if (!(err instanceof ApiError) || err.kind === 'http' || quietFor(meta, err)) return;
  notifications.show({ id: `api-${err.kind}`, color: 'red', title: i18n.t('errors.generic'), message: i18n.t(err.message) });
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A 4xx will answer the same again; only outages are retried.
        retry: (count, err) => !(err instanceof ApiError && err.kind === 'http') && count < 2,
        staleTime: 30_000,
        refetchOnWindowFocus: false,
      },
    },
    queryCache: new QueryCache({ onError: (err) => notifyFailure(err) }),
    mutationCache: new MutationCache({ onError: (err, _v, _r, mutation) => notifyFailure(err, mutation.meta) }),
  });
}

/**
 * Cached answers belong to the signed-in user: whenever auth is purged (sign-out, failed refresh, another
 * tab) or a different user signs in, the cache is dropped, so nobody sees the previous user's data.
 */
export function clearOnUserChange(client: QueryClient, store: { get(): AuthState; subscribe(l: () => void): () => void }): () => void {
  let userId = store.get().token ? (store.get().user?.id ?? null) : null;
  return store.subscribe(() => {
    const { token, user } = store.get();
    const next = token ? (user?.id ?? null) : null;
    if (next !== userId) client.clear();
    userId = next;
  });
}

export const queryClient = createQueryClient();
clearOnUserChange(queryClient, authStore);
