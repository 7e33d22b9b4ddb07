import {
  collectorRetestSchema,
  collectorStatusSchema,
  collectorTestRequestSchema,
  collectorTestResponseSchema,
  collectorUpdateSchema,
  discoverResponseSchema,
  FALLBACK_TIMEZONE,
} from '@phasewatch/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deviceIdParams } from '../../http/params.js';
import type { DevicesService } from '../devices/index.js';
import type { CollectorsService } from './collectors.service.js';

/** The connection test, discovery and a collected device's status (signed-in users; another user's device answers 404). */
export const collectorsRoutes: FastifyPluginAsyncZod<{ collectors: CollectorsService; devices: DevicesService }> = async (
  app,
  { collectors, devices },
) => {
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/collectors/test',
    { schema: { body: collectorTestRequestSchema, response: { 200: collectorTestResponseSchema } } },
    async (req) => collectors.test(req.body, (await devices.timezoneOf(req.auth.userId)) ?? FALLBACK_TIMEZONE),
  );

  app.get('/collectors/discover', { schema: { response: { 200: discoverResponseSchema } } }, async () => ({
    devices: await collectors.discover(),
  }));

  app.get('/devices/:id/collector', { schema: { params: deviceIdParams, response: { 200: collectorStatusSchema } } }, async (req) =>
    collectors.status(req.auth.userId, req.params.id),
  );

  app.put(
    '/devices/:id/collector',
    { schema: { params: deviceIdParams, body: collectorUpdateSchema, response: { 200: collectorStatusSchema } } },
    async (req) => collectors.update(req.auth.userId, req.params.id, req.body),
  );

  app.post(
    '/devices/:id/collector/test',
    { schema: { params: deviceIdParams, body: collectorRetestSchema, response: { 200: collectorTestResponseSchema } } },
    async (req) => collectors.retest(req.auth.userId, req.params.id, req.body),
  );
};
