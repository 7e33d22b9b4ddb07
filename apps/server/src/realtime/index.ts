import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { HUB_PATH, type HubEventMap, type HubEventName } from '@phasewatch/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { bearerToken } from '../auth/authenticate.js';
import type { BaseContext } from '../context.js';
import type { DeviceStatusChanged, DomainEvents, ReadingCommitted } from '../events/bus.js';
import { keyedError, unauthorized } from '../http/errors.js';
import type { Telemetry } from '../modules/telemetry/index.js';
import { DashboardHub, type HubOptions, type HubStats } from './dashboard-hub.js';
import { type FanoutEvent, PgFanout } from './pg-fanout.js';

/** The answer of negotiate (SignalR negotiate protocol, version 1). */
const negotiateResponseSchema = z.object({
  connectionId: z.string(),
  connectionToken: z.string(),
  negotiateVersion: z.literal(1),
  availableTransports: z.array(z.object({ transport: z.literal('WebSockets'), transferFormats: z.array(z.enum(['Text', 'Binary'])) })),
});

/** The realtime hub as other modules and tests see it. */
export interface Realtime {
  /** Pushes an event (notification, export ready, …) to all of a user's hub connections, on every instance. */
  sendToUser<E extends HubEventName>(userId: number, event: E, payload: HubEventMap[E]): void;
  stats(): HubStats;
  /** Cuts a user's sockets without a Close message, as a network failure would; returns how many. */
  dropConnections(userId: number): number;
  /** Shortens timings and limits (tests). */
  configure(options: Partial<HubOptions>): void;
}

/** Mounts the SignalR-protocol hub at /hubs/dashboardHub (closed with the app). */
export async function createRealtime(app: FastifyInstance, base: BaseContext, telemetry: Telemetry): Promise<Realtime> {
  const log = app.log.child({ module: 'realtime' });
  const hub = new DashboardHub({
    checkAccess: base.accounts.checkAccess,
    activeSessions: base.accounts.activeSessions,
    ownsDevice: (userId, deviceId) => telemetry.devices.owns(userId, deviceId),
    log,
    rateLimit: base.config.hubRateLimit,
    onRefused: () => base.metrics.refused('hub'),
    // Every instance with the same JWT_SECRET accepts the connection tokens the others sign.
    tokenKey: createHmac('sha256', base.config.jwtSecret).update('phasewatch hub connection tokens').digest(),
  });

  base.metrics.watch({ hub: () => hub.stats() });

  // Events from other instances; our own were delivered locally already.
  const fromOtherInstance = (e: FanoutEvent) => {
    switch (e.k) {
      case 'reading':
        hub.deliverReading(e.e);
        return;
      case 'status':
        hub.deliverStatus(e.e);
        return;
      case 'user':
        hub.deliverToUser(e.userId, e.event as HubEventName, e.payload as HubEventMap[HubEventName]);
        return;
      case 'deviceDeleted':
        hub.forgetDevice(e.userId, e.deviceId);
        return;
      case 'sessionRevoked':
        hub.closeSession(e.sessionId);
        return;
    }
  };
  // Back from a lost LISTEN connection: sessions ended on other instances meanwhile are found in the database.
  const resumed = () => void hub.recheckSessions();
  const fanout =
    base.storage.dialect === 'postgres' && base.storage.pgPool
      ? new PgFanout(base.storage.pgPool, fromOtherInstance, log, undefined, resumed)
      : null;
  await fanout?.start();

  const { events } = base;
  const onReading: (e: ReadingCommitted) => void = (e) => {
    hub.deliverReading(e);
    fanout?.publish({ k: 'reading', e });
  };
  const onStatus: (e: DeviceStatusChanged) => void = (e) => {
    hub.deliverStatus(e);
    fanout?.publish({ k: 'status', e });
  };
  const onDeleted: (...a: DomainEvents['deviceDeleted']) => void = ({ userId, deviceId }) => {
    hub.forgetDevice(userId, deviceId);
    fanout?.publish({ k: 'deviceDeleted', userId, deviceId });
  };
  const onRevoked: (...a: DomainEvents['sessionRevoked']) => void = ({ sessionId }) => {
    hub.closeSession(sessionId);
    fanout?.publish({ k: 'sessionRevoked', sessionId });
  };
  events.on('readingCommitted', onReading);
  events.on('deviceStatusChanged', onStatus);
  events.on('deviceDeleted', onDeleted);
  events.on('sessionRevoked', onRevoked);

  app.post(
    `${HUB_PATH}/negotiate`,
    {
      schema: {
        description: 'SignalR negotiate (protocol version 1): a connection token for the WebSocket at the hub path.',
        // The official client adds negotiateVersion; nothing else of the query or body is read.
        querystring: z.looseObject({ negotiateVersion: z.string().max(10).optional() }),
        body: z.unknown(),
        response: { 200: negotiateResponseSchema },
      },
    },
    async (req, reply) => {
      const auth = await hub.authenticate(bearerToken(req.headers.authorization));
      if (!auth) throw unauthorized('Invalid or expired token');
      if (hub.atConnectionLimit(auth.userId)) throw keyedError(429, 'errors.tooManyRequests');
      return reply.header('cache-control', 'no-store').send(hub.negotiate(auth));
    },
  );

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname.replace(/\/+$/, '') !== HUB_PATH) {
      // Nobody else takes upgrades: refuse instead of leaving the socket hanging.
      if (app.server.listenerCount('upgrade') === 1) socket.destroy();
      return;
    }
    void hub.handleUpgrade(req, socket, head, url);
  };
  app.server.on('upgrade', onUpgrade);

  app.addHook('preClose', async () => {
    app.server.off('upgrade', onUpgrade);
    events.off('readingCommitted', onReading);
    events.off('deviceStatusChanged', onStatus);
    events.off('deviceDeleted', onDeleted);
    events.off('sessionRevoked', onRevoked);
    await hub.close();
    await fanout?.stop();
  });

  return {
    sendToUser(userId, event, payload) {
      hub.deliverToUser(userId, event, payload);
      fanout?.publish({ k: 'user', userId, event, payload });
    },
    stats: () => hub.stats(),
    dropConnections: (userId) => hub.dropConnections(userId),
    configure: (options) => hub.configure(options),
  };
}
