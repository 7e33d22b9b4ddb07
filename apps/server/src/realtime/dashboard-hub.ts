import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  BoundedMap,
  HUB_EVENTS,
  HUB_MAX_MESSAGE_BYTES,
  HUB_METHODS,
  type HubEventMap,
  type HubEventName,
  isStorableId,
  parseId,
} from '@phasewatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { bearerToken } from '../auth/authenticate.js';
import type { AccessClaims } from '../auth/tokens.js';
import type { DeviceStatusChanged, ReadingCommitted } from '../events/bus.js';
import { WindowLimiter } from '../http/rate-limits.js';
import { type Frame, type HubAuth, HubConnection } from './hub-connection.js';
import { HubInvocations, type InvocationLimits, type InvocationStats, type Outcome } from './hub-invocations.js';
import {
  completionFrame,
  HANDSHAKE_OK_FRAME,
  handshakeErrorFrame,
  type InvocationMessage,
  invocationFrame,
  PING_FRAME,
  ProtocolError,
  parseHandshake,
  parseMessage,
  splitRecords,
} from './hub-protocol.js';

export type OwnsDevice = (userId: number, deviceId: number) => Promise<boolean>;

/** Timings and limits; defaults follow the protocol notes, tests shorten them with `configure()`. */
export interface HubOptions {
  /** Server ping after this long without sending anything. */
  keepAliveMs: number;
  /** Drop a client after this long without receiving any message from it. */
  clientTimeoutMs: number;
  /** Time allowed between the upgrade and the handshake request. */
  handshakeTimeoutMs: number;
  /** A negotiated connection token is refused past this (it is signed with its expiry; every instance checks it). */
  negotiateTtlMs: number;
  /** How often open connections' sessions are checked again (revocations on paths that emit no event). */
  sessionCheckMs: number;
  /** Period of the timer that pings, drops silent clients and closes expired ones. */
  tickMs: number;
  /** A connection whose socket holds more unsent bytes than this is dropped as too slow. */
  maxBufferedBytes: number;
  /** Invocations of one connection running at once (the rest wait; answers go back in arrival order). */
  invocationWindow: number;
  /** Invocations of one user running at once, over all of the user's connections. */
  userInvocations: number;
  /** Unanswered invocations one connection may have; past it the connection is closed with an error. */
  maxQueuedInvocations: number;
  /** Hub connections one user may have open at once; more are refused with 429. */
  maxConnectionsPerUser: number;
  /** Whether the per-user rate limit of `HubDeps.rateLimit` applies (benchmarks compare without). */
  rateLimited: boolean;
}

export const DEFAULT_HUB_OPTIONS: HubOptions = {
  keepAliveMs: 10_000,
  clientTimeoutMs: 30_000,
  handshakeTimeoutMs: 15_000,
  negotiateTtlMs: 60_000,
  sessionCheckMs: 60_000,
  tickMs: 1_000,
  maxBufferedBytes: 256 * 1024,
  // A connection's own window is the user's share: one client gets all of it, several share it. Four
  // queries at once leave most of a pool of 10 to everyone else.
  invocationWindow: 4,
  userInvocations: 4,
  // The web app subscribes every watched device at once on (re)connect: room for a very large household.
  maxQueuedInvocations: 1024,
  // Benchmarks open one client per device (100 per user); a person has a few tabs.
  maxConnectionsPerUser: 256,
  rateLimited: true,
};

export interface HubDeps {
  /** Accepts an access token (see `AccountsService.checkAccess`): the one check the API routes use too. */
  checkAccess: (token: string) => Promise<AccessClaims | null>;
  /** Which of these sessions are still active (asked together: 2,000 connections' sessions one query each held the pool and the event loop for a second every minute). */
  activeSessions: (sessionIds: readonly string[]) => Promise<Set<string>>;
  ownsDevice: OwnsDevice;
  log: FastifyBaseLogger;
  /** Hub invocations per user and window (`RATE_LIMIT_HUB`); past it they are answered with an error, unrun. Null: no limit. */
  rateLimit?: { max: number; windowMs: number } | null;
  /** Told of each invocation refused by the rate limit (metrics). */
  onRefused?: () => void;
  /**
   * Key of the connection tokens' HMAC; every instance of a deployment must have the same (the app derives it
   * from JWT_SECRET), so a token negotiated on one instance opens the WebSocket on any. None: a random key
   * (one instance).
   */
  tokenKey?: Buffer;
}

