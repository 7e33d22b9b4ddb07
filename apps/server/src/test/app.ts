import type { FastifyInstance } from 'fastify';
import { type BuildOptions, buildApp } from '../app.js';
import type { AppContext } from '../app-context.js';
import { type AppConfig, loadConfig } from '../config.js';
import type { Dialect } from '../storage/database.js';
import { createTestStorage } from './storage.js';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  config: AppConfig;
  /** Closes the app and deletes its database. */
  close(): Promise<void>;
}

/**
 * The real app on a fresh database of the dialect, not listening (use `app.inject`, or
 * `app.listen({ port: 0, host: '127.0.0.1' })` for real sockets). No demo data, no simulator.
 */
/**
 * Push endpoint hosts in tests resolve through this table only (no DNS query leaves the machine); an
 * unknown name does not resolve.
 */
export const testHosts = new Map<string, string[]>();
const offlineResolver = async (host: string) => {
  const found = testHosts.get(host);
  if (!found) throw Object.assign(new Error(`${host} is not a test host`), { code: 'ENOTFOUND' });
  return found;
};

export async function buildTestApp(
  dialect: Dialect,
  overrides: Partial<AppConfig> = {},
  options: Pick<BuildOptions, 'notifications'> = {},
): Promise<TestApp> {
  const ts = await createTestStorage(dialect);
  const config: AppConfig = {
    ...loadConfig({
      DATA_DIR: ts.dataDir,
      JWT_SECRET: 'test-secret-for-signing-tokens-0123456789',
      // Tests talk to this machine only: collectors reach loopback alone, discovery never broadcasts.
      COLLECTOR_NETWORKS: '127.0.0.0/8,::1/128',
      COLLECTOR_DISCOVERY_ADDRESS: '127.0.0.1:9',
      // Never PSE's public API: tests that import RCE point an importer at a fake on 127.0.0.1.
      RCE_IMPORT: 'off',
    }),
    demo: null,
    simulate: false,
    webDistDir: '/nonexistent',
    logLevel: 'silent',
    ...overrides,
  };
  const { app, ctx } = await buildApp(config, {
    storage: ts.storage,
    logger: false,
    notifications: { resolveHost: offlineResolver, retryDelaysMs: [50, 200], ...options.notifications },
  });
  await app.ready();
  return {
    app,
    ctx,
    config,
    async close() {
      await app.close();
      await ts.dispose();
    },
  };
}

/** Registers and signs in a user; returns the bearer token and the refresh cookie. */
export async function signUp(app: FastifyInstance, email = `u${Math.random().toString(36).slice(2)}@example.com`, password = 'secret1') {
  const res = await app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { email, password, country: 'PL', fullName: 'Test User' },
  });
  if (res.statusCode !== 200) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as { token: string; user: { id: number } };
  const cookie = res.cookies.find((c) => c.name === 'pw_refresh');
  return {
    token: body.token,
    userId: body.user.id,
    email,
    password,
    refreshCookie: cookie?.value ?? '',
    auth: { authorization: `Bearer ${body.token}` },
  };
}
