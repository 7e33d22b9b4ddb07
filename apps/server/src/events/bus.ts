import { EventEmitter } from 'node:events';

/** A reading committed to storage (after the transaction), as the realtime hub fans it out. */
export interface ReadingCommitted {
  deviceId: number;
  userId: number;
  /** Epoch milliseconds (UTC). */
  ts: number;
  values: Record<string, number>;
}

/**
 * Every reading of one commit of a device, column-wise (the notification rules read a few parameters of
 * each; a 5,000-reading batch is announced once, not as 5,000 objects). Timestamps ascend.
 */
export interface ReadingsCommitted {
  deviceId: number;
  userId: number;
  count: number;
  /** Epoch milliseconds (UTC) of each reading. */
  ts: ArrayLike<number>;
  /** A parameter's values by reading (NaN where a reading lacks it), or undefined when no reading has it. */
  column(name: string): ArrayLike<number> | undefined;
}

export interface DeviceStatusChanged {
  deviceId: number;
  userId: number;
  status: 'online' | 'offline';
  weakSignal: boolean;
}

export interface DomainEvents {
  readingCommitted: [ReadingCommitted];
  /** Emitted only while someone listens (the notification rules): see IngestService. */
  readingsCommitted: [ReadingsCommitted];
  /** A device's settings changed (notifications, limits, billing, name): cached copies are stale. */
  deviceSettingsChanged: [{ deviceId: number; userId: number }];
  deviceStatusChanged: [DeviceStatusChanged];
  deviceDeleted: [{ deviceId: number; userId: number }];
  sessionRevoked: [{ sessionId: string; userId: number }];
}

/**
 * In-process typed events between modules: services emit, the realtime hub listens. Cross-instance
 * fan-out (PostgreSQL LISTEN/NOTIFY) is the hub's concern, not the emitters'.
 */
export class EventBus extends EventEmitter<DomainEvents> {
  constructor() {
    super({ captureRejections: false });
    this.setMaxListeners(100);
  }
}
