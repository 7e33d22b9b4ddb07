import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { DeviceStatusChanged, ReadingCommitted } from '../events/bus.js';

/** What travels between instances. */
export type FanoutEvent =
  | { k: 'reading'; e: ReadingCommitted }
  | { k: 'status'; e: DeviceStatusChanged }
  | { k: 'user'; userId: number; event: string; payload: unknown }
  | { k: 'deviceDeleted'; userId: number; deviceId: number }
  | { k: 'sessionRevoked'; sessionId: string };

/**
 * A NOTIFY payload: a batch of events, one part of an event too big for one payload, or an instance
 * saying it is there (`h`: 'hello' when it starts listening, 'beat' every PEER_BEAT_MS and in answer to
 * a hello, 'bye' when it stops).
 */
type Envelope =
  | { o: string; b: FanoutEvent[] }
  | { o: string; c: { id: string; i: number; n: number; p: string } }
  | { o: string; h: 'hello' | 'beat' | 'bye' };

export const FANOUT_CHANNEL = 'phasewatch_hub';
/** NOTIFY payloads must be shorter than 8,000 bytes; leave room for the envelope. */
const MAX_PAYLOAD_BYTES = 7_500;
const RECONNECT_MS = 1_000;
/** How often an instance says it is there. */
const PEER_BEAT_MS = 10_000;
/** An instance not heard of for this long is gone (a few beats missed under load are not). */
const PEER_GONE_MS = 35_000;

/**
 * Cross-instance fan-out over PostgreSQL LISTEN/NOTIFY. Events are delivered locally by the caller at
 * once and published here; each instance skips its own notifications (`o`), so nobody gets a
 * duplicate. Events published in the same tick share a payload; an event too big for one is split
 * into parts sent in one statement (one transaction, so they arrive together and in order).
 *
 * Readings, the bulk of the traffic (2,000 live devices: ~3 MB a second of payloads, a NOTIFY per
 * event-loop turn, each heard back by the sender's own LISTEN client), are published only while another
 * instance is there: instances say hello when they start listening, answer a hello at once, and beat
 * every PEER_BEAT_MS. A lone server (the usual deployment) sends none; an instance that starts hears
 * of the others within a round trip, before it serves anyone. The other events are rare and always
 * published.
 */
