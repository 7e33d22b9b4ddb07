import { existsSync } from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import { APP_VERSION_HEADER } from '@phasewatch/shared';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController, type onRequestAsyncHookHandler } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import type { AppContext } from './app-context.js';
import { makeAuthenticate } from './auth/authenticate.js';
import { AccessTokens } from './auth/tokens.js';
import type { AppConfig } from './config.js';
import type { BaseContext } from './context.js';
import { EventBus } from './events/bus.js';
import { errorBody, frameworkErrorOptions, registerErrorHandling } from './http/errors.js';
import { collectRoutes, registerApiDocs } from './http/openapi.js';
import { registerRateLimits } from './http/rate-limits.js';
import { createJobs } from './jobs/index.js';
import { AppMetrics } from './metrics/metrics.js';
import { METRICS_PATH, registerMetrics } from './metrics/metrics.routes.js';
import { AccountsRepository, AccountsService, accountsRoutes } from './modules/accounts/index.js';
import { createAnalytics } from './modules/analytics/index.js';
import { EXPORT_JOB_KINDS } from './modules/exports/index.js';
import { healthRoutes } from './modules/health/index.js';
import { createImports, IMPORT_JOB_KINDS } from './modules/imports/index.js';
import { createHomeAssistant } from './modules/integrations/index.js';
import {
  createMailChannel,
  createNotifications,
  type Notifications,
  type NotificationsBuildOptions,
  passwordResetMailer,
} from './modules/notifications/index.js';
import { createPlaces } from './modules/places/index.js';
import { createPowerQuality, POWER_QUALITY_JOB_KINDS, powerQualityPdfJob, weekVerdicts } from './modules/power-quality/index.js';
import { createTelemetry } from './modules/telemetry/index.js';
import { createRealtime } from './realtime/index.js';
import { openStorage, type Storage } from './storage/database.js';
import { migrateToLatest } from './storage/migrate.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * onRequest hook of routes that need a signed-in user; sets `request.auth`. Runs before the body is
     * read, so a request without a valid token gets 401 and nothing else (no validation answers).
     */
    authenticate: onRequestAsyncHookHandler;
  }
}

export interface BuildOptions {
  /** Use this storage instead of opening one from the config (tests); it is closed with the app. */
  storage?: Storage;
  /** A pino logger, or false for none (tests). */
  logger?: boolean | FastifyBaseLogger | object;
  /** Notification rules and channels (tests: a DNS stub, short retries; the ingest bench: rules off). */
  notifications?: NotificationsBuildOptions;
}

/**
 * Cache-Control of a file of the built web app (path relative to its root): Vite's hashed assets never
 * change under their name, so browsers keep them a year without asking; `index.html` names the current
 * assets, so it is revalidated on every load (ETag: a 304 when unchanged); other files an hour.
 */
export function webCacheControl(relativePath: string): string {
  const file = relativePath
    .split(path.sep)
    .join('/')
    .replace(/\.(br|gz)$/, '');
  if (file.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  if (file === 'index.html') return 'no-cache';
  return 'public, max-age=3600';
}

/** Builds the app without listening: tests call `inject()`, server.ts calls `listen()`. */
export async function buildApp(config: AppConfig, opts: BuildOptions = {}): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const app = createFastify(config, opts.logger);
  const routes = collectRoutes(app);

  const storage = opts.storage ?? openStorage({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgPoolSize: config.pgPoolSize });
  app.addHook('onClose', async () => storage.close());
  await migrateToLatest(storage.db as never, storage.dialect);

  const tokens = new AccessTokens(config.jwtSecret, config.accessTokenTtlSeconds);
  const events = new EventBus();
  const metrics = new AppMetrics();
  const mail = createMailChannel(config, app.log, metrics, opts.notifications?.retryDelaysMs);
  const accounts = new AccountsService(new AccountsRepository(storage.db), tokens, app.log, {
    refreshTtlSeconds: config.refreshTokenTtlSeconds,
    loginMaxFailures: config.loginMaxFailures,
    loginFailureWindowMs: config.loginFailureWindowMs,
    publicUrl: config.publicUrl,
    events,
    resetMail: passwordResetMailer(mail),
  });
  const base: BaseContext = { config, storage, tokens, accounts, events, metrics };
  app.decorate('authenticate', makeAuthenticate(accounts.checkAccess));

  registerSecurityHeaders(app, config);
  await registerHttpPlugins(app, config, metrics);
  const modules = await createModules(app, base, mail, opts);
  await serveWebApp(app, config);
  return { app, ctx: { ...base, ...modules, routes } };
}

/** Fastify with the app's logger, limits, proxy trust, zod schemas and error shape. */
function createFastify(config: AppConfig, given: BuildOptions['logger']) {
  const logger = given ?? {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-device-key"]', 'req.query.access_token'],
    // Readable lines for a person at a terminal; JSON lines otherwise (files, log collectors, CI).
    ...(process.stdout.isTTY && process.env.LOG_FORMAT !== 'json'
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } }
      : {}),
  };
  const app = Fastify({
    ...(typeof logger === 'object' && 'child' in logger ? { loggerInstance: logger as FastifyBaseLogger } : { logger }),
    bodyLimit: config.bodyLimitBytes,
    // X-Forwarded-For only from the proxies named by TRUST_PROXY: anyone else could pick their own address.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Per-request lines only at debug: ingest and the hub would flood the log otherwise.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' }),
    routerOptions: { ignoreTrailingSlash: true },
    ...frameworkErrorOptions,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  return app;
}

/**
 * Security headers on every answer. The middleware is built once (@fastify/helmet built it again for
 * every request, parsing the CSP each time: 2.4 % of the server's CPU at 2,000 live devices).
 */
function registerSecurityHeaders(app: FastifyInstance, config: AppConfig): void {
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine and ECharts set inline styles.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // The app is served over plain HTTP on loopback by default.
    hsts: config.cookieSecure,
  });
  app.addHook('onRequest', (req, reply, done) => {
    securityHeaders(req.raw, reply.raw, (err?: unknown) => done(err instanceof Error ? err : undefined));
  });
}

