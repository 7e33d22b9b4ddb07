import type { FastifyInstance } from 'fastify';
import type { BaseContext } from '../../context.js';
import type { ReportExtras } from '../exports/index.js';
import { HomeAssistantPublisher } from './home-assistant.js';

/**
 * Home Assistant MQTT discovery (issue 31): with `HA_DISCOVERY=on` and a broker (`HA_MQTT_URL`, else
 * `MQTT_URL`), shared devices are published; null otherwise. Started when the app is ready, stopped
 * (bridge `offline`) before storage closes.
 */
export function createHomeAssistant(app: FastifyInstance, base: BaseContext, extras: ReportExtras): HomeAssistantPublisher | null {
  if (!base.config.haDiscovery || !base.config.haMqttUrl) return null;
  const publisher = new HomeAssistantPublisher({
    url: base.config.haMqttUrl,
    db: base.storage.db,
    dialect: base.storage.dialect,
    events: base.events,
    log: app.log.child({ module: 'home-assistant' }),
    version: base.config.appVersion,
    costToday: async (device, from, to) => {
      const c = await extras.tariffCosts(device.user_id, device, from, to);
      return c ? { currency: c.currency, cost: c.totalCost } : null;
    },
  });
  app.addHook('onReady', async () => publisher.start());
  app.addHook('preClose', async () => publisher.stop());
  return publisher;
}
