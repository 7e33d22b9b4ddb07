import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import type { AppContext } from '../app-context.js';
import { type AppConfig, loadConfig } from '../config.js';
import { openStorage } from '../storage/database.js';
import { createTestDatabase } from './storage.js';

export interface TestInstance {
  app: FastifyInstance;
  ctx: AppContext;
  config: AppConfig;
  /** Closes this instance (graceful: what a restart does). */
  close(): Promise<void>;
}

export interface TestDeployment {
  instances: TestInstance[];
  databaseUrl: string;
  /** Starts one more instance on the same database (a join). */
  add(overrides?: Partial<AppConfig>): Promise<TestInstance>;
  /** Closes every instance still open and drops the database. */
  close(): Promise<void>;
}

/**
 * Several instances of the real app on one fresh PostgreSQL database, as a deployment behind a proxy runs
 * them: each with its own pool, writer and hub, sharing the JWT secret and the broker. Not listening (use
 * `app.inject`, or `app.listen({ port: 0, host: '127.0.0.1' })` for real sockets); no demo data, no simulator.
 */
export async function buildTestDeployment(n: number, overrides: Partial<AppConfig> = {}): Promise<TestDeployment> {
  const d = await createTestDatabase('postgres');
  const instances: TestInstance[] = [];
  const add = async (more: Partial<AppConfig> = {}): Promise<TestInstance> => {
    const config: AppConfig = {
      ...loadConfig({
        DATA_DIR: d.dataDir,
        DATABASE_URL: d.databaseUrl,
        JWT_SECRET: 'test-secret-for-signing-tokens-0123456789',
        COLLECTOR_NETWORKS: '127.0.0.0/8,::1/128',
        COLLECTOR_DISCOVERY_ADDRESS: '127.0.0.1:9',
        RCE_IMPORT: 'off',
      }),
      demo: null,
      simulate: false,
      webDistDir: '/nonexistent',
      logLevel: 'silent',
      ...overrides,
      ...more,
    };
    const storage = openStorage({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgPoolSize: config.pgPoolSize });
    const { app, ctx } = await buildApp(config, { storage, logger: false });
    await app.ready();
    let closed = false;
    const inst: TestInstance = {
      app,
      ctx,
      config,
      async close() {
        if (closed) return;
        closed = true;
        await app.close();
      },
    };
    instances.push(inst);
    return inst;
  };
  // One after the other: the first runs the migrations, the others find them done.
  for (let i = 0; i < n; i++) await add();
  return {
    instances,
    databaseUrl: d.databaseUrl,
    add,
    async close() {
      for (const i of instances) await i.close().catch(() => {});
      await d.drop();
    },
  };
}
