import { type ExportJob, exportCreatedSchema, exportIdParams, exportRequestSchema, exportSchema } from '@phasewatch/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentDisposition, type ExportsService } from './exports.service.js';

const CONTENT_TYPES = { csv: 'text/csv; charset=utf-8', pdf: 'application/pdf' } as const;

/**
 * Exports of the signed-in user (spec sections 2, 4, 8):
 * - `POST /exports` queues an export and answers 202 with the job at once; 503 with `Retry-After` when the
 *   queue is full ("server busy"), 400 "Data range is too long." past the range limit of the file type;
 * - `GET /exports` the recent ones, `GET /exports/:id` one (status, progress);
 * - `POST /exports/:id/download` the file (the spec's blob POST), `Content-Disposition` naming
 *   `<fileName>.csv|.pdf`; 409 while it is not ready.
 * Another user's export answers 404.
 */
export const exportsRoutes: FastifyPluginAsyncZod<{ exports: ExportsService }> = async (app, { exports }) => {
  app.addHook('onRequest', app.authenticate);

  app.post('/exports', { schema: { body: exportRequestSchema, response: { 202: exportCreatedSchema } } }, async (req, reply) =>
    reply.status(202).send(await exports.create(req.auth.userId, req.body)),
  );

  app.get(
    '/exports',
    { schema: { response: { 200: z.array(exportSchema) } } },
    async (req): Promise<ExportJob[]> => exports.list(req.auth.userId),
  );

  app.get('/exports/:id', { schema: { params: exportIdParams, response: { 200: exportSchema } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return exports.get(req.auth.userId, req.params.id);
  });

  app.post(
    '/exports/:id/download',
    {
      schema: {
        description: 'The finished file: text/csv or application/pdf, named by Content-Disposition.',
        params: exportIdParams,
        body: z.unknown(),
        response: { 200: z.string().describe('The file (CSV text or PDF bytes)') },
      },
    },
    async (req, reply) => {
      const file = await exports.download(req.auth.userId, req.params.id);
      return (
        reply
          .header('content-type', CONTENT_TYPES[file.format])
          .header('content-disposition', contentDisposition(file.name))
          .header('cache-control', 'no-store')
          .header('content-length', String(file.size))
          // A stream of the stored pieces: Fastify sends it as it is (the schema documents the answer).
          .send(file.stream as unknown as string)
      );
    },
  );
};
