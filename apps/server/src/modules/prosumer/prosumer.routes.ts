import {
  balanceQuerySchema,
  balanceSchema,
  idParamSchema,
  ledgerQuerySchema,
  ledgerSchema,
  monthSchema,
  prosumerSettingsSchema,
  rceCsvResultSchema,
  rceCsvSchema,
  rceDaysQuerySchema,
  rceDaysSchema,
  rcemItemSchema,
  rcemListSchema,
  rcemPutSchema,
} from '@phasewatch/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ProsumerService } from './prosumer.service.js';

const locationParams = z.strictObject({ locationId: idParamSchema });

/** A location's energy balance, its prosumer settlement and the RCEm prices (issue 33). */
export const prosumerRoutes: FastifyPluginAsyncZod<{ prosumer: ProsumerService }> = async (app, { prosumer }) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/locations/:locationId/balance',
    { schema: { params: locationParams, querystring: balanceQuerySchema, response: { 200: balanceSchema } } },
    async (req) => prosumer.balance(req.auth.userId, req.params.locationId, req.query),
  );

  app.get(
    '/locations/:locationId/prosumer',
    { schema: { params: locationParams, response: { 200: prosumerSettingsSchema.nullable() } } },
    async (req) => prosumer.getSettings(req.auth.userId, req.params.locationId),
  );

  app.put(
    '/locations/:locationId/prosumer',
    { schema: { params: locationParams, body: prosumerSettingsSchema, response: { 200: prosumerSettingsSchema } } },
    async (req) => prosumer.putSettings(req.auth.userId, req.params.locationId, req.body),
  );

  app.get(
    '/locations/:locationId/prosumer/ledger',
    { schema: { params: locationParams, querystring: ledgerQuerySchema, response: { 200: ledgerSchema } } },
    async (req) => prosumer.ledger(req.auth.userId, req.params.locationId, req.query),
  );

  app.get('/prices/rcem', { schema: { response: { 200: rcemListSchema } } }, async (req) => prosumer.rcemList(req.auth.userId));

  app.put(
    '/prices/rcem/:month',
    { schema: { params: z.strictObject({ month: monthSchema }), body: rcemPutSchema, response: { 200: rcemItemSchema } } },
    async (req) => prosumer.putRcem(req.auth.userId, req.params.month, req.body.price),
  );

  app.get('/prices/rce/days', { schema: { querystring: rceDaysQuerySchema, response: { 200: rceDaysSchema } } }, async (req) =>
    prosumer.rceDays(req.auth.userId, req.query),
  );

  app.post('/prices/rce/csv', { schema: { body: rceCsvSchema, response: { 200: rceCsvResultSchema } } }, async (req) =>
    prosumer.uploadRceCsv(req.auth.userId, req.body.csv),
  );
};
