import type { WebSocket } from 'ws';
import { closeFrame } from './hub-protocol.js';

/** Who a connection belongs to, from the access token it was opened with. */
export interface HubAuth {
  userId: number;
  sessionId: string;
  /** Epoch ms when the access token expires: nothing is delivered after it. */
  expiresAt: number;
}

/** A frame ready to send: encoded once and shared by every recipient of a fan-out. */
export type Frame = string | Buffer;

/** One accepted WebSocket speaking the hub protocol; the hub owns the registry and the timers. */
export class HubConnection {
  readonly subscriptions = new Set<number>();
  handshaken = false;
  closed = false;
  readonly openedAt = Date.now();
  lastReceivedAt = Date.now();
  lastSentAt = Date.now();

  constructor(
    readonly connectionId: string,
    readonly connectionToken: string,
    private readonly ws: WebSocket,
    readonly auth: HubAuth,
    private readonly maxBufferedBytes: number,
    private readonly onSlow: (conn: HubConnection) => void,
  ) {}

  /**
   * Sends unless the client is not keeping up: past the buffer limit the socket is dropped instead of
   * queueing more, so one slow reader can neither stall the fan-out nor grow the server's memory.
   */
  send(frame: Frame): boolean {
    if (this.closed) return false;
    if (this.ws.bufferedAmount > this.maxBufferedBytes) {
      this.onSlow(this);
      this.terminate();
      return false;
    }
    this.ws.send(frame, { binary: false });
    this.lastSentAt = Date.now();
    return true;
  }

  /** A SignalR Close message, then a normal WebSocket close. `allowReconnect` makes the client renegotiate. */
  close(error?: string, allowReconnect = false): void {
    if (this.closed) return;
    if (this.handshaken) this.ws.send(closeFrame(error, allowReconnect), { binary: false });
    this.closed = true;
    this.ws.close(1000);
    // A peer that never answers the close handshake must not keep the socket (and its buffer) alive.
    setTimeout(() => this.ws.terminate(), 5_000).unref();
  }

  /** Drops the socket at once (protocol violations, slow or silent clients). */
  terminate(): void {
    this.closed = true;
    this.ws.terminate();
  }
}