export interface NegotiateResponse {
  connectionId: string;
  connectionToken: string;
  negotiateVersion: 1;
  availableTransports: { transport: 'WebSockets'; transferFormats: ['Text', 'Binary'] }[];
}

/** What a connection token says, once its signature is checked. */
interface SignedToken {
  userId: number;
  expiresAt: number;
  connectionId: string;
}

export interface HubStats {
  connections: number;
  /** Connection tokens used on this instance and not expired yet. */
  pending: number;
  /** Connections dropped because they did not read fast enough. */
  droppedSlow: number;
  /** Hub protocol messages received from clients and sent to them since start (handshakes, pings included). */
  messagesIn: number;
  messagesOut: number;
  /** Invocations running and waiting to run now; connections closed for flooding; invocations refused by the rate limit. */
  invocations: InvocationStats & { refused: number };
}

/** Connection tokens remembered as used on this instance until they expire (the oldest is forgotten beyond this). */
const MAX_PENDING_NEGOTIATIONS = 10_000;

// base64url: the client puts the token into the URL without encoding it.
const newId = () => randomBytes(16).toString('base64url');

const TOKEN_SHAPE = /^([1-9][0-9]{0,15})\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/**
 * A connection token: `<userId>.<expiry, base 36 ms>.<connectionId>.<HMAC-SHA256 of the rest>`, base64url and
 * dots only (the client puts it into the URL as it is). Any instance with the same key accepts it, so
 * negotiate and the WebSocket may land on different instances behind a round-robin proxy.
 */
