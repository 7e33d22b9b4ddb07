import type { ReactNode } from 'react';
import { apiClient } from '@/lib/api';
import { authStore, useAuth } from '@/lib/auth-store';
import { freshTokenSource } from './fresh-token';
import { RealtimeProvider } from './realtime-provider';

/** The hub's token: the stored one, refreshed through the API client first when it has expired. */
const hubToken = freshTokenSource({ getToken: authStore.getToken, refresh: () => apiClient.refresh() });

/**
 * The app's one hub connection: open while a user is signed in (a new one for another user), closed
 * on sign-out.
 */
export function SessionRealtime({ children }: { children: ReactNode }) {
  const { token, user } = useAuth();
  return (
    <RealtimeProvider signedIn={!!token} sessionKey={user?.id ?? null} getToken={hubToken}>
      {children}
    </RealtimeProvider>
  );
}
