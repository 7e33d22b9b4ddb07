import { type HubConnection, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import {
  HUB_METHODS,
  HUB_PATH,
  type HubConnectionStatus,
  type HubEventMap,
  type HubEventName,
  REALTIME_KEEP_ALIVE_MS,
  REALTIME_RECONNECT_DELAYS_MS,
  REALTIME_SERVER_TIMEOUT_MS,
} from '@phasewatch/shared';
import { type Handler, HandlerQueue, type HubLifecycleEvent, nextStatus, SubscriptionRegistry } from './connection-state';

export interface HubClientOptions {
  /** Origin (or base path) of the server, e.g. `''` for the page's own origin or `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** The current access token; called afresh for every negotiate (start and each reconnect). */
  getToken(): string | Promise<string>;
  /** Builds the underlying connection (tests); the official client configured as below by default. */
  connect?: (url: string, getToken: () => string | Promise<string>) => HubConnection;
}

export interface HubClient {
  readonly status: HubConnectionStatus;
  /** Listens for status changes; returns the unsubscribe function. */
  onStatus(listener: (status: HubConnectionStatus) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A handler for a server event; queued while not connected. Returns a function that removes it. */
  on<E extends HubEventName>(event: E, handler: (payload: HubEventMap[E]) => void): () => void;
  invoke<T = unknown>(method: string, ...args: unknown[]): Promise<T>;
  send(method: string, ...args: unknown[]): Promise<void>;
  /** Watches a device's live stream (counted); kept across reconnects. Returns the unwatch function. */
  watchDevice(deviceId: number): () => void;
}

/** The official client configured as the spec says: reconnect delays, keep-alive 10 s, server timeout 300 s. */
export function buildOfficialConnection(url: string, getToken: () => string | Promise<string>): HubConnection {
  return new HubConnectionBuilder()
    .withUrl(url, { accessTokenFactory: getToken })
    .withAutomaticReconnect([...REALTIME_RECONNECT_DELAYS_MS])
    .withKeepAliveInterval(REALTIME_KEEP_ALIVE_MS)
    .withServerTimeout(REALTIME_SERVER_TIMEOUT_MS)
    .configureLogging(LogLevel.Warning)
    .build();
}

/** One hub connection with the app's state machine, handler queue and device subscriptions. */
export function createHubClient(options: HubClientOptions): HubClient {
  const url = `${options.baseUrl.replace(/\/+$/, '')}${HUB_PATH}`;
  const connection = (options.connect ?? buildOfficialConnection)(url, options.getToken);
  const handlers = new HandlerQueue({
    on: (event, handler) => connection.on(event, handler as (...args: unknown[]) => void),
    off: (event, handler) => connection.off(event, handler as (...args: unknown[]) => void),
  });
  const subscriptions = new SubscriptionRegistry();
  const listeners = new Set<(s: HubConnectionStatus) => void>();
  let status: HubConnectionStatus = 'disconnected';
  let starting: Promise<void> | null = null;

  const transition = (event: HubLifecycleEvent) => {
    const next = nextStatus(status, event);
    if (next === status) return;
    status = next;
    for (const l of listeners) l(status);
  };

  const subscribe = (deviceId: number) =>
    connection.invoke(HUB_METHODS.subscribeDevice, deviceId).catch(() => {
      // Not the user's device (any more), or the connection dropped: the reconnect resubscribes.
    });

  // Handlers first, then the status listeners see `connected`, then the server connection (new after
  // every reconnect) gets the subscriptions again.
  const onConnected = (event: 'started' | 'reconnected') => {
    handlers.flush();
    transition(event);
    for (const id of subscriptions.all()) void subscribe(id);
  };

  connection.onreconnecting(() => transition('reconnecting'));
  connection.onreconnected(() => onConnected('reconnected'));
  connection.onclose(() => transition('closed'));

  return {
    get status() {
      return status;
    },
    onStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      if (starting) return starting;
      if (status === 'connected') return Promise.resolve();
      transition('start');
      starting = connection
        .start()
        .then(() => onConnected('started'))
        .catch((err: unknown) => {
          transition('startFailed');
          throw err;
        })
        .finally(() => {
          starting = null;
        });
      return starting;
    },
    async stop() {
      await connection.stop();
      transition('stop');
    },
    on(event, handler) {
      handlers.register(status, event, handler as Handler);
      return () => handlers.unregister(event, handler as Handler);
    },
    invoke: (method, ...args) => connection.invoke(method, ...args),
    send: (method, ...args) => connection.send(method, ...args),
    watchDevice(deviceId) {
      if (subscriptions.add(deviceId) && status === 'connected') void subscribe(deviceId);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        if (subscriptions.remove(deviceId) && status === 'connected') {
          void connection.invoke(HUB_METHODS.unsubscribeDevice, deviceId).catch(() => {});
        }
      };
    },
  };
}
