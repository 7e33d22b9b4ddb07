import type { VersionedMigration } from '../migrate.js';
import * as m0001 from './0001-accounts.js';
import * as m0002 from './0002-devices.js';
import * as m0003 from './0003-readings.js';
import * as m0004 from './0004-packed-rollups.js';
import * as m0005 from './0005-login-attempts.js';
import * as m0006 from './0006-rollups-v2.js';
import * as m0007 from './0007-locations-tariffs.js';
import * as m0008 from './0008-analytics-exports.js';
import * as m0009 from './0009-notifications.js';
import * as m0010 from './0010-collectors.js';
import * as m0011 from './0011-power-quality-aggregate.js';
import * as m0012 from './0012-quality-weeks.js';
import * as m0013 from './0013-prosumer.js';
import * as m0014 from './0014-scale-out.js';
import * as m0015 from './0015-integrations.js';
import * as m0016 from './0016-rce-import.js';

/**
 * Every migration, in order. Names sort lexically; add a new file with the next number and list it
 * here (a static list, so the compiled server needs no directory scan).
 */
export const migrations: Record<string, VersionedMigration> = {
  '0001-accounts': m0001,
  '0002-devices': m0002,
  '0003-readings': m0003,
  '0004-packed-rollups': m0004,
  '0005-login-attempts': m0005,
  '0006-rollups-v2': m0006,
  '0007-locations-tariffs': m0007,
  '0008-analytics-exports': m0008,
  '0009-notifications': m0009,
  '0010-collectors': m0010,
  '0011-power-quality-aggregate': m0011,
  '0012-quality-weeks': m0012,
  '0013-prosumer': m0013,
  '0014-scale-out': m0014,
  '0015-integrations': m0015,
  '0016-rce-import': m0016,
};
