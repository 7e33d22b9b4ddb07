import type { VersionedMigration } from '../migrate.js';
import * as m0001 from './0001-accounts.js';

/**
 * Every migration, in order. Names sort lexically; add a new file with the next number and list it
 * here (a static list, so the compiled server needs no directory scan).
 */
export const migrations: Record<string, VersionedMigration> = {
  '0001-accounts': m0001,
};
