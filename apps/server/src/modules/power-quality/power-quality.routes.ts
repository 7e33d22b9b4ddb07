import { powerQualityQuerySchema, powerQualityResponseSchema } from '@phasewatch/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deviceIdParams } from '../../http/params.js';
import { loadPowerQualityReport, type PowerQualitySource } from './power-quality.service.js';

/**
 * `GET /devices/:id/power-quality?week=YYYY-MM-DD`: the EN 50160 weekly voltage report of the signed-in
 * user's device (the week: Monday 00:00 to Monday 00:00 in the device's location timezone, else the user's).
 */
export const powerQualityRoutes: FastifyPluginAsyncZod<{ source: PowerQualitySource }> = async (app, { source }) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/devices/:id/power-quality',
    { schema: { params: deviceIdParams, querystring: powerQualityQuerySchema, response: { 200: powerQualityResponseSchema } } },
    async (req) => loadPowerQualityReport(source, req.auth.userId, req.params.id, req.query.week),
  );
};
