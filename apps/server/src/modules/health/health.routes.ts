import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Storage } from '../../storage/database.js';

export const healthRoutes: FastifyPluginAsyncZod<{ storage: Storage; version: string }> = async (app, { storage, version }) => {
  app.get(
    '/health',
    { schema: { response: { 200: z.object({ status: z.literal('ok'), version: z.string(), database: z.enum(['sqlite', 'postgres']) }) } } },
    async () => {
      await sql`select 1`.execute(storage.db);
      return { status: 'ok' as const, version, database: storage.dialect };
    },
  );
};
