import { afterAll, beforeAll } from 'vitest';
import { type Broker, startMosquitto } from '../../../../scripts/testing/mosquitto.js';

/**
 * A Mosquitto broker of the calling test file's own, started before its tests and stopped after them.
 * Every server subscribes to `phasewatch/+/readings` (and collectors to Tasmota's `tele/+/SENSOR`), so
 * files sharing one broker hear each other's messages when they run side by side and their counts go wrong.
 * Call at the top level of the file; read `url()` inside tests or hooks.
 */
export function useOwnBroker(): { url(): string } {
  let broker: Broker | undefined;
  beforeAll(async () => {
    broker = await startMosquitto();
  });
  afterAll(async () => broker?.stop());
  return {
    url() {
      if (!broker) throw new Error('the broker starts in beforeAll: read its url inside a test or hook');
      return broker.url;
    },
  };
}
