import {
  type CollectorSource,
  type CreateDeviceRequest,
  type CreateDeviceResponse,
  createDeviceRequestSchema,
  createDeviceResponseSchema,
  deviceListItemSchema,
  deviceSchema,
  limitsSchema,
  meterValueSchema,
  notificationSettingsSchema,
  updateDeviceRequestSchema,
  validationMessage,
} from '@phasewatch/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../http/errors.js';
import { deviceIdParams } from '../../http/params.js';
import type { DevicesService } from './devices.service.js';

/**
 * What the devices routes need of the collectors (handed in at wiring; devices import nothing of them): a
 * device Phasewatch reads itself is tested, registered and read by them.
 */
export interface CollectedDevices {
  createDevice(userId: number, body: CreateDeviceRequest & { source: CollectorSource }): Promise<CreateDeviceResponse>;
}

/** Devices of the signed-in user; another user's device answers 404. */
export const devicesRoutes: FastifyPluginAsyncZod<{ devices: DevicesService; collectors?: CollectedDevices }> = async (
  app,
  { devices, collectors },
) => {
  app.addHook('onRequest', app.authenticate);

  app.post('/devices', { schema: { body: createDeviceRequestSchema, response: { 200: createDeviceResponseSchema } } }, async (req) => {
    const { source, mac, ...rest } = req.body;
    // A device Phasewatch reads itself: tested, registered and read by the collectors.
    if (source && collectors) return collectors.createDevice(req.auth.userId, { ...rest, ...(mac ? { mac } : {}), source });
    if (!mac) throw badRequest('mac', validationMessage('validation.required'));
    return devices.create(req.auth.userId, { ...rest, mac });
  });

  app.get('/devices', { schema: { response: { 200: z.array(deviceListItemSchema) } } }, async (req) => devices.list(req.auth.userId));

  app.get('/devices/:id', { schema: { params: deviceIdParams, response: { 200: deviceSchema } } }, async (req) =>
    devices.get(req.auth.userId, req.params.id),
  );

  app.put(
    '/devices/:id',
    { schema: { params: deviceIdParams, body: updateDeviceRequestSchema, response: { 200: deviceSchema } } },
    async (req) => devices.update(req.auth.userId, req.params.id, req.body),
  );

  app.delete('/devices/:id', { schema: { params: deviceIdParams, response: { 200: z.object({ ok: z.literal(true) }) } } }, async (req) => {
    await devices.remove(req.auth.userId, req.params.id);
    return { ok: true as const };
  });

  app.put('/devices/:id/limits', { schema: { params: deviceIdParams, body: limitsSchema, response: { 200: deviceSchema } } }, async (req) =>
    devices.setLimits(req.auth.userId, req.params.id, req.body),
  );

  app.put(
    '/devices/:id/meter-value',
    { schema: { params: deviceIdParams, body: meterValueSchema, response: { 200: deviceSchema } } },
    async (req) => devices.setMeterValue(req.auth.userId, req.params.id, req.body.meterValueKwh),
  );

  app.put(
    '/devices/:id/notifications',
    { schema: { params: deviceIdParams, body: notificationSettingsSchema, response: { 200: deviceSchema } } },
    async (req) => devices.setNotifications(req.auth.userId, req.params.id, req.body),
  );
};
