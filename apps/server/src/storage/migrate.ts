import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Dialect } from './database.js';
import { migrations } from './migrations/index.js';

/** Each migration receives the dialect so it can pick column types that differ (ids, big integers). */
export interface VersionedMigration {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
  down?(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, m] of Object.entries(migrations)) {
      out[name] = {
        up: (db) => m.up(db, this.dialect),
        ...(m.down ? { down: (db: Kysely<unknown>) => m.down?.(db, this.dialect) ?? Promise.resolve() } : {}),
      };
    }
    return out;
  }
}

/**
 * Runs every pending migration in name order (or up to and including `upTo`: tests of a migration
 * start from the schema before it); throws with the failing migration's name.
 */
export async function migrateToLatest(db: Kysely<unknown>, dialect: Dialect, upTo?: string): Promise<string[]> {
  // Unordered: migrations written side by side (one number apart) may land in either order; each one
  // stands alone, and a database that ran the later number first still gets the earlier one.
  const migrator = new Migrator({ db, provider: new StaticProvider(dialect), allowUnorderedMigrations: true });
  const { error, results } = upTo === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(upTo);
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed?.migrationName ?? '?'} failed: ${reason}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
