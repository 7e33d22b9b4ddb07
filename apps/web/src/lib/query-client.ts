import { notifications } from '@mantine/notifications';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { i18n } from '@/i18n';
import { ApiError } from './api-client';

/** Server failures, lost connections and timeouts are told to the user once, whoever asked. */
function notifyFailure(err: unknown) {
  if (!(err instanceof ApiError) || err.kind === 'http') return;
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
    queryCache: new QueryCache({ onError: notifyFailure }),
    mutationCache: new MutationCache({ onError: notifyFailure }),
  });
}

export const queryClient = createQueryClient();