export class PgFanout {
  readonly instanceId = randomBytes(8).toString('base64url');
  /** How this instance's payloads start (JSON.stringify keeps `o` first). */
  private readonly ownPrefix = `{"o":${JSON.stringify(this.instanceId)},`;
  private listener: pg.Client | null = null;
  private queue: FanoutEvent[] = [];
  private flushScheduled = false;
  private readonly parts = new Map<string, { n: number; got: string[]; count: number; at: number }>();
  private stopped = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private inFlight = new Set<Promise<unknown>>();
  /** Other instances listening on the channel, with when they were last heard of. */
  private readonly peers = new Map<string, number>();
  private beatTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly onEvent: (e: FanoutEvent) => void,
    private readonly log: FastifyBaseLogger,
    private readonly channel = FANOUT_CHANNEL,
    /** Called when listening again after the LISTEN connection was lost (events of that time were missed). */
    private readonly onResumed: () => void = () => {},
  ) {}

  /** Whether the LISTEN connection was up once (a later start is a resumption). */
  private listenedBefore = false;

  /** Connects the dedicated LISTEN client (not from the pool: it is held for the app's lifetime). */
  async start(): Promise<void> {
    const client = new pg.Client(this.pool.options);
    client.on('notification', (n) => {
      if (n.channel === this.channel && n.payload) this.receive(n.payload);
    });
    client.on('error', (err) => {
      this.log.warn({ err }, 'hub: LISTEN connection failed; reconnecting');
      this.drop(client);
    });
    client.on('end', () => this.drop(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      throw err;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.listener = client;
    if (this.listenedBefore) this.onResumed();
    this.listenedBefore = true;
    // Listening now: the others learn of this instance (and answer, so it learns of them).
    this.say('hello');
    this.beatTimer ??= setInterval(() => this.say('beat'), PEER_BEAT_MS);
    this.beatTimer.unref();
  }

  /** Whether another instance was heard of lately (readings are published only then). */
  get hasPeers(): boolean {
    const now = Date.now();
    for (const [id, at] of this.peers) if (now - at > PEER_GONE_MS) this.peers.delete(id);
    return this.peers.size > 0;
  }

  /** A presence notice, on its own (not batched with events). */
  private say(h: 'hello' | 'beat' | 'bye'): Promise<unknown> {
    const payload = JSON.stringify({ o: this.instanceId, h } satisfies Envelope);
    const p = this.pool
      .query('SELECT pg_notify($1, $2)', [this.channel, payload])
      .catch((err: unknown) => this.log.warn({ err }, 'hub: presence NOTIFY failed'))
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
    return p;
  }

  /** Notifications sent while the LISTEN client is down are lost to this instance (logged). */
  private drop(client: pg.Client): void {
    if (this.listener !== client) return;
    this.listener = null;
    client.removeAllListeners('end');
    void client.end().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.stopped) return;
      this.start().catch((err: unknown) => {
        this.log.warn({ err }, 'hub: LISTEN reconnect failed');
        this.scheduleReconnect();
      });
    }, RECONNECT_MS);
    this.reconnectTimer.unref();
  }

  publish(e: FanoutEvent): void {
    if (this.stopped) return;
    if (e.k === 'reading' && !this.hasPeers) return;
    this.queue.push(e);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    const events = this.queue;
    this.queue = [];
    const payloads: string[] = [];
    let batch: FanoutEvent[] = [];
    let batchBytes = 0;
    const push = () => {
      if (batch.length > 0) payloads.push(JSON.stringify({ o: this.instanceId, b: batch } satisfies Envelope));
      batch = [];
      batchBytes = 0;
    };
    for (const e of events) {
      const json = JSON.stringify(e);
      const bytes = Buffer.byteLength(json);
      if (bytes > MAX_PAYLOAD_BYTES - 100) {
        push();
        payloads.push(...this.split(json));
        continue;
      }
      if (batchBytes + bytes + 1 > MAX_PAYLOAD_BYTES - 100) push();
      batch.push(e);
      batchBytes += bytes + 1;
    }
    push();
    if (payloads.length === 0) return;
    // One statement per flush: its notifications commit together, in order.
    const calls = payloads.map((_, i) => `pg_notify($1, $${i + 2})`).join(', ');
    const p = this.pool
      .query(`SELECT ${calls}`, [this.channel, ...payloads])
      .catch((err: unknown) => this.log.warn({ err }, 'hub: NOTIFY failed; other instances miss these events'))
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  private split(json: string): string[] {
    const id = randomBytes(6).toString('base64url');
    // Cut by characters small enough that even all-multibyte text stays under the limit once escaped.
    const size = Math.floor((MAX_PAYLOAD_BYTES - 200) / 6);
    const chunks: string[] = [];
    for (let i = 0; i < json.length; i += size) chunks.push(json.slice(i, i + size));
    return chunks.map((p, i) => JSON.stringify({ o: this.instanceId, c: { id, i, n: chunks.length, p } } satisfies Envelope));
  }

  private receive(payload: string): void {
    // Our own notifications come back too: recognised by their start, without parsing them.
    if (payload.startsWith(this.ownPrefix)) return;
    let env: Envelope;
    try {
      env = JSON.parse(payload) as Envelope;
    } catch {
      return;
    }
    if (env.o === this.instanceId) return;
    if ('h' in env) {
      if (env.h === 'bye') this.peers.delete(env.o);
      else this.peers.set(env.o, Date.now());
      if (env.h === 'hello' && !this.stopped) void this.say('beat');
      return;
    }
    if ('b' in env) {
      for (const e of env.b) this.dispatch(e);
      return;
    }
    const { id, i, n, p } = env.c;
    const now = Date.now();
    // Parts of a message whose sender died half-way are forgotten after a while.
    for (const [key, v] of this.parts) if (now - v.at > 30_000) this.parts.delete(key);
    let entry = this.parts.get(id);
    if (!entry) {
      entry = { n, got: new Array<string>(n), count: 0, at: now };
      this.parts.set(id, entry);
    }
    if (entry.got[i] === undefined) {
      entry.got[i] = p;
      entry.count++;
    }
    if (entry.count === entry.n) {
      this.parts.delete(id);
      try {
        this.dispatch(JSON.parse(entry.got.join('')) as FanoutEvent);
      } catch {
        // a corrupt message is dropped, never thrown into the LISTEN client
      }
    }
  }

  private dispatch(e: FanoutEvent): void {
    try {
      this.onEvent(e);
    } catch (err) {
      this.log.error({ err }, 'hub: fan-out delivery failed');
    }
  }

  async stop(): Promise<void> {
    if (this.flushScheduled) this.flush();
    if (this.listener) void this.say('bye');
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.beatTimer) clearInterval(this.beatTimer);
    await Promise.allSettled([...this.inFlight]);
    const l = this.listener;
    this.listener = null;
    if (l) {
      l.removeAllListeners('end');
      await l.end().catch(() => {});
    }
  }
}
