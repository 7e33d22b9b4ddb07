import multipart from '@fastify/multipart';
import { importCreatedSchema, importIdParams, importSchema } from '@phasewatch/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError, keyedError } from '../../http/errors.js';
import type { ImportPart, ImportsService } from './imports.service.js';

/**
 * History imports of the signed-in user (issue 31):
 * - `POST /imports` (multipart/form-data: `file`, `deviceId`, `format`, `mapping` JSON, `dryRun`) stores
 *   the file as it streams and queues the import: 202 `{ id }`; 413 past the size or row limit, 400 for a
 *   zip archive, a binary file or a line over 64 KiB (the connection is closed, the rest never read);
 * - `GET /imports/:id` its summary (status, progress, rows, imported, duplicates, refused lines, range).
 * Another user's device or import answers 404.
 */
export const importsRoutes: FastifyPluginAsyncZod<{ imports: ImportsService; maxBytes: number }> = async (app, { imports, maxBytes }) => {
  // multipart/form-data for these routes only (@fastify/multipart streams parts; nothing is buffered).
  await app.register(multipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 8, fieldSize: 20_000, parts: 10, headerPairs: 50 },
    throwFileSizeLimit: true,
  });
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/imports',
    {
      schema: {
        description:
          'multipart/form-data: `file` (CSV, or gzip of one), `deviceId`, `format` (phasewatch | home-assistant | generic), `mapping` (JSON; generic: `{time: {column, zone?}, columns: [{column, parameter, unit?}]}`), `dryRun` (true | false).',
        consumes: ['multipart/form-data'],
        response: { 202: importCreatedSchema },
      },
    },
    async (req, reply) => {
      if (!req.isMultipart()) throw keyedError(415, 'errors.importMultipart', { field: 'content-type' });
      try {
        const created = await imports.create(req.auth.userId, req.parts() as AsyncIterable<ImportPart>);
        return reply.status(202).send(created);
      } catch (err) {
        // What was not read of the upload is left unread: the answer closes the connection.
        reply.header('connection', 'close');
        if (err instanceof ApiError) throw err;
        const e = err as { statusCode?: number; code?: string };
        if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.statusCode === 413) throw keyedError(413, 'errors.importTooLarge', { field: 'file' });
        if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500)
          throw keyedError(400, 'errors.importMultipart', { field: 'body' });
        if (e.code?.startsWith('FST_') || /multipart|boundary|form|Unexpected end/i.test(String((err as Error).message)))
          throw keyedError(400, 'errors.importMultipart', { field: 'body' });
        throw err;
      }
    },
  );

  app.get('/imports/:id', { schema: { params: importIdParams, response: { 200: importSchema } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return imports.get(req.auth.userId, req.params.id);
  });
};
