import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { bearerToken } from '../auth/authenticate.js';
import { unauthorized } from '../http/errors.js';
import type { AppMetrics } from './metrics.js';

export const METRICS_PATH = '/metrics';

function sameToken(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Counts every answer by method, route pattern and status (unmatched URLs under one label, so a
 * scanner cannot grow the label set), and serves the Prometheus text at `/metrics` to the holder of
 * `token` (`Authorization: Bearer <METRICS_TOKEN>`). Not called at all when metrics are off.
 */
export function registerMetrics(app: FastifyInstance, metrics: AppMetrics, token: string): void {
  app.addHook('onResponse', async (req, reply) => {
    metrics.requestAnswered(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });
  app.get(
    METRICS_PATH,
    {
      schema: { hide: true, response: { 200: z.string() } },
      onRequest: async (req) => {
        if (!sameToken(bearerToken(req.headers.authorization), token)) throw unauthorized('Missing or wrong metrics token');
      },
    },
    async (_req, reply) => {
      reply.header('content-type', metrics.contentType).header('cache-control', 'no-store');
      return metrics.text();
    },
  );
}
