/** Realtime: the session's hub connection, its status, and live measurements of devices. */
export type { createHubClient, HubClient } from './hub-client';
export { HubStatusIndicator } from './hub-status-indicator';
export { RealtimeProvider, useHubClient } from './realtime-provider';
export { SessionRealtime, stopSessionHub } from './session-realtime';
export { useLiveDeviceStatus, useLiveMeasurements } from './use-live-measurements';
