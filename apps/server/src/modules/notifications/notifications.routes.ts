import {
  notificationItemSchema,
  notificationsQuerySchema,
  notificationsResponseSchema,
  pushSubscriptionRequestSchema,
  pushUnsubscribeRequestSchema,
  unreadCountResponseSchema,
  vapidPublicKeyResponseSchema,
} from '@phasewatch/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../http/params.js';
import type { NotificationsService } from './notifications.service.js';

/** These actions take no body (none, or an empty object). */
const noBody = z.strictObject({}).nullish();

/** The notification centre and Web Push subscriptions of the signed-in user; another user's ids answer 404. */
export const notificationsRoutes: FastifyPluginAsyncZod<{ notifications: NotificationsService; vapidPublicKey: string }> = async (
  app,
  { notifications, vapidPublicKey },
) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/notifications',
    {
      schema: {
        description: 'Alarms and events of the user’s devices, newest first; filters by device, kind and state; `before` pages.',
        querystring: notificationsQuerySchema,
        response: { 200: notificationsResponseSchema },
      },
    },
    async (req) => notifications.list(req.auth.userId, req.query),
  );

  app.get('/notifications/unread-count', { schema: { response: { 200: unreadCountResponseSchema } } }, async (req) => ({
    unread: await notifications.unreadCount(req.auth.userId),
  }));

  app.post('/notifications/read-all', { schema: { body: noBody, response: { 200: unreadCountResponseSchema } } }, async (req) => ({
    unread: await notifications.markAllRead(req.auth.userId),
  }));

  app.post(
    '/notifications/:id/read',
    { schema: { params: idParams, body: noBody, response: { 200: notificationItemSchema } } },
    async (req) => notifications.mark(req.auth.userId, req.params.id, false),
  );

  app.post(
    '/notifications/:id/acknowledge',
    {
      schema: {
        description: 'The user has seen to the alarm (it stays in the list; it is also marked read).',
        params: idParams,
        body: noBody,
        response: { 200: notificationItemSchema },
      },
    },
    async (req) => notifications.mark(req.auth.userId, req.params.id, true),
  );

  app.get('/push/vapid-public-key', { schema: { response: { 200: vapidPublicKeyResponseSchema } } }, async (_req, reply) =>
    reply.header('cache-control', 'no-cache').send({ publicKey: vapidPublicKey }),
  );

  app.post(
    '/push/subscriptions',
    {
      schema: {
        description:
          'Subscribes this browser to Web Push (the body is `PushSubscription.toJSON()`). Only https endpoints on public addresses; at most 20 browsers per user (409 past that).',
        body: pushSubscriptionRequestSchema,
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (req) => {
      await notifications.subscribe(req.auth.userId, req.body);
      return { ok: true as const };
    },
  );

  app.delete(
    '/push/subscriptions',
    {
      schema: {
        description: 'Unsubscribes a browser (by its endpoint) from the user’s push notifications.',
        body: pushUnsubscribeRequestSchema,
        response: { 200: z.object({ removed: z.boolean() }) },
      },
    },
    async (req) => ({ removed: await notifications.unsubscribe(req.auth.userId, req.body.endpoint) }),
  );
};
