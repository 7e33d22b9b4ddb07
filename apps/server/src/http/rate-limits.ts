import rateLimit from '@fastify/rate-limit';
import { BoundedMap } from '@phasewatch/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { AppMetrics } from '../metrics/metrics.js';
import { keyedError } from './errors.js';

/** The limits: `max` requests per `windowMs` for one key; `max` 0 turns a limit off. */
export interface RateLimits {
  /** Per device key on ingest. */
  ingest: { max: number; windowMs: number };
  /** Per user and route on reads that scan readings or compute energy. */
  reads: { max: number; windowMs: number };
  /** Per user and route on starting a background job (exports, reports). */
  jobs: { max: number; windowMs: number };
  /** Per user on the Fox network discovery (each sends a UDP packet into the server's network); absent: off. */
  discovery?: { max: number; windowMs: number };
}
export type RateLimitName = keyof RateLimits;

/**
 * Which routes are limited, and by which limit (`METHOD url` as registered). One table, so the policy is
 * read in one place; routes.test checks that every entry names a route the app has.
 */
export const RATE_LIMITED_ROUTES: Readonly<Record<string, RateLimitName>> = {
  'POST /api/ingest': 'ingest',
  'GET /api/devices': 'reads',
  'GET /api/devices/:id/readings': 'reads',
  'GET /api/devices/:id/energy': 'reads',
  'GET /api/devices/:id/power-quality': 'reads',
  'GET /api/locations/:id/summary': 'reads',
  'GET /api/tariffs/:id/stats': 'reads',
  'GET /api/tariffs/advisor': 'reads',
  'POST /api/exports': 'jobs',
  'GET /api/analytics/heatmap': 'reads',
  'GET /api/analytics/consumption': 'reads',
  'POST /api/analytics/sums': 'reads',
  // Each connects to devices from the server: bounded like an expensive read.
  'POST /api/collectors/test': 'reads',
  'POST /api/devices/:id/collector/test': 'reads',
  'GET /api/collectors/discover': 'discovery',
};

/**
 * Fixed-window counts per key, for paths that are not HTTP routes (MQTT ingest): `take` says whether one
 * more is allowed. Keys are bounded (the least recently started windows are forgotten first).
 */
export class WindowLimiter {
  private readonly windows = new BoundedMap<string | number, { start: number; count: number }>(10_000);

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** 'ok' when allowed; 'first' for the first refusal of a window (to log once), else 'refused'. */
  take(key: string | number, now = Date.now()): 'ok' | 'first' | 'refused' {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, count: 0 };
      this.windows.delete(key);
      this.windows.set(key, w);
    }
    w.count++;
    if (w.count <= this.max) return 'ok';
    return w.count === this.max + 1 ? 'first' : 'refused';
  }

  /** Takes back one counted by `take` (a request refused for another reason, which must not use up the limit). */
  giveBack(key: string | number): void {
    const w = this.windows.get(key);
    if (w && w.count > 0) w.count--;
  }

  /** How long until the key's window starts again (its Retry-After). */
  resetInMs(key: string | number, now = Date.now()): number {
    const w = this.windows.get(key);
    return w ? Math.max(0, w.start + this.windowMs - now) : 0;
  }
}

/**
 * Failures counted per key (an address) in a fixed window that starts with the first one: past `max`,
 * `blockedForMs` says how long the key stays refused. Keys are bounded like WindowLimiter's.
 */
export class FailureCounter {
  private readonly windows = new BoundedMap<string, { start: number; count: number }>(10_000);

  constructor(
    readonly max: number,
    private readonly windowMs: number,
  ) {}

  fail(key: string, now = Date.now()): void {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, count: 0 };
      this.windows.delete(key);
      this.windows.set(key, w);
    }
    w.count++;
  }

  /** 0 when the key may try again; else the milliseconds until its window ends. */
  blockedForMs(key: string, now = Date.now()): number {
    const w = this.windows.get(key);
    if (!w || w.count < this.max) return 0;
    return Math.max(0, w.start + this.windowMs - now);
  }
}

/**
 * The device key, else the address. The key itself, not a hash of it: a SHA-256 per reading was a
 * measurable share of live ingest, and the process holds the recent keys anyway (ingest's identity
 * cache); the limiter's memory is bounded and never leaves the process.
 */
const byDeviceKey = (req: FastifyRequest) => {
  const key = req.headers['x-device-key'];
  const value = Array.isArray(key) ? key[0] : key;
  return value ? `d:${value}` : `ip:${req.ip}`;
};
/** The signed-in user (authenticate runs before, onRequest of the route's plugin), else the address. */
const byUser = (req: FastifyRequest) => (req.auth ? `u:${req.auth.userId}` : `ip:${req.ip}`);

/**
 * Rate limits where a device or a user can flood (@fastify/rate-limit, in memory per instance, each
 * limiter's keys bounded): past the limit the answer is 429 with `Retry-After` in the one error shape.
 * Call before the routes are registered: limits attach to routes as they are added.
 */
export async function registerRateLimits(app: FastifyInstance, limits: RateLimits, metrics: AppMetrics): Promise<void> {
  // Runs before the plugin's own onRoute hook (added below), so the plugin sees the route's config.
  app.addHook('onRoute', (route: RouteOptions) => {
    const name = RATE_LIMITED_ROUTES[`${[route.method].flat()[0]} ${route.url}`];
    if (!name) return;
    const limit = limits[name];
    if (!limit || limit.max <= 0) return;
    if (name === 'jobs') {
      limitJobStarts(route, limit, metrics);
      return;
    }
    route.config = {
      ...(route.config as object),
      rateLimit: {
        max: limit.max,
        timeWindow: limit.windowMs,
        hook: 'onRequest',
        keyGenerator: name === 'ingest' ? byDeviceKey : byUser,
        onExceeded: () => metrics.refused(name),
      },
    };
  });
  await app.register(rateLimit, {
    global: false,
    // Bounded memory: the least recently seen keys are forgotten past this many per limited route.
    cache: 10_000,
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    errorResponseBuilder: (_req, ctx) =>
      keyedError(429, 'errors.tooManyRequests', { headers: { 'retry-after': String(Math.max(1, Math.ceil(ctx.ttl / 1000))) } }),
  });
}

/**
 * The job-start limit: counted per user and route like the others, but a start the queue refuses (503,
 * the user's share or the queue full) is given back, so asking again while one's own jobs run does not
 * use up the hour's starts. Counted before the handler (parallel requests cannot pass the limit together).
 */
function limitJobStarts(route: RouteOptions, limit: { max: number; windowMs: number }, metrics: AppMetrics): void {
  const limiter = new WindowLimiter(limit.max, limit.windowMs);
  const counted = new WeakMap<FastifyRequest, string>();
  const check = async (req: FastifyRequest) => {
    const key = byUser(req);
    if (limiter.take(key) !== 'ok') {
      metrics.refused('jobs');
      throw keyedError(429, 'errors.tooManyRequests', {
        headers: { 'retry-after': String(Math.max(1, Math.ceil(limiter.resetInMs(key) / 1000))) },
      });
    }
    counted.set(req, key);
  };
  const giveBack = async (req: FastifyRequest, reply: FastifyReply) => {
    const key = counted.get(req);
    if (key !== undefined && reply.statusCode === 503) limiter.giveBack(key);
  };
  route.preHandler = [...[route.preHandler ?? []].flat(), check];
  route.onResponse = [...[route.onResponse ?? []].flat(), giveBack];
}
