import {
  advisorQuerySchema,
  advisorSchema,
  holidaysQuerySchema,
  holidaysSchema,
  idParamSchema,
  tariffPresetSchema,
  tariffRequestSchema,
  tariffSchema,
  tariffStatsQuerySchema,
  tariffStatsSchema,
} from '@phasewatch/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TariffsService } from './tariffs.service.js';

const locationParams = z.strictObject({ locationId: idParamSchema });
const tariffParams = z.strictObject({ locationId: idParamSchema, tariffId: idParamSchema });

/** Tariffs of the signed-in user's locations, presets, holidays, statistics and the advisor. */
export const tariffsRoutes: FastifyPluginAsyncZod<{ tariffs: TariffsService }> = async (app, { tariffs }) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/tariffs/presets', { schema: { response: { 200: z.array(tariffPresetSchema) } } }, async () => tariffs.presets());

  app.get('/tariffs/holidays', { schema: { querystring: holidaysQuerySchema, response: { 200: holidaysSchema } } }, async (req) =>
    tariffs.holidays(req.query.calendar, req.query.year, req.query.lang),
  );

  app.get('/tariffs/advisor', { schema: { querystring: advisorQuerySchema, response: { 200: advisorSchema } } }, async (req) =>
    tariffs.advisor(req.auth.userId, req.query),
  );

  app.get(
    '/tariffs/:id/stats',
    {
      schema: { params: z.strictObject({ id: idParamSchema }), querystring: tariffStatsQuerySchema, response: { 200: tariffStatsSchema } },
    },
    async (req) => tariffs.stats(req.auth.userId, req.params.id, req.query),
  );

  app.get('/locations/:locationId/tariffs', { schema: { params: locationParams, response: { 200: z.array(tariffSchema) } } }, async (req) =>
    tariffs.list(req.auth.userId, req.params.locationId),
  );

  app.post(
    '/locations/:locationId/tariffs',
    { schema: { params: locationParams, body: tariffRequestSchema, response: { 200: tariffSchema } } },
    async (req) => tariffs.create(req.auth.userId, req.params.locationId, req.body),
  );

  app.get('/locations/:locationId/tariffs/:tariffId', { schema: { params: tariffParams, response: { 200: tariffSchema } } }, async (req) =>
    tariffs.get(req.auth.userId, req.params.locationId, req.params.tariffId),
  );

  app.put(
    '/locations/:locationId/tariffs/:tariffId',
    { schema: { params: tariffParams, body: tariffRequestSchema, response: { 200: tariffSchema } } },
    async (req) => tariffs.update(req.auth.userId, req.params.locationId, req.params.tariffId, req.body),
  );

  app.delete(
    '/locations/:locationId/tariffs/:tariffId',
    { schema: { params: tariffParams, response: { 200: z.object({ ok: z.literal(true) }) } } },
    async (req) => {
      await tariffs.remove(req.auth.userId, req.params.locationId, req.params.tariffId);
      return { ok: true as const };
    },
  );
};
