import type { AccessTokens } from './auth/tokens.js';
import type { AppConfig } from './config.js';
import type { EventBus } from './events/bus.js';
import type { RouteInfo } from './http/openapi.js';
import type { AppMetrics } from './metrics/metrics.js';
import type { AccountsService } from './modules/accounts/accounts.service.js';
import type { Analytics } from './modules/analytics/index.js';
import type { ImportsService } from './modules/imports/imports.service.js';
import type { HomeAssistantPublisher } from './modules/integrations/home-assistant.js';
import type { Notifications } from './modules/notifications/notifications.module.js';
import type { Places } from './modules/places.js';
import type { Telemetry } from './modules/telemetry.js';
import type { Realtime } from './realtime/index.js';
import type { Storage } from './storage/database.js';

/*
 * What the app is built from, apart from app.ts: modules receive the base context and return their
 * services, and app.ts assembles the whole (modules never import app.ts).
 */

/** The core every module is built from. */
export interface BaseContext {
  config: AppConfig;
  storage: Storage;
  tokens: AccessTokens;
  accounts: AccountsService;
  events: EventBus;
  /** Prometheus metrics of this app (served at /metrics when METRICS_TOKEN is set). */
  metrics: AppMetrics;
}

/** What the app is built from; every service is reachable here for start-up tasks and tests. */
export interface AppContext extends BaseContext {
  telemetry: Telemetry;
  realtime: Realtime;
  notifications: Notifications;
  /** Locations and tariffs (costs per zone for reports: `places.tariffs.costPerZone`). */
  places: Places;
  /** Heatmaps, tables, comparisons, exports and the job queue. */
  analytics: Analytics;
  /** History imports (issue 31). */
  imports: ImportsService;
  /** Home Assistant MQTT discovery (null unless HA_DISCOVERY=on with a broker). */
  homeAssistant: HomeAssistantPublisher | null;
  /** Every route the app registered (the gates walk it: a new route is covered without being listed). */
  routes: readonly RouteInfo[];
}
