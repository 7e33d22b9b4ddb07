import type { WebSocket } from 'ws';
import { CallQueue } from './hub-invocations.js';
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

/** Connections with frames waiting, written out together once the current event-loop turn is done. */
const waiting = new Set<HubConnection>();
/** Queued bytes written out at once, without waiting for the end of the turn. */
const FLUSH_AT_BYTES = 16 * 1024;
let flushScheduled = false;

function flushWaiting(): void {
  flushScheduled = false;
  for (const conn of waiting) conn.flush();
  waiting.clear();
}

/**
 * One accepted WebSocket speaking the hub protocol; the hub owns the registry and the timers.
 *
 * Frames sent in one event-loop turn go out as one WebSocket message (the hub protocol allows several
 * messages in one, each ending with its record separator, and the official clients read them so): a
 * user's 100 devices coming online at once are a few socket writes per connection, not 100 each.
 */
export class HubConnection {
  readonly subscriptions = new Set<number>();
  /** Its invocations waiting, running and unanswered (see `HubInvocations`). */
  readonly calls = new CallQueue();
  /** Its invocations refused by the user's rate limit. */
  refusedCalls = 0;
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

  get userId(): number {
    return this.auth.userId;
  }

  private pending: Frame[] = [];
  private pendingBytes = 0;

  /**
   * Queues a frame for the end of this turn, unless the client is not keeping up: past the buffer limit
   * the socket is dropped instead of queueing more, so one slow reader can neither stall the fan-out
   * nor grow the server's memory.
   */
  send(frame: Frame): boolean {
    if (this.closed) return false;
    if (this.ws.bufferedAmount > this.maxBufferedBytes) {
      this.onSlow(this);
      this.terminate();
      return false;
    }
    this.pending.push(frame);
    this.pendingBytes += frame.length;
    if (this.pendingBytes >= FLUSH_AT_BYTES) {
      // A big burst goes out as it comes (the socket's own buffer is what the limit above watches).
      this.flush();
    } else if (this.pending.length === 1) {
      waiting.add(this);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flushWaiting);
      }
    }
    this.lastSentAt = Date.now();
    return true;
  }

  /** Writes the queued frames as one WebSocket message. */
  flush(): void {
    const frames = this.pending;
    if (frames.length === 0) return;
    this.pending = [];
    this.pendingBytes = 0;
    if (this.closed) return;
    const data =
      frames.length === 1 ? (frames[0] as Frame) : Buffer.concat(frames.map((f) => (typeof f === 'string' ? Buffer.from(f) : f)));
    this.ws.send(data, { binary: false });
  }

  /** A SignalR Close message, then a normal WebSocket close. `allowReconnect` makes the client renegotiate. */
  close(error?: string, allowReconnect = false): void {
    if (this.closed) return;
    this.flush();
    if (this.handshaken) this.ws.send(closeFrame(error, allowReconnect), { binary: false });
    this.closed = true;
    this.ws.close(1000);
    // A peer that never answers the close handshake must not keep the socket (and its buffer) alive.
    setTimeout(() => this.ws.terminate(), 5_000).unref();
  }

  /** Drops the socket at once (protocol violations, slow or silent clients). */
  terminate(): void {
    this.closed = true;
    this.pending = [];
    this.pendingBytes = 0;
    this.ws.terminate();
  }
}
