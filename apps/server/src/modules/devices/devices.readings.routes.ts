import { energyResponseSchema, type ReadingsResponse, readingsQuerySchema, readingsResponseSchema } from '@phasewatch/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deviceIdParams } from '../../http/params.js';
import { readingsJson, releaseColumns } from '../readings/index.js';
import type { DevicesService } from './devices.service.js';

/**
 * `GET /devices/:id/readings?from&to&interval=raw|15m|30m|1h|24h&params=a,b`: columnar series (see
 * `readingsResponseSchema`): `ts` bucket starts, per parameter avg/min/max arrays for instantaneous
 * values or energy `delta` per bucket for counters. `from` inclusive, `to` exclusive; ISO-8601, the
 * server format `YYYY-MM-DD HH:mm:ss` (UTC) or epoch ms. `24h` buckets are local days of the user.
 * A range longer than the interval allows (`MAX_RANGE_MS`) answers 400 "Data range is too long.".
 *
 * `GET /devices/:id/energy`: today, month, year, total (with the meter value) and billing period.
 */
export const readingsRoutes: FastifyPluginAsyncZod<{ devices: DevicesService }> = async (app, { devices }) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/devices/:id/readings',
    { schema: { params: deviceIdParams, querystring: readingsQuerySchema, response: { 200: readingsResponseSchema } } },
    async (req, reply) => {
      const answer = await devices.readingsOf(req.auth.userId, req.params.id, req.query);
      const json = readingsJson(answer);
      releaseColumns(answer);
      // Already JSON text of the schema above (which documents it): Fastify sends a string with a JSON
      // content type as is. A year of quarter-hours is hundreds of thousands of numbers that the schema's
      // serializer would first copy and check one by one.
      return reply.type('application/json; charset=utf-8').send(json as unknown as ReadingsResponse);
    },
  );

  app.get('/devices/:id/energy', { schema: { params: deviceIdParams, response: { 200: energyResponseSchema } } }, async (req) =>
    devices.energyOf(req.auth.userId, req.params.id),
  );
};
