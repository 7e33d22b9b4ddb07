import { EventEmitter } from 'node:events';

/** A reading committed to storage (after the transaction), as the realtime hub fans it out. */
export interface ReadingCommitted {
  deviceId: number;
  userId: number;
  /** Epoch milliseconds (UTC). */
  ts: number;
  values: Record<string, number>;
}

export interface DeviceStatusChanged {
  deviceId: number;
  userId: number;
  status: 'online' | 'offline';
  weakSignal: boolean;
}

export interface DomainEvents {
  readingCommitted: [ReadingCommitted];
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