export function signConnectionToken(key: Buffer, t: SignedToken): string {
  const body = `${t.userId}.${t.expiresAt.toString(36)}.${t.connectionId}`;
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

/** The token's claims when its signature is right and it has not expired; null otherwise. */
export function verifyConnectionToken(key: Buffer, token: string, now = Date.now()): SignedToken | null {
  const m = TOKEN_SHAPE.exec(token);
  if (!m) return null;
  const body = `${m[1]}.${m[2]}.${m[3]}`;
  const expected = createHmac('sha256', key).update(body).digest();
  const given = Buffer.from(m[4] as string, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const expiresAt = Number.parseInt(m[2] as string, 36);
  if (!(expiresAt > now)) return null;
  return { userId: Number(m[1]), expiresAt, connectionId: m[3] as string };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function rejectUpgrade(socket: Duplex, status: 401 | 404 | 409 | 429, text: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length}\r\n\r\n${text}`,
  );
  socket.destroy();
}

/**
 * The server side of `/hubs/dashboardHub`: negotiate, the WebSocket transport, the JSON hub protocol,
 * keep-alive, the hub methods, and delivery of events to the connections of their owner.
 */
export class DashboardHub {
  private options: HubOptions;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: HUB_MAX_MESSAGE_BYTES, perMessageDeflate: false });
  /**
   * Connection tokens used on this instance, with their expiry: a token opens one connection here (another
   * instance, which cannot know, would accept it once more within its short life, for the same user only).
   */
  private readonly pending = new BoundedMap<string, number>(MAX_PENDING_NEGOTIATIONS);
  private readonly tokenKey: Buffer;
  private readonly byToken = new Map<string, HubConnection>();
  private readonly byUser = new Map<number, Set<HubConnection>>();
  /**
   * Sessions ended lately (bounded: a session never comes back, and its tokens are refused by the
   * database anyway). A WebSocket whose token was checked just before its session ended, and that
   * arrives after the close went out, is refused here instead of streaming until the periodic check.
   */
  private readonly revoked = new BoundedMap<string, true>(10_000);
  private timer: NodeJS.Timeout | null = null;
  private lastSessionCheck = Date.now();
  private droppedSlow = 0;
  private messagesIn = 0;
  private messagesOut = 0;
  private closing = false;
  private readonly invocations: HubInvocations<HubConnection>;
  private readonly limiter: WindowLimiter | null;
  private refused = 0;

  constructor(
    private readonly deps: HubDeps,
    options: Partial<HubOptions> = {},
  ) {
    this.options = { ...DEFAULT_HUB_OPTIONS, ...options };
    this.tokenKey = deps.tokenKey ?? randomBytes(32);
    const rate = deps.rateLimit;
    this.limiter = rate && rate.max > 0 ? new WindowLimiter(rate.max, rate.windowMs) : null;
    this.invocations = new HubInvocations<HubConnection>(
      { run: (conn, msg) => this.run(conn, msg), answer: (conn, id, outcome) => this.sendTo(conn, completionFrame(id, outcome)) },
      this.invocationLimits(),
    );
    this.startTimer();
  }

  private invocationLimits(): InvocationLimits {
    const o = this.options;
    return { window: o.invocationWindow, perUser: o.userInvocations, maxQueued: o.maxQueuedInvocations };
  }

  /** Changes timings and limits of new sends and ticks (tests). */
  configure(options: Partial<HubOptions>): void {
    this.options = { ...this.options, ...options };
    this.invocations.limits = this.invocationLimits();
    this.invocations.resetPeaks();
    this.startTimer();
  }

  /** Whether the user already has as many connections as one user may (negotiate answers 429 then). */
  atConnectionLimit(userId: number): boolean {
    return (this.byUser.get(userId)?.size ?? 0) >= this.options.maxConnectionsPerUser;
  }

  stats(): HubStats {
    return {
      connections: this.byToken.size,
      pending: this.pending.size,
      droppedSlow: this.droppedSlow,
      messagesIn: this.messagesIn,
      messagesOut: this.messagesOut,
      invocations: { ...this.invocations.stats(this.byToken.values()), refused: this.refused },
    };
  }

  /** Sends a frame to a connection, counted when it was queued on the socket. */
  private sendTo(conn: HubConnection, frame: Frame): boolean {
    const sent = conn.send(frame);
    if (sent) this.messagesOut++;
    return sent;
  }

  // ---- authentication and negotiate -------------------------------------------------------------

  /** The access token's claims if the token is valid and its session still active. */
  async authenticate(token: string | null | undefined): Promise<HubAuth | null> {
    if (!token) return null;
    const claims = await this.deps.checkAccess(token);
    if (!claims || claims.expiresAt <= Date.now()) return null;
    return { userId: claims.userId, sessionId: claims.sessionId, expiresAt: claims.expiresAt };
  }

  /** A signed connection token for the user; the WebSocket must arrive within `negotiateTtlMs`, on any instance. */
  negotiate(auth: HubAuth): NegotiateResponse {
    const connectionId = newId();
    const expiresAt = Date.now() + this.options.negotiateTtlMs;
    const connectionToken = signConnectionToken(this.tokenKey, { userId: auth.userId, expiresAt, connectionId });
    return {
      connectionId,
      connectionToken,
      negotiateVersion: 1,
      availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }],
    };
  }

  // ---- the WebSocket transport ------------------------------------------------------------------

  /**
   * Handles an HTTP upgrade to the hub path. The token comes from `Authorization: Bearer` (Node client)
   * or the `access_token` query parameter (browsers); neither is ever logged.
   */
  async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): Promise<void> {
    socket.on('error', () => {});
    if (this.closing) return rejectUpgrade(socket, 404, 'Not Found');
    const token = bearerToken(req.headers.authorization) ?? url.searchParams.get('access_token');
    let auth: HubAuth | null;
    try {
      auth = await this.authenticate(token);
    } catch (err) {
      this.deps.log.error({ err }, 'hub: authentication failed');
      auth = null;
    }
    if (!auth || this.revoked.has(auth.sessionId)) return rejectUpgrade(socket, 401, 'Unauthorized');
    if (this.atConnectionLimit(auth.userId)) return rejectUpgrade(socket, 429, 'Too Many Requests');
    const id = url.searchParams.get('id');
    let connectionId: string;
    let connectionToken: string;
    if (id === null) {
      // skipNegotiation: the connection is created by the upgrade itself.
      connectionToken = newId();
      connectionId = newId();
    } else {
      if (this.byToken.has(id) || this.pending.has(id)) return rejectUpgrade(socket, 409, 'Conflict');
      const p = verifyConnectionToken(this.tokenKey, id);
      // Expired, altered, or negotiated by another user: as good as unknown to this one.
      if (!p || p.userId !== auth.userId) return rejectUpgrade(socket, 404, 'Not Found');
      this.pending.set(id, p.expiresAt);
      connectionToken = id;
      connectionId = p.connectionId;
    }
    if (socket.destroyed) return;
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, connectionId, connectionToken, auth));
  }

  private accept(ws: WebSocket, connectionId: string, connectionToken: string, auth: HubAuth): void {
    if (this.revoked.has(auth.sessionId)) {
      ws.close(1008, 'Session has ended.');
      return;
    }
    const conn = new HubConnection(connectionId, connectionToken, ws, auth, this.options.maxBufferedBytes, () => {
      this.droppedSlow++;
      this.deps.log.warn({ userId: auth.userId, connectionId }, 'hub: slow client dropped');
    });
    this.byToken.set(connectionToken, conn);
    let set = this.byUser.get(auth.userId);
    if (!set) {
      set = new Set();
      this.byUser.set(auth.userId, set);
    }
    set.add(conn);
    ws.on('message', (data, isBinary) => this.onFrame(conn, data, isBinary));
    ws.on('error', () => {
      // Oversized frames (maxPayload) and broken sockets: ws closes the socket itself.
      conn.closed = true;
    });
    ws.on('close', () => this.remove(conn));
  }

  private remove(conn: HubConnection): void {
    conn.closed = true;
    this.invocations.drop(conn);
    this.byToken.delete(conn.connectionToken);
    const set = this.byUser.get(conn.auth.userId);
    if (set) {
      set.delete(conn);
      if (set.size === 0) this.byUser.delete(conn.auth.userId);
    }
  }

  private onFrame(conn: HubConnection, data: RawData, isBinary: boolean): void {
    if (conn.closed) return;
    conn.lastReceivedAt = Date.now();
    try {
      if (isBinary) throw new ProtocolError('Binary frames are not supported by the JSON protocol.');
      const records = splitRecords(rawText(data));
      for (const record of records) {
        if (conn.closed) return;
        this.messagesIn++;
        if (!conn.handshaken) {
          const hs = parseHandshake(record);
          if (hs.protocol !== 'json' || hs.version !== 1) {
            this.sendTo(conn, handshakeErrorFrame(`The protocol '${hs.protocol}' version ${hs.version} is not supported.`));
            conn.close();
            return;
          }
          conn.handshaken = true;
          this.sendTo(conn, HANDSHAKE_OK_FRAME);
          continue;
        }
        this.onMessage(conn, record);
      }
    } catch (err) {
      if (!(err instanceof ProtocolError)) this.deps.log.error({ err }, 'hub: frame handling failed');
      const reason = err instanceof ProtocolError ? err.message : 'Internal error.';
      if (!conn.handshaken) {
        // The handshake answer with its error, then a clean close (a terminate dropped the answer: 1006).
        this.sendTo(conn, handshakeErrorFrame(`Handshake failed: ${reason}`));
        conn.close();
      } else {
        conn.close(`Connection closed with an error. ${reason}`);
      }
    }
  }

  private onMessage(conn: HubConnection, record: string): void {
    const msg = parseMessage(record);
    switch (msg.type) {
      case 1:
      case 4:
        if (this.expireIfNeeded(conn)) return;
        this.submit(conn, msg);
        return;
      case 7:
        conn.close();
        return;
      default:
        // Ping, cancel (nothing streams), ignored types: receiving them already reset the timeout.
        return;
    }
  }

  // ---- hub methods ------------------------------------------------------------------------------

  /**
   * Queues an invocation behind the connection's others (see `HubInvocations`); one past the user's rate
   * limit, or a stream invocation, is answered with an error in its turn without running. A connection
   * with more unanswered invocations than allowed is closed with an error: it floods.
   */
  private submit(conn: HubConnection, msg: InvocationMessage): void {
    let immediate: Outcome | undefined;
    if (msg.type === 4) immediate = { error: 'Streaming methods are not supported.' };
    else if (this.limiter && this.options.rateLimited && this.limiter.take(conn.userId) !== 'ok') {
      this.refused++;
      this.deps.onRefused?.();
      // A client that goes on calling after a queue's worth of refusals is flooding: answering each
      // refusal costs as much as reading it.
      if (++conn.refusedCalls > this.options.maxQueuedInvocations) {
        this.invocations.countFlood();
        this.closeFlooding(conn, 'Too many hub calls.');
        return;
      }
      const seconds = Math.max(1, Math.ceil(this.limiter.resetInMs(conn.userId) / 1000));
      immediate = { error: `Too many hub calls, try again in ${seconds} s.` };
    }
    if (this.invocations.submit(conn, msg, immediate)) return;
    this.closeFlooding(conn, `Too many invocations waiting for an answer (at most ${this.options.maxQueuedInvocations}).`);
  }

  private closeFlooding(conn: HubConnection, reason: string): void {
    this.deps.log.warn({ userId: conn.userId, connectionId: conn.connectionId }, 'hub: connection closed for flooding');
    conn.close(`Connection closed with an error. ${reason}`);
  }

  /** Runs one invocation; `send` (no invocationId) gets nothing back, not even errors. */
  private async run(conn: HubConnection, msg: InvocationMessage): Promise<Outcome> {
    try {
      return { result: await this.runMethod(conn, msg.target, msg.arguments) };
    } catch (err) {
      if (err instanceof HubMethodError) return { error: err.message };
      this.deps.log.error({ err, target: msg.target }, 'hub: method failed');
      return { error: 'An unexpected error occurred invoking the method on the server.' };
    }
  }

  private async runMethod(conn: HubConnection, target: string, args: unknown[]): Promise<unknown> {
    switch (target.toLowerCase()) {
      case HUB_METHODS.subscribeDevice.toLowerCase(): {
        const deviceId = deviceIdArgument(target, args);
        // An id beyond the id columns names no device: not found, without asking the database.
        if (!isStorableId(deviceId) || !(await this.deps.ownsDevice(conn.auth.userId, deviceId)))
          throw new HubMethodError(`Device ${deviceId} not found.`);
        conn.subscriptions.add(deviceId);
        return true;
      }
      case HUB_METHODS.unsubscribeDevice.toLowerCase(): {
        const deviceId = deviceIdArgument(target, args);
        return conn.subscriptions.delete(deviceId);
      }
      default:
        throw new HubMethodError(`Unknown hub method '${target}'`);
    }
  }

  // ---- delivery ---------------------------------------------------------------------------------

  /** A committed reading to the owner's connections subscribed to the device. */
  deliverReading(e: ReadingCommitted): number {
    const conns = this.byUser.get(e.userId);
    if (!conns) return 0;
    let frame: Buffer | null = null;
    let sent = 0;
    for (const conn of conns) {
      if (!conn.subscriptions.has(e.deviceId) || !conn.handshaken) continue;
      if (this.expireIfNeeded(conn)) continue;
      frame ??= Buffer.from(
        invocationFrame(HUB_EVENTS.liveMeasurement, [
          { deviceId: e.deviceId, ts: e.ts, values: e.values } satisfies HubEventMap['liveMeasurement'],
        ]),
      );
      if (this.sendTo(conn, frame)) sent++;
    }
    return sent;
  }

  /** A device status change to all the owner's connections. */
  deliverStatus(e: DeviceStatusChanged): number {
    return this.deliverToUser(e.userId, HUB_EVENTS.deviceStatus, { deviceId: e.deviceId, status: e.status, weakSignal: e.weakSignal });
  }

  /** Any typed event to all of a user's connections on this instance. */
  deliverToUser<E extends HubEventName>(userId: number, event: E, payload: HubEventMap[E]): number {
    const conns = this.byUser.get(userId);
    if (!conns) return 0;
    let frame: Frame | null = null;
    let sent = 0;
    for (const conn of conns) {
      if (!conn.handshaken || this.expireIfNeeded(conn)) continue;
      frame ??= Buffer.from(invocationFrame(event, [payload]));
      if (this.sendTo(conn, frame)) sent++;
    }
    return sent;
  }

  /** A deleted device stops streaming on every connection of its owner. */
  forgetDevice(userId: number, deviceId: number): void {
    for (const conn of this.byUser.get(userId) ?? []) conn.subscriptions.delete(deviceId);
  }

  /** Cuts a user's sockets without a Close message, as a network failure would (the clients reconnect). */
  dropConnections(userId: number): number {
    const conns = [...(this.byUser.get(userId) ?? [])];
    for (const conn of conns) conn.terminate();
    return conns.length;
  }

  /** Closes the connections of an ended session for good (no reconnect: the client must sign in again). */
  closeSession(sessionId: string): void {
    this.revoked.set(sessionId, true);
    for (const conn of this.byToken.values()) {
      if (conn.auth.sessionId === sessionId) conn.close('Session has ended.', false);
    }
  }

  /**
   * Checked before every delivery: an expired access token gets nothing more; the Close allows a
   * reconnect, so the client negotiates again with a fresh token from its accessTokenFactory.
   */
  private expireIfNeeded(conn: HubConnection): boolean {
    if (Date.now() < conn.auth.expiresAt) return false;
    conn.close('Access token expired.', true);
    return true;
  }

  // ---- keep-alive -------------------------------------------------------------------------------

  private startTimer(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.closing) return;
    this.timer = setInterval(() => this.tick(), this.options.tickMs);
    this.timer.unref();
  }

  private tick(): void {
    const now = Date.now();
    const o = this.options;
    for (const [token, expiresAt] of this.pending) if (expiresAt <= now) this.pending.delete(token);
    for (const conn of this.byToken.values()) {
      if (conn.closed) continue;
      if (!conn.handshaken) {
        if (now - conn.openedAt > o.handshakeTimeoutMs) conn.terminate();
        continue;
      }
      if (now - conn.lastReceivedAt > o.clientTimeoutMs) {
        conn.close('Server timeout elapsed without receiving a message from the client.', true);
        continue;
      }
      if (this.expireIfNeeded(conn)) continue;
      if (now - conn.lastSentAt >= o.keepAliveMs) this.sendTo(conn, PING_FRAME);
    }
    if (now - this.lastSessionCheck >= o.sessionCheckMs) {
      this.lastSessionCheck = now;
      void this.recheckSessions();
    }
  }

  /**
   * Asks the database which open connections' sessions are still active and closes the others: every
   * `sessionCheckMs`, and when events from other instances may have been missed (their fan-out was down).
   */
  async recheckSessions(): Promise<void> {
    const sessions = new Set<string>();
    for (const conn of this.byToken.values()) sessions.add(conn.auth.sessionId);
    if (sessions.size === 0) return;
    try {
      const active = await this.deps.activeSessions([...sessions]);
      for (const sessionId of sessions) if (!active.has(sessionId)) this.closeSession(sessionId);
    } catch (err) {
      this.deps.log.warn({ err }, 'hub: session check failed');
    }
  }

  /** Closes every connection (a Close that allows reconnecting: another instance may take over). */
  async close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const conn of this.byToken.values()) conn.close('Server is shutting down.', true);
    this.pending.clear();
    // Give clients a moment to take the Close message, then cut whoever is left.
    const deadline = Date.now() + 2_000;
    while (this.wss.clients.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

/** An error the caller sees in its Completion (anything else is reported as a generic failure). */
export class HubMethodError extends Error {}

function deviceIdArgument(target: string, args: unknown[]): number {
  if (args.length !== 1) throw new HubMethodError(`Invocation provides ${args.length} argument(s) but target expects 1.`);
  // The same id parser as the HTTP routes: a JSON number or canonical decimal text.
  const n = parseId(args[0]);
  if (n === null) throw new HubMethodError(`${target}: deviceId must be a positive integer.`);
  return n;
}
