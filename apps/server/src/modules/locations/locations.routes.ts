import { locationRequestSchema, locationSchema, locationSummarySchema } from '@phasewatch/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../http/params.js';
import type { LocationsService } from './locations.service.js';

const params = idParams;

/** Locations of the signed-in user; another user's location answers 404. */
export const locationsRoutes: FastifyPluginAsyncZod<{ locations: LocationsService }> = async (app, { locations }) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/locations', { schema: { response: { 200: z.array(locationSchema) } } }, async (req) => locations.list(req.auth.userId));

  app.post('/locations', { schema: { body: locationRequestSchema, response: { 200: locationSchema } } }, async (req) =>
    locations.create(req.auth.userId, req.body),
  );

  app.get('/locations/:id', { schema: { params, response: { 200: locationSchema } } }, async (req) =>
    locations.get(req.auth.userId, req.params.id),
  );

  app.put('/locations/:id', { schema: { params, body: locationRequestSchema, response: { 200: locationSchema } } }, async (req) =>
    locations.update(req.auth.userId, req.params.id, req.body),
  );

  app.delete('/locations/:id', { schema: { params, response: { 200: z.object({ ok: z.literal(true) }) } } }, async (req) => {
    await locations.remove(req.auth.userId, req.params.id);
    return { ok: true as const };
  });

  app.get('/locations/:id/summary', { schema: { params, response: { 200: locationSummarySchema } } }, async (req) =>
    locations.summary(req.auth.userId, req.params.id),
  );
};
