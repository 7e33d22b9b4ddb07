import { type ReactNode, useEffect, useState } from 'react';
import { afterPaintWhenIdle } from '@/lib/after-paint';
import { apiClient } from '@/lib/api';
import { authStore, useAuth } from '@/lib/auth-store';
import { freshTokenSource } from './fresh-token';
import type { HubClient, HubClientOptions } from './hub-client';
import { RealtimeProvider } from './realtime-provider';

/** The hub's token: the stored one, refreshed through the API client first when it has expired. */
const hubToken = freshTokenSource({ getToken: authStore.getToken, refresh: () => apiClient.refresh() });

let current: HubClient | null = null;

type Factory = (options: HubClientOptions) => HubClient;

/**
 * The SignalR client (~15 KB gzipped) loads after the first paint of a signed-in page, not with it:
 * screens show their stored values first and the live connection follows a moment later.
 */
let loading: Promise<Factory> | null = null;
function loadFactory(): Promise<Factory> {
  loading ??= import('./hub-client').then((m) => (options: HubClientOptions): HubClient => {
    current = m.createHubClient(options);
    return current;
  });
  return loading;
}

const noClient: Factory = () => {
  throw new Error('the hub client is not loaded yet');
};

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
  const [factory, setFactory] = useState<Factory | null>(null);
  useEffect(() => {
    if (!token || factory) return;
    let live = true;
    // When the browser is first idle after the page's first paint (at most 2 s later): the page's content
    // does not wait for the client's code and the connection (the first paint may be the loading screen).
    const cancel = afterPaintWhenIdle(() => {
      void loadFactory().then((f) => {
        if (live) setFactory(() => f);
      });
    });
    return () => {
      live = false;
      cancel();
    };
  }, [token, factory]);
  return (
    <RealtimeProvider signedIn={!!token && !!factory} sessionKey={user?.id ?? null} getToken={hubToken} createClient={factory ?? noClient}>
      {children}
    </RealtimeProvider>
  );
}
