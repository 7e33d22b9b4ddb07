import {
  consumptionQuerySchema,
  consumptionResponseSchema,
  heatmapQuerySchema,
  heatmapResponseSchema,
  sumComparisonRequestSchema,
  sumComparisonResponseSchema,
} from '@phasewatch/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AnalyticsService } from './analytics.service.js';

/**
 * The analytics screen's figures, for the signed-in user's devices (another user's device answers 404):
 * - `GET /analytics/heatmap`: daily, weekly, monthly or yearly heatmap of energy or of a parameter's mean;
 * - `GET /analytics/consumption`: energy per device and bucket (15 min … month) with totals, sorted, paged;
 * - `POST /analytics/sums`: figures of devices or periods side by side with their differences.
 */
export const analyticsRoutes: FastifyPluginAsyncZod<{ analytics: AnalyticsService }> = async (app, { analytics }) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/analytics/heatmap', { schema: { querystring: heatmapQuerySchema, response: { 200: heatmapResponseSchema } } }, async (req) =>
    analytics.heatmap(req.auth.userId, req.query),
  );

  app.get(
    '/analytics/consumption',
    { schema: { querystring: consumptionQuerySchema, response: { 200: consumptionResponseSchema } } },
    async (req) => analytics.consumption(req.auth.userId, req.query),
  );

  app.post(
    '/analytics/sums',
    { schema: { body: sumComparisonRequestSchema, response: { 200: sumComparisonResponseSchema } } },
    async (req) => analytics.sums(req.auth.userId, req.body),
  );
};
