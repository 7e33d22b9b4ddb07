import { type DeviceKind, deviceKind, mqttReadingsTopic } from '@phasewatch/shared';

/** A plausible reading of each kind, inside the catalogue's ranges, for the examples. */
const EXAMPLE_VALUES: Record<DeviceKind, Record<string, number>> = {
  energy: { pave1: 412, vave1: 231.2, iave1: 1.78, eai1: 1234.56 },
  singlePhase: { pave1: 412, vave1: 231.2, iave1: 1.78, eai1: 1234.56 },
  solar: { pave1: 2150, vave1: 232.4, eae1: 845.2 },
  thermostat: { tempmain: 21.4, tempset: 21.5, rel1: 1 },
  generic: { pave1: 412, vave1: 231.2 },
};

export interface IngestExamples {
  /** The JSON body of one reading. */
  body: string;
  /** `curl` to POST /api/ingest with the device key header. */
  http: string;
  /** `mosquitto_pub` of the same JSON with the key, on the device's topic. */
  mqtt: string;
  topic: string;
}

/** UTC timestamp without milliseconds, as devices send it. */
const isoSeconds = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/**
 * How a new device sends its readings (README "Connecting a device"), filled with its key, MAC, a
 * reading of its kind and the server's address: over HTTP, or over MQTT to the broker the server
 * subscribes to (`MQTT_URL`).
 */
export function ingestExamples(opts: { origin: string; key: string; mac: string; typeCode: number; now: number }): IngestExamples {
  const reading = { ts: isoSeconds(opts.now), values: EXAMPLE_VALUES[deviceKind(opts.typeCode)] };
  const body = JSON.stringify({ readings: [reading] });
  const topic = mqttReadingsTopic(opts.mac);
  const http = [
    `curl -s -X POST ${opts.origin}/api/ingest \\`,
    `  -H 'x-device-key: ${opts.key}' \\`,
    `  -H 'content-type: application/json' \\`,
    `  -d '${body}'`,
  ].join('\n');
  const mqtt = [`mosquitto_pub -h BROKER_HOST -t '${topic}' \\`, `  -m '${JSON.stringify({ key: opts.key, readings: [reading] })}'`].join(
    '\n',
  );
  return { body, http, mqtt, topic };
}
