import { isAscii } from 'node:buffer';
import { type IngestRequest, ingestRequestSchema, ingestResponseSchema, MAX_INGEST_BATCH } from '@phasewatch/shared';
import { type FastifyPluginAsyncZod, validatorCompiler } from 'fastify-type-provider-zod';
import { ParsedIngest, parseIngestBytes } from './ingest.bytes.js';
import type { IngestService } from './ingest.service.js';

/** Bodies at least this long are read into columns by parseIngestBytes (see the parser below). */
const COLUMN_READ_MIN_BYTES = 16_384;

/** A full batch of wide readings is a few MB of JSON; 4 KB per reading leaves room for every parameter. */
export const INGEST_BODY_LIMIT = MAX_INGEST_BATCH * 4096;

/**
 * `POST /ingest`, header `X-Device-Key`, body `{ readings: [{ ts, values }] }` (at most 5,000) →
 * `{ accepted }` once committed. 401 for an unknown key; 400 naming the field for any bad reading.
 */
export const ingestRoutes: FastifyPluginAsyncZod<{ ingest: IngestService }> = async (app, { ingest }) => {
  // Fastify's JSON parser scans the whole text twice for prototype-poisoning keys after parsing: on a
  // 1 MB batch that is a sixth of the parse. A body without those keys (in any spelling: no `\u`
  // escapes at all) parses the same with plain JSON.parse; anything else, and every error, goes to
  // the default parser so the answers stay the same. Scoped to this plugin: other routes keep theirs.
  const secureJson = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  );
  app.removeContentTypeParser('application/json');
  // Read as bytes (Fastify enforces the body limit either way) and decoded here: a body of ASCII only,
  // which is what devices send, gives the same string as latin1 (one byte, one character), which
  // decodes ~5× faster than UTF-8 (~0.2 µs a reading); any other body is decoded as UTF-8 as before.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer;
    const ascii = isAscii(bytes);
    // Batches are read straight into columns; anything that reader does not take (see
    // parseIngestBytes) is parsed and checked as below, with the same answers as before. A small body
    // (a live reading or a few) takes JSON.parse too: per reading it cost the reader ~20 % more than
    // JSON.parse's C++ (a column per parameter to allocate), and only a batch repays that.
    const columns = ascii && bytes.length >= COLUMN_READ_MIN_BYTES ? parseIngestBytes(bytes) : null;
    if (columns) {
      done(null, columns);
      return;
    }
    const text = ascii ? bytes.toString('latin1') : bytes.toString('utf8');
    if (text.length > 0 && !text.includes('__proto__') && !text.includes('constructor') && !text.includes('\\u')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        secureJson(req, text, done);
        return;
      }
      done(null, parsed);
      return;
    }
    secureJson(req, text, done);
  });

  app.post(
    '/ingest',
    {
      bodyLimit: INGEST_BODY_LIMIT,
      // The key is checked before the body is validated: an unknown device learns nothing else.
      preValidation: async (req) => {
        const key = req.headers['x-device-key'];
        req.ingestDevice = await ingest.authenticate(Array.isArray(key) ? key[0] : key, req.ip);
      },
      schema: { body: ingestRequestSchema, response: { 200: ingestResponseSchema } },
      // A well-formed batch is checked by one loop and used as parsed (the same loop parses the
      // timestamps and judges the values for the handler); anything else goes through the schema,
      // which gives the same field errors as before (zod copying 5,000 readings cost ~20 ms). Only
      // the body has a schema, so this compiles the body's validator.
      validatorCompiler: ({ method, url, httpPart }) => {
        const schema = validatorCompiler({ schema: ingestRequestSchema, method, url, ...(httpPart ? { httpPart } : {}) });
        return (data) => (data instanceof ParsedIngest || ingest.precheck(data) ? { value: data } : schema(data));
      },
    },
    async (req) => ingest.ingest(req.ingestDevice, req.body as IngestRequest | ParsedIngest),
  );
};

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on `/ingest` from `X-Device-Key`. */
    ingestDevice: import('../modules/devices/index.js').IngestIdentity;
  }
}
