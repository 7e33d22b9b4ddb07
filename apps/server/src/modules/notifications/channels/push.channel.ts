import { createHash } from 'node:crypto';
import { Agent } from 'node:https';
import { isIP } from 'node:net';
import { PUSH_SUBSCRIPTIONS_PER_USER, type PushSubscriptionRequest } from '@phasewatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import webpush, { type WebPushError } from 'web-push';
import type { PushSubscriptionRow } from '../../../storage/schema.js';
import type { NotificationMetrics } from '../notifications.metrics.js';
import type { NotificationsRepository } from '../notifications.repository.js';
import { endpointProblem, guardedLookup, isBlockedAddress, type ResolveHost } from './push-endpoint.js';
import { type Failure, RetryQueue } from './retry-queue.js';

/** What a push message carries; the service worker shows it as a notification. */
export interface PushPayload {
  title: string;
  body: string;
  /** Where a click leads, relative to the app. */
  url: string;
  /** One notification per device and kind on the screen: a newer one replaces the older. */
  tag: string;
  ids: number[];
}

export interface PushOptions {
  vapid: { publicKey: string; privateKey: string; subject: string };
  allowPrivate: boolean;
  resolve: ResolveHost;
  delaysMs: readonly number[];
}

interface PushJob {
  subscription: PushSubscriptionRow;
  payload: PushPayload;
  urgency: 'normal' | 'high';
  onSent: () => void;
}

export const endpointHash = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex');

/** Push service answers that mean "this subscription no longer exists": remove it. */
const GONE = new Set([404, 410]);

/**
 * Web Push: VAPID-signed requests with the payload encrypted per RFC 8291 (aes128gcm) by the `web-push`
 * library, to every subscribed browser of the user. Endpoints are checked when subscribed (https, no
 * loopback/private/link-local address) and again when connecting (the socket's lookup refuses them), and a
 * subscription the push service answers 404 or 410 for is removed.
 */
export class PushChannel {
  private readonly agent: Agent;
  private readonly queue: RetryQueue<PushJob>;

  constructor(
    private readonly repo: NotificationsRepository,
    private readonly o: PushOptions,
    private readonly log: FastifyBaseLogger,
    private readonly metrics: NotificationMetrics,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: 8, lookup: guardedLookup(o.resolve, o.allowPrivate) });
    this.queue = new RetryQueue<PushJob>({
      name: 'push',
      send: (job) => this.sendOne(job),
      classify: (err) => this.classify(err),
      delaysMs: o.delaysMs,
      concurrency: 4,
      maxQueued: 2000,
      onOutcome: (outcome, job, err) => {
        const host = safeHost(job.subscription.endpoint);
        if (outcome === 'sent') {
          job.onSent();
          void this.repo.subscriptionUsed(job.subscription.id, Date.now()).catch(() => {});
        } else if (outcome === 'retry') this.log.warn({ err: brief(err), host }, 'push delivery failed; retrying');
        else if (outcome === 'failed' && isGone(err)) {
          this.metrics.delivery('push', 'gone');
          this.log.info({ host }, 'push subscription gone (404/410); removed');
          void this.repo.deleteSubscriptionById(job.subscription.id).catch(() => {});
          return;
        } else if (outcome === 'failed') this.log.warn({ err: brief(err), host }, 'push delivery failed; given up');
        else this.log.warn({ host }, 'push queue full; oldest delivery dropped');
        this.metrics.delivery('push', outcome);
      },
    });
  }

  get publicKey(): string {
    return this.o.vapid.publicKey;
  }

  get depth(): number {
    return this.queue.depth;
  }

  /** Why the endpoint is refused, or null. */
  check(endpoint: string): Promise<string | null> {
    return endpointProblem(endpoint, this.o.resolve, this.o.allowPrivate);
  }

  /** Stores the subscription; false (nothing stored) when the user has the most allowed and this endpoint is not one of them. */
  async subscribe(userId: number, s: PushSubscriptionRequest, now: number): Promise<boolean> {
    const hash = endpointHash(s.endpoint);
    const own = await this.repo.subscriptionsOf(userId);
    if (own.length >= PUSH_SUBSCRIPTIONS_PER_USER && !own.some((o) => o.endpoint_hash === hash)) return false;
    await this.repo.upsertSubscription({
      user_id: userId,
      endpoint: s.endpoint,
      endpoint_hash: hash,
      p256dh: s.keys.p256dh,
      auth: s.keys.auth,
      created_at: now,
    });
    return true;
  }

  unsubscribe(userId: number, endpoint: string): Promise<boolean> {
    return this.repo.deleteSubscription(userId, endpointHash(endpoint));
  }

  /** Queues the payload for each of the user's browsers; `onSent` runs once when the first one took it. */
  async send(userId: number, payload: PushPayload, urgency: 'normal' | 'high', onSent: () => void): Promise<number> {
    const subs = await this.repo.subscriptionsOf(userId);
    let told = false;
    const once = () => {
      if (told) return;
      told = true;
      onSent();
    };
    for (const subscription of subs) this.queue.push({ subscription, payload, urgency, onSent: once });
    return subs.length;
  }

  drained(): Promise<void> {
    return this.queue.drained();
  }

  stop(): void {
    const dropped = this.queue.stop();
    if (dropped > 0) this.log.info({ dropped }, 'push deliveries not sent at shutdown');
    this.agent.destroy();
  }

  private async sendOne({ subscription: s, payload, urgency }: PushJob): Promise<void> {
    // An address literal is connected to without a lookup: checked here (names are checked by the agent).
    const host = new URL(s.endpoint).hostname.replace(/^\[|\]$/g, '');
    if (!this.o.allowPrivate && isIP(host) && isBlockedAddress(host))
      throw Object.assign(new Error('push endpoint points at a blocked address'), { permanent: true });
    await webpush.sendNotification({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, JSON.stringify(payload), {
      vapidDetails: this.o.vapid,
      contentEncoding: 'aes128gcm',
      // An alarm an hour old is of little use on a phone that was off.
      TTL: 3600,
      urgency,
      agent: this.agent,
      timeout: 10_000,
    });
  }

  private classify(err: unknown): Failure {
    if ((err as { permanent?: boolean }).permanent) return 'permanent';
    const status = (err as Partial<WebPushError>).statusCode;
    if (status === undefined) return (err as { code?: string }).code === 'EBLOCKED' ? 'permanent' : 'retry';
    // Too many requests and server errors pass; anything else the service refused will be refused again.
    return status === 429 || status >= 500 ? 'retry' : 'permanent';
  }
}

function isGone(err: unknown): boolean {
  const status = (err as Partial<WebPushError> | undefined)?.statusCode;
  return status !== undefined && GONE.has(status);
}

function safeHost(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return '?';
  }
}

/** An error for the log without the request's headers (VAPID token) or the subscription's keys. */
function brief(err: unknown): { message: string; statusCode?: number; code?: string } {
  const e = err as { message?: string; statusCode?: number; code?: string };
  return {
    message: String(e?.message ?? err),
    ...(e?.statusCode !== undefined ? { statusCode: e.statusCode } : {}),
    ...(e?.code ? { code: e.code } : {}),
  };
}
