import type { HubConnectionStatus } from '@phasewatch/shared';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import type { HubClient, HubClientOptions } from './hub-client';
import { applyDeviceStatus, applyLiveMeasurement } from './live-cache';

const HubContext = createContext<HubClient | null>(null);

export interface RealtimeProviderProps {
  /** Whether a user is signed in: one hub connection per signed-in session, none otherwise. */
  signedIn: boolean;
  /** The access token for each negotiate (the auth store's, refreshed when it has expired). */
  getToken(): string | Promise<string>;
  /** Who is signed in (the user id): another user signing in gets a new connection. */
  sessionKey?: string | number | null;
  /** Server origin; the page's own by default. */
  baseUrl?: string;
  /**
   * After a failed start, or once the automatic reconnects gave up, start again after this long (ms)
   * while still signed in; 0 disables it. 30 s by default, the last reconnect delay.
   */
  restartDelayMs?: number;
  /** Builds the client: `createHubClient` (the app loads it after the first render), a fake in tests. */
  createClient: (options: HubClientOptions) => HubClient;
  children: ReactNode;
}

/**
 * Owns the hub connection of the signed-in session: starts it on sign-in, stops it on sign-out (or
 * when another user signs in), starts it again a while after it was lost for good, and feeds pushed
 * readings and statuses into the TanStack Query cache.
 */
export function RealtimeProvider({
  signedIn,
  getToken,
  sessionKey = null,
  baseUrl = '',
  restartDelayMs = 30_000,
  createClient,
  children,
}: RealtimeProviderProps) {
  const queryClient = useQueryClient();
  const [client, setClient] = useState<HubClient | null>(null);
  // The latest getToken without restarting the connection when its identity changes.
  const [tokenSource] = useState(() => ({ current: getToken }));
  tokenSource.current = getToken;

  useEffect(() => {
    if (!signedIn) return;
    // The key only marks a new session; it is not read here.
    void sessionKey;
    const c = createClient({ baseUrl, getToken: () => tokenSource.current() });
    const offLive = c.on('liveMeasurement', (m) => applyLiveMeasurement(queryClient, m));
    const offStatus = c.on('deviceStatus', (s) => applyDeviceStatus(queryClient, s));
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const start = () => {
      timer = undefined;
      // A failed start ends in `disconnected` too, which schedules the next attempt below.
      c.start().catch(() => {});
    };
    const offState = c.onStatus((status) => {
      if (status !== 'disconnected' || stopped || restartDelayMs <= 0 || timer) return;
      timer = setTimeout(start, restartDelayMs);
    });
    setClient(c);
    start();
    return () => {
      stopped = true;
      clearTimeout(timer);
      offState();
      offLive();
      offStatus();
      setClient(null);
      void c.stop();
    };
  }, [signedIn, sessionKey, baseUrl, restartDelayMs, createClient, queryClient, tokenSource]);

  return <HubContext.Provider value={client}>{children}</HubContext.Provider>;
}

/** The hub client of the session, or null when signed out. */
export function useHubClient(): HubClient | null {
  return useContext(HubContext);
}

const noop = () => () => {};

/** The connection state for the layout: disconnected, connecting, connected or reconnecting. */
export function useHubStatus(): HubConnectionStatus {
  const client = useHubClient();
  return useSyncExternalStore(
    client ? (cb) => client.onStatus(cb) : noop,
    () => client?.status ?? 'disconnected',
    () => 'disconnected',
  );
}
