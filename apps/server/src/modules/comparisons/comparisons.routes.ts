import { comparisonRequestSchema, comparisonSchema } from '@phasewatch/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../http/params.js';
import type { ComparisonsService } from './comparisons.service.js';

const params = idParams;

/** Saved comparisons of the signed-in user: list, create, read, rename / change, delete. Another user's answers 404. */
export const comparisonsRoutes: FastifyPluginAsyncZod<{ comparisons: ComparisonsService }> = async (app, { comparisons }) => {
  app.addHook('onRequest', app.authenticate);

  app.get('/comparisons', { schema: { response: { 200: z.array(comparisonSchema) } } }, async (req) => comparisons.list(req.auth.userId));

  app.post('/comparisons', { schema: { body: comparisonRequestSchema, response: { 200: comparisonSchema } } }, async (req) =>
    comparisons.create(req.auth.userId, req.body),
  );

  app.get('/comparisons/:id', { schema: { params, response: { 200: comparisonSchema } } }, async (req) =>
    comparisons.get(req.auth.userId, req.params.id),
  );

  app.put('/comparisons/:id', { schema: { params, body: comparisonRequestSchema, response: { 200: comparisonSchema } } }, async (req) =>
    comparisons.update(req.auth.userId, req.params.id, req.body),
  );

  app.delete('/comparisons/:id', { schema: { params, response: { 200: z.object({ ok: z.literal(true) }) } } }, async (req) => {
    await comparisons.remove(req.auth.userId, req.params.id);
    return { ok: true as const };
  });
};
