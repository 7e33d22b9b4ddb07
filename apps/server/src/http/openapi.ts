import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { apiErrorResponseSchema } from '@phasewatch/shared';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** A route as the app registered it: the route list the schema, fuzzing and tenancy gates walk. */
export interface RouteInfo {
  method: string;
  url: string;
  schema: (FastifySchema & { hide?: boolean }) | undefined;
}

/** Where the reference page and the document are served. */
export const DOCS_PATH = '/api/docs';
export const OPENAPI_PATH = '/api/openapi.json';

/**
 * Every route registered from now on, in registration order (HEAD routes Fastify adds for GETs left
 * out). Call before any route is registered.
 */
export function collectRoutes(app: FastifyInstance): readonly RouteInfo[] {
  const routes: RouteInfo[] = [];
  app.addHook('onRoute', (r: RouteOptions) => {
    for (const method of [r.method].flat()) {
      if (method === 'HEAD' && r.method !== 'HEAD' && [r.method].flat().includes('GET')) continue;
      if (method === 'HEAD' && routes.some((x) => x.method === 'GET' && x.url === r.url)) continue;
      routes.push({ method, url: r.url, schema: r.schema as RouteInfo['schema'] });
    }
  });
  return routes;
}

/**
 * How each route is authorized, for the document's `security`: a user's bearer token unless listed
 * here. The schema gate checks the claim (a bearer route answers 401 without a token, the others do not).
 */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/health',
  'POST /api/account/login',
  'POST /api/register',
  'POST /api/forgot_password',
  'POST /api/reset_password',
  'POST /api/account/verifytoken',
  'POST /api/account/refreshtoken',
  'GET /api/account/logout',
  `GET ${OPENAPI_PATH}`,
]);
export const DEVICE_KEY_ROUTES: ReadonlySet<string> = new Set(['POST /api/ingest']);
/** Token of `METRICS_TOKEN`, not a user's. */
export const METRICS_TOKEN_ROUTES: ReadonlySet<string> = new Set(['GET /metrics']);

const zodTransform = createJsonSchemaTransform({});

/** The groups `/api/docs` shows, in this order; each route is in the one its first path segment names. */
export const API_TAGS = [
  {
    name: 'Account',
    description: 'Sign-in, registration, profile, tokens',
    segments: ['account', 'register', 'forgot_password', 'reset_password'],
  },
  { name: 'Devices', description: 'Devices, their readings, energy and settings', segments: ['devices'] },
  { name: 'Ingest', description: 'Readings sent by devices', segments: ['ingest'] },
  { name: 'Collectors', description: 'Meters Phasewatch reads itself', segments: ['collectors'] },
  { name: 'Locations and tariffs', description: 'Locations, tariffs, statistics and the advisor', segments: ['locations', 'tariffs'] },
  {
    name: 'Analytics and exports',
    description: 'Heatmaps, tables, sums, comparisons, exports',
    segments: ['analytics', 'comparisons', 'exports'],
  },
  { name: 'Notifications', description: 'Alarms and Web Push', segments: ['notifications', 'push'] },
  { name: 'Operations', description: 'Health', segments: [] },
] as const;

/** The tag of a route's URL (`/api/devices/:id` → Devices); Operations for what no group names. */
export function tagOf(url: string): string {
  const segment = url.replace(/^\/api\//, '').split('/')[0] ?? '';
  return API_TAGS.find((t) => (t.segments as readonly string[]).includes(segment))?.name ?? 'Operations';
}

/**
 * The OpenAPI 3.1 document generated from the routes' zod schemas (@fastify/swagger with the zod type
 * provider's transform) at `/api/openapi.json`, and Swagger UI at `/api/docs` (its own files only, so
 * the app's Content-Security-Policy holds: no inline script, no CDN, no validator badge).
 */
export async function registerApiDocs(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Phasewatch API',
        version,
        description:
          'Telemetry for energy meters, solar devices and thermostats. Every 4xx answers `{statusCode, error, message, errors: [{field, message, key}]}`. Times are UTC; see the README for ingest and the realtime hub.',
      },
      tags: API_TAGS.map(({ name, description }) => ({ name, description })),
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from account/login' },
          deviceKey: { type: 'apiKey', in: 'header', name: 'X-Device-Key', description: 'Ingest key shown once at device registration' },
          metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN of the server configuration' },
        },
        schemas: { ApiErrorResponse: z.toJSONSchema(apiErrorResponseSchema, { target: 'draft-2020-12' }) as Record<string, unknown> },
      },
    },
    transform: (input) => {
      const out = zodTransform(input);
      const key = `${[input.route.method].flat()[0]} ${input.url}`;
      const security = PUBLIC_ROUTES.has(key)
        ? []
        : DEVICE_KEY_ROUTES.has(key)
          ? [{ deviceKey: [] }]
          : METRICS_TOKEN_ROUTES.has(key)
            ? [{ metricsToken: [] }]
            : [{ bearer: [] }];
      const schema = out.schema as Record<string, unknown> & { response?: Record<string, unknown> };
      // Failures share one shape; documented once for every route.
      const response = {
        ...(schema.response ?? {}),
        '4XX': {
          description: 'Client error',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiErrorResponse' } } },
        },
      };
      return { ...out, schema: { ...schema, response, security, tags: [tagOf(input.url)] } };
    },
  });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    uiConfig: { deepLinking: true, validatorUrl: null, tryItOutEnabled: false },
  });
  app.get(
    OPENAPI_PATH,
    { schema: { hide: true, response: { 200: z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }) } } },
    async () => app.swagger(),
  );
}