/** CORS (when allowed origins are set), cookies, the API document, metrics, rate limits, compression, version. */
async function registerHttpPlugins(app: FastifyInstance, config: AppConfig, metrics: AppMetrics): Promise<void> {
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      credentials: true,
      allowedHeaders: ['authorization', 'content-type', 'x-requested-with', 'x-signalr-user-agent'],
      exposedHeaders: [APP_VERSION_HEADER],
    });
  }
  await app.register(cookie);
  // Before any API route: the document is built from the routes registered after it.
  await registerApiDocs(app, config.appVersion);
  if (config.metricsToken) registerMetrics(app, metrics, config.metricsToken);
  await registerRateLimits(app, config.rateLimits, metrics);
  // Answers of 1 KB and more go out compressed when the client accepts it: brotli at quality 4 (11 costs
  // seconds on a year of readings), else gzip. The web app's files are compressed at build time instead
  // (served below with preCompressed); an answer that already carries a content-encoding is left alone.
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 });

  app.addHook('onSend', async (_req, reply) => {
    reply.header(APP_VERSION_HEADER, config.appVersion);
  });
}

/** The feature modules, wired in the order their hooks must run; what the app context holds of them. */
async function createModules(app: FastifyInstance, base: BaseContext, mail: ReturnType<typeof createMailChannel>, opts: BuildOptions) {
  const { config, storage, accounts } = base;
  await app.register(
    async (api) => {
      await api.register(healthRoutes, { storage, version: config.appVersion });
      await api.register(accountsRoutes, { accounts, cookieSecure: config.cookieSecure });
    },
    { prefix: '/api' },
  );
  // Registered before the telemetry's: alarm changes under way are stored before the readings writer stops.
  let notifications: Notifications | undefined;
  app.addHook('preClose', async () => notifications?.close());
  const telemetry = await createTelemetry(app, base);
  const realtime = await createRealtime(app, base, telemetry);
  const powerQuality = await createPowerQuality(app, base, telemetry);
  // Issue 30: the weekly EN 50160 notification reads the power-quality report, handed in here (one-way imports).
  notifications = await createNotifications(
    app,
    { ...base, telemetry, realtime, qualityWeeks: weekVerdicts(powerQuality) },
    mail,
    opts.notifications,
  );
  const places = await createPlaces(app, base, telemetry);
  // The job queue and its threads, owned by no feature: each feature hands in its kinds (module URLs).
  const jobs = createJobs(app, base, { ...EXPORT_JOB_KINDS, ...POWER_QUALITY_JOB_KINDS, ...IMPORT_JOB_KINDS });
  // Issue 30: the power-quality PDF runs as an export job beside the data exports.
  const analytics = await createAnalytics(app, base, telemetry, realtime, jobs, {
    ...places.reportExtras,
    powerQuality: powerQualityPdfJob(powerQuality),
  });
  // History imports run on the job queue (issue 31), their parsing on its job threads.
  const imports = await createImports(app, base, telemetry, jobs.queue, jobs.pool);
  const homeAssistant = createHomeAssistant(app, base, places.reportExtras);
  return { telemetry, realtime, notifications, places, jobs, analytics, imports, homeAssistant };
}

/** The built web app (when there is one) and the 404 answer for everything no route serves. */
async function serveWebApp(app: FastifyInstance, config: AppConfig): Promise<void> {
  const indexHtml = path.join(config.webDistDir, 'index.html');
  const hasWeb = existsSync(indexHtml);
  const hasFavicon = hasWeb && existsSync(path.join(config.webDistDir, 'favicon.svg'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDistDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each file (apps/web/build/precompress.ts): sent in place of the
      // file to clients that accept them, never as files of their own (no route for them).
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
      cacheControl: false,
      setHeaders: (reply, file) => reply.header('cache-control', webCacheControl(path.relative(config.webDistDir, file))),
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    // /metrics is the server's (on when METRICS_TOKEN is set): off, a scraper gets 404, not the web app.
    const isApi = url.startsWith('/api/') || url === '/api' || url.startsWith('/hubs/') || url === METRICS_PATH;
    // A file of the build that does not exist (an old hashed chunk after a deploy) is a 404, never the
    // index page: a script tag would otherwise run HTML and the chunk loader could not tell it failed.
    const isAsset = url.startsWith('/assets/');
    // A path naming a file (`/favicon.ico`, `/robots.txt`, `/index.html.br`) is not a page of the app:
    // the web app's routes have no extensions. Browsers and crawlers ask for /favicon.ico on their own.
    const isFile = /\.[A-Za-z0-9]{1,8}$/.test(url);
    if (isFile && url === '/favicon.ico' && hasFavicon && (req.method === 'GET' || req.method === 'HEAD')) {
      return reply.header('cache-control', 'public, max-age=86400').redirect('/favicon.svg', 301);
    }
    if (!isApi && !isAsset && !isFile && hasWeb && (req.method === 'GET' || req.method === 'HEAD')) {
      // History-API fallback: the web app's router decides, and shows its 404 page for unknown paths.
      return reply.sendFile('index.html');
    }
    return reply
      .status(404)
      .send(errorBody(404, `Route ${req.method} ${url} not found`, [{ message: `Route ${req.method} ${url} not found` }]));
  });
}
