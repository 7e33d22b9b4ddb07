import type { NotificationItem } from '../notifications/notification.schema.js';

/**
 * The contract of the realtime hub at `/hubs/dashboardHub`, shared by the server (which pushes these
 * events) and the web app (which listens for them): paths, hub method names, event names and payloads.
 */

/** Path of the SignalR-protocol hub; negotiate is `${HUB_PATH}/negotiate`. */
export const HUB_PATH = '/hubs/dashboardHub';

/** Methods the client may invoke on the hub. Each answers a Completion; errors come back as `error`. */
export const HUB_METHODS = {
  /** `SubscribeDevice(deviceId)`: start the device's live stream on this connection; true when subscribed. */
  subscribeDevice: 'SubscribeDevice',
  /** `UnsubscribeDevice(deviceId)`: stop it; true when the device had been subscribed. */
  unsubscribeDevice: 'UnsubscribeDevice',
} as const;
export type HubMethodName = (typeof HUB_METHODS)[keyof typeof HUB_METHODS];

/** Events the server pushes (SignalR invocation targets; clients match them case-insensitively). */
export const HUB_EVENTS = {
  liveMeasurement: 'liveMeasurement',
  deviceStatus: 'deviceStatus',
  notification: 'notification',
  exportReady: 'exportReady',
} as const;
export type HubEventName = (typeof HUB_EVENTS)[keyof typeof HUB_EVENTS];

/** A committed reading of a subscribed device. */
export interface LiveMeasurement {
  deviceId: number;
  /** Epoch milliseconds (UTC) of the reading. */
  ts: number;
  /** Parameter code → value (see the parameter catalogue). */
  values: Record<string, number>;
}

export type DeviceOnlineStatus = 'online' | 'offline';

/** A device went online or offline, or its WiFi signal became weak or good again; sent to all the owner's connections. */
export interface DeviceStatusEvent {
  deviceId: number;
  status: DeviceOnlineStatus;
  weakSignal: boolean;
}

export type NotificationLevel = 'info' | 'warning' | 'critical';

/** A notification for the user (limit exceeded, device offline, …). */
export interface NotificationEvent {
  id: number;
  /** The device it concerns, if any. */
  deviceId: number | null;
  level: NotificationLevel;
  /** An i18n key or a ready text, as the notification module decides. */
  message: string;
  /** Epoch milliseconds (UTC). */
  ts: number;
  /**
   * The alarm as the notification list shows it (new alarms of the rules: `message` is then
   * `notifications.kinds.<kind>`); its `held` says whether it was pushed or mailed.
   */
  item?: NotificationItem;
}

/** A background export finished; the client may download it. */
export interface ExportReadyEvent {
  exportId: string;
  fileName: string;
  /** Relative URL to download the file from (authenticated). */
  downloadUrl: string;
}

/** Payload of each server event: `connection.on(name, (payload: HubEventMap[name]) => …)`. */
export interface HubEventMap {
  liveMeasurement: LiveMeasurement;
  deviceStatus: DeviceStatusEvent;
  notification: NotificationEvent;
  exportReady: ExportReadyEvent;
}

/** The states a hub connection shows in the layout (spec section 4). */
export const HUB_CONNECTION_STATES = ['disconnected', 'connecting', 'connected', 'reconnecting'] as const;
export type HubConnectionStatus = (typeof HUB_CONNECTION_STATES)[number];

/** Largest incoming hub message the server accepts (bytes); bigger frames close the connection. */
export const HUB_MAX_MESSAGE_BYTES = 32 * 1024;
