import { ingestRequestSchema, ingestResponseSchema, MAX_INGEST_BATCH } from '@phasewatch/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { IngestService } from './ingest.service.js';

/** A full batch of wide readings is a few MB of JSON; 4 KB per reading leaves room for every parameter. */
export const INGEST_BODY_LIMIT = MAX_INGEST_BATCH * 4096;

/**
 * `POST /ingest`, header `X-Device-Key`, body `{ readings: [{ ts, values }] }` (at most 5,000) →
 * `{ accepted }` once committed. 401 for an unknown key; 400 naming the field for any bad reading.
 */
export const ingestRoutes: FastifyPluginAsyncZod<{ ingest: IngestService }> = async (app, { ingest }) => {
  app.post(
    '/ingest',
    {
      bodyLimit: INGEST_BODY_LIMIT,
      // The key is checked before the body is validated: an unknown device learns nothing else.
      preValidation: async (req) => {
        const key = req.headers['x-device-key'];
        req.ingestDevice = await ingest.authenticate(Array.isArray(key) ? key[0] : key);
      },
      schema: { body: ingestRequestSchema, response: { 200: ingestResponseSchema } },
    },
    async (req) => ingest.ingest(req.ingestDevice, req.body),
  );
};

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on `/ingest` from `X-Device-Key`. */
    ingestDevice: import('../modules/devices/devices.repository.js').IngestIdentity;
  }
}
