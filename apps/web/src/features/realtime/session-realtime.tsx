import type { ReactNode } from 'react';
import { apiClient } from '@/lib/api';
import { authStore, useAuth } from '@/lib/auth-store';
import { freshTokenSource } from './fresh-token';
import { createHubClient, type HubClient, type HubClientOptions } from './hub-client';
import { RealtimeProvider } from './realtime-provider';

/** The hub's token: the stored one, refreshed through the API client first when it has expired. */
const hubToken = freshTokenSource({ getToken: authStore.getToken, refresh: () => apiClient.refresh() });

let current: HubClient | null = null;

/** Builds the session's client and remembers it, so sign-out can close it first. */
function createSessionClient(options: HubClientOptions): HubClient {
  current = createHubClient(options);
  return current;
}

/**
 * Closes the session's hub connection before the session ends: otherwise the server drops it on logout
 * and the client reports the lost connection and tries to reconnect with a revoked token (a 401).
 */
export async function stopSessionHub(): Promise<void> {
  const c = current;
  current = null;
  await c?.stop().catch(() => {});
}

/**
 * The app's one hub connection: open while a user is signed in (a new one for another user), closed
 * on sign-out.
 */
export function SessionRealtime({ children }: { children: ReactNode }) {
  const { token, user } = useAuth();
  return (
    <RealtimeProvider signedIn={!!token} sessionKey={user?.id ?? null} getToken={hubToken} createClient={createSessionClient}>
      {children}
    </RealtimeProvider>
  );
}
