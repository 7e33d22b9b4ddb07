import type { AccessTokens } from './auth/tokens.js';
import type { AppConfig } from './config.js';
import type { EventBus } from './events/bus.js';
import type { AppMetrics } from './metrics/metrics.js';
import type { AccountsService } from './modules/accounts/index.js';
import type { Storage } from './storage/database.js';

/*
 * The core every module is built from: modules receive it (with the fronts of the modules they need) and
 * return their services; app.ts assembles the whole into `AppContext` (app-context.ts), which no module
 * imports. This file imports no module but the accounts front (a type).
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
