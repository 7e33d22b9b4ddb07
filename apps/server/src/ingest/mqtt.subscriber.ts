import { ingestRequestSchema, macSchema, mqttReadingsTopic } from '@phasewatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import mqtt from 'mqtt';
import type { WindowLimiter } from '../http/rate-limits.js';
import type { IngestService } from './ingest.service.js';

export const MQTT_TOPIC = mqttReadingsTopic('+');

/**
 * The subscription of the readings topic: shared (`$share/<group>/…`, MQTT 5 and Mosquitto ≥ 1.6 for 3.1.1
 * too, EMQX, HiveMQ) so that each message goes to one instance of the group, or plain when the group is empty
 * (a broker without shared subscriptions: then run one instance with MQTT_URL).
 */
export function mqttSubscription(shareGroup: string): string {
  return shareGroup ? `$share/${shareGroup}/${MQTT_TOPIC}` : MQTT_TOPIC;
}

export interface MqttStats {
  received: number;
  accepted: number;
  rejected: number;
  errors: number;
}

/**
 * Subscribes to `phasewatch/<mac>/readings` and feeds the shared writer. The payload is the ingest
 * JSON plus the device key as `key` (or, with MQTT 5, a `key` user property): a subscriber cannot see
 * a publisher's username/password, so credentials work only through the payload or properties. The
 * topic's MAC must be the key's device. Bad messages are logged and counted, never thrown. With a share group
 * the instances behind one broker split the messages (the broker picks one subscriber of the group for each).
 */
export class MqttSubscriber {
  readonly stats: MqttStats = { received: 0, accepted: 0, rejected: 0, errors: 0 };
  private client: mqtt.MqttClient | null = null;

  constructor(
    private readonly url: string,
    private readonly ingest: IngestService,
    private readonly log: FastifyBaseLogger,
    /** The per-device ingest limit (RATE_LIMIT_INGEST), as HTTP ingest has it; null: none. */
    private readonly limiter: WindowLimiter | null = null,
    private readonly onLimited: () => void = () => {},
    /** MQTT_SHARE_GROUP: each message to one instance of the group; empty: every instance hears every message. */
    private readonly shareGroup = '',
  ) {}

  /** Connects in the background; resolves once subscribed or after the first failure (it keeps retrying). */
  start(): Promise<void> {
    const client = mqtt.connect(this.url, {
      protocolVersion: 5,
      reconnectPeriod: 2000,
      connectTimeout: 5000,
      clientId: `phasewatch-server-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    });
    this.client = client;
    client.on('message', (topic, payload, packet) => {
      void this.handle(topic, payload, packet.properties?.userProperties?.key);
    });
    client.on('error', (err) => {
      this.stats.errors++;
      this.log.warn({ err }, 'mqtt error');
    });
    return new Promise<void>((resolve) => {
      client.once('connect', () => {
        client.subscribe(mqttSubscription(this.shareGroup), { qos: 1 }, (err) => {
          if (err) {
            this.stats.errors++;
            this.log.warn({ err }, 'mqtt subscribe failed');
          }
          resolve();
        });
      });
      client.once('error', () => resolve());
    });
  }

  private async handle(topic: string, payload: Buffer, propertyKey: string | string[] | undefined): Promise<void> {
    this.stats.received++;
    try {
      const topicMac = macSchema.safeParse(topic.split('/')[1] ?? '');
      let json: unknown;
      try {
        json = JSON.parse(payload.toString('utf8'));
      } catch {
        throw new Error('payload is not JSON');
      }
      const obj = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
      const { key: payloadKey, ...rest } = obj;
      const key = typeof payloadKey === 'string' ? payloadKey : Array.isArray(propertyKey) ? propertyKey[0] : propertyKey;
      const device = await this.ingest.authenticate(key);
      const allowed = this.limiter?.take(device.id) ?? 'ok';
      if (allowed !== 'ok') {
        this.stats.rejected++;
        this.onLimited();
        // Logged once a window: a flooding device must not flood the log too.
        if (allowed === 'first') this.log.warn({ topic, deviceId: device.id }, 'mqtt readings refused: device over its rate limit');
        return;
      }
      if (!topicMac.success || topicMac.data !== device.mac) throw new Error(`topic ${topic} is not the device's MAC`);
      // As over HTTP: the usual shape is checked by one loop, anything else by the schema for its errors.
      if (this.ingest.precheck(rest)) await this.ingest.ingest(device, rest, 'mqtt');
      else {
        const body = ingestRequestSchema.safeParse(rest);
        if (!body.success) throw new Error(body.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
        await this.ingest.ingest(device, body.data, 'mqtt');
      }
      this.stats.accepted++;
    } catch (err) {
      this.stats.rejected++;
      this.log.warn({ topic, reason: err instanceof Error ? err.message : String(err) }, 'mqtt reading rejected');
    }
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = null;
    if (c) await c.endAsync(true).catch(() => {});
  }
}
