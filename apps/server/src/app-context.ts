import type { BaseContext } from './context.js';
import type { RouteInfo } from './http/openapi.js';
import type { Jobs } from './jobs/index.js';
import type { Analytics } from './modules/analytics/index.js';
import type { ImportsService } from './modules/imports/index.js';
import type { HomeAssistantPublisher } from './modules/integrations/index.js';
import type { Notifications } from './modules/notifications/index.js';
import type { Places } from './modules/places/index.js';
import type { Telemetry } from './modules/telemetry/index.js';
import type { Realtime } from './realtime/index.js';

/*
 * The whole app as app.ts assembles it (every service reachable for start-up tasks and tests). Lives with
 * app.ts: modules never import it (they get `BaseContext` and the fronts they need), so no module's types
 * run in a circle through it.
 */

/** What the app is built from; every service is reachable here for start-up tasks and tests. */
export interface AppContext extends BaseContext {
  telemetry: Telemetry;
  realtime: Realtime;
  notifications: Notifications;
  /** Locations and tariffs (costs per zone for reports: `places.tariffs.costPerZone`). */
  places: Places;
  /** The job queue and its worker threads (exports, reports, imports run on them). */
  jobs: Jobs;
  /** Heatmaps, tables, comparisons and exports. */
  analytics: Analytics;
  /** History imports (issue 31). */
  imports: ImportsService;
  /** Home Assistant MQTT discovery (null unless HA_DISCOVERY=on with a broker). */
  homeAssistant: HomeAssistantPublisher | null;
  /** Every route the app registered (the gates walk it: a new route is covered without being listed). */
  routes: readonly RouteInfo[];
}
