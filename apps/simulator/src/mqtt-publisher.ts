import { mqttReadingsTopic } from '@phasewatch/shared';
import { ingestBody } from './serialize.js';

/** Sends readings over MQTT the way a device would: its own topic, its key in the payload. */
export interface MqttPublisher {
  publish(mac: string, key: string, readings: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** The topic a device publishes its readings to. */
export function readingsTopic(mac: string): string {
  return mqttReadingsTopic(mac);
}

/**
 * Connects to the broker. The client library is loaded on demand, so HTTP-only runs (the embedded
 * default) never pay for it.
 */
export async function connectMqtt(url: string): Promise<MqttPublisher> {
  const mqtt = await import('mqtt');
  const client = await mqtt.connectAsync(url, {
    clientId: `phasewatch-sim-${process.pid}-${Date.now().toString(36)}`,
    reconnectPeriod: 2000,
  });
  return {
    async publish(mac, key, readings) {
      // QoS 1: the broker acknowledges, so a lost connection shows up as an error rather than silence.
      await client.publishAsync(readingsTopic(mac), ingestBody(readings, { key }), { qos: 1 });
    },
    async close() {
      await client.endAsync();
    },
  };
}
