import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { NotificationMetrics } from '../notifications.metrics.js';
import { type Failure, RetryQueue } from './retry-queue.js';

/** A mail: plain text and HTML of the same content. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

interface MailJob {
  message: MailMessage;
  /** What the mail is, for the log (`alarm`, `password reset`). */
  what: string;
  onSent?: () => void;
}

export interface MailOptions {
  smtpUrl: string;
  from: string;
  delaysMs: readonly number[];
}

/**
 * Mail through the SMTP server of `SMTP_URL` (nodemailer): alarm mails and password-reset links. Sent in
 * the background with retries (a mail server restarting, a 4xx "try later"); a refusal (5xx: unknown
 * recipient, rejected sender) is not retried. Failures go to the log and /metrics.
 */
export class MailChannel {
  private readonly transport: Transporter;
  private readonly queue: RetryQueue<MailJob>;

  constructor(
    private readonly o: MailOptions,
    private readonly log: FastifyBaseLogger,
    private readonly metrics: NotificationMetrics,
  ) {
    this.transport = nodemailer.createTransport(o.smtpUrl, { from: o.from });
    this.queue = new RetryQueue<MailJob>({
      name: 'email',
      send: async (job) => {
        await this.transport.sendMail({ from: this.o.from, ...job.message });
      },
      classify: (err) => classifyMailError(err),
      delaysMs: o.delaysMs,
      concurrency: 2,
      maxQueued: 1000,
      onOutcome: (outcome, job, err) => {
        this.metrics.delivery('email', outcome);
        if (outcome === 'sent') job.onSent?.();
        else if (outcome === 'retry') this.log.warn({ err: brief(err), what: job.what }, 'mail delivery failed; retrying');
        else if (outcome === 'failed') this.log.warn({ err: brief(err), what: job.what }, 'mail delivery failed; given up');
        else this.log.warn({ what: job.what }, 'mail queue full; oldest mail dropped');
      },
    });
  }

  get depth(): number {
    return this.queue.depth;
  }

  /** Queues a mail; `onSent` runs once the SMTP server accepted it. */
  send(message: MailMessage, what: string, onSent?: () => void): void {
    this.queue.push({ message, what, ...(onSent ? { onSent } : {}) });
  }

  drained(): Promise<void> {
    return this.queue.drained();
  }

  close(): void {
    const dropped = this.queue.stop();
    if (dropped > 0) this.log.info({ dropped }, 'mails not sent at shutdown');
    this.transport.close();
  }
}

/** SMTP 5xx is a refusal that will not change; anything else (4xx, a lost connection) may pass later. */
export function classifyMailError(err: unknown): Failure {
  const code = (err as { responseCode?: number }).responseCode;
  if (typeof code === 'number' && code >= 500) return 'permanent';
  // nodemailer's own refusals (no recipients, a malformed address) fail the same way again.
  if ((err as { code?: string }).code === 'EENVELOPE') return 'permanent';
  return 'retry';
}

function brief(err: unknown): { message: string; responseCode?: number; code?: string } {
  const e = err as { message?: string; responseCode?: number; code?: string };
  return {
    message: String(e?.message ?? err),
    ...(e?.responseCode !== undefined ? { responseCode: e.responseCode } : {}),
    ...(e?.code ? { code: e.code } : {}),
  };
}

/** Text for HTML: what users typed (device names) must not become markup in a mail. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
