import {
  type Language,
  type LoginRequest,
  type RegisterRequest,
  timezoneForCountry,
  type UpdateProfileRequest,
  type User,
} from '@phasewatch/shared';
import type { FastifyBaseLogger } from 'fastify';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../../auth/passwords.js';
import { type AccessClaims, type AccessTokens, randomToken, sha256 } from '../../auth/tokens.js';
import type { EventBus } from '../../events/bus.js';
import { serverDate } from '../../http/dates.js';
import { keyedError, unauthorized } from '../../http/errors.js';
import { languageOf } from '../../i18n/messages.js';
import type { UserRow } from '../../storage/schema.js';
import type { AccountsRepository } from './accounts.repository.js';
import { LoginThrottle } from './login-throttle.js';

export interface Session {
  token: string;
  user: User;
  refreshToken: string;
  refreshExpiresAt: number;
}

export interface AccountsServiceOptions {
  refreshTtlSeconds: number;
  loginMaxFailures: number;
  loginFailureWindowMs: number;
  publicUrl: string;
  /** Told about ended sessions, so the realtime hub closes their connections. */
  events?: EventBus;
  /** Sends password-reset links by mail (the mail server of `SMTP_URL`), or null: the link goes to the log. */
  resetMail?: ResetMailer | null;
}

/**
 * Mails a password-reset link (`url`) to `to` in language `lng`; handed in at wiring (the notifications'
 * mail channel), so accounts import nothing of notifications.
 */
export type ResetMailer = (lng: Language, to: string, name: string, url: string) => void;

const RESET_TTL_MS = 60 * 60_000;
const REFRESH_REUSE_GRACE_MS = 30_000;

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    fullName: row.full_name,
    country: row.country,
    timezone: row.timezone,
    language: row.language as Language,
    createdAt: serverDate(row.created_at),
  };
}

/** Sign-in, registration, sessions and the profile. */
export class AccountsService {
  private readonly throttle: LoginThrottle;

  constructor(
    private readonly repo: AccountsRepository,
    private readonly tokens: AccessTokens,
    private readonly log: FastifyBaseLogger,
    private readonly opts: AccountsServiceOptions,
  ) {
    this.throttle = new LoginThrottle(repo.db, opts.loginMaxFailures, opts.loginFailureWindowMs);
  }

  async login(req: LoginRequest & { email: string }, ip: string): Promise<Session> {
    const key = `${ip}|${req.email}`;
    // Counted before the password is checked, so parallel attempts cannot all be checked.
    const retryAfter = await this.throttle.attempt(key);
    if (retryAfter > 0) {
      throw keyedError(429, 'errors.tooManyAttempts', { headers: { 'retry-after': String(Math.ceil(retryAfter / 1000)) } });
    }
    const row = await this.repo.findUserByEmail(req.email);
    const ok = row
      ? await verifyPassword(req.password, row.password_hash)
      : await verifyPassword(req.password, await DUMMY_HASH).then(() => false);
    if (!row || !ok) {
      throw keyedError(401, 'errors.invalidCredentials', { field: 'password', message: 'Invalid email or password' });
    }
    await this.throttle.succeeded(key);
    return this.startSession(row);
  }

  async register(req: RegisterRequest & { email: string; country: string }): Promise<Session> {
    const now = Date.now();
    const row = await this.repo.insertUser({
      email: req.email,
      password_hash: await hashPassword(req.password),
      full_name: req.fullName ?? '',
      country: req.country,
      timezone: timezoneForCountry(req.country),
      language: req.language ?? 'en',
      created_at: now,
      updated_at: now,
    });
    if (!row) throw keyedError(409, 'errors.emailTaken', { field: 'email' });
    return this.startSession(row);
  }

  /** Creates the user unless the email exists; used to seed the demo account. */
  async ensureUser(email: string, password: string, country = 'PL', fullName = 'Demo User'): Promise<UserRow> {
    const existing = await this.repo.findUserByEmail(email);
    if (existing) return existing;
    const now = Date.now();
    const row = await this.repo.insertUser({
      email,
      password_hash: await hashPassword(password),
      full_name: fullName,
      country,
      timezone: timezoneForCountry(country),
      language: 'en',
      created_at: now,
      updated_at: now,
    });
    return row ?? (await this.repo.findUserByEmail(email)) ?? Promise.reject(new Error('could not seed user'));
  }

  async userInfo(userId: number): Promise<User> {
    const row = await this.repo.findUserById(userId);
    if (!row) throw unauthorized('User no longer exists');
    return toUser(row);
  }

  async updateProfile(userId: number, req: UpdateProfileRequest & { country: string }): Promise<User> {
    const row = await this.repo.updateUser(userId, {
      full_name: req.fullName,
      country: req.country,
      timezone: req.timezone,
      language: req.language,
      updated_at: Date.now(),
    });
    if (!row) throw unauthorized('User no longer exists');
    return toUser(row);
  }

  /** Rotates a refresh token: the old one is spent; a spent one presented again revokes the session. */
  async refresh(refreshToken: string | undefined): Promise<Session> {
    if (!refreshToken) throw unauthorized('No refresh token');
    const now = Date.now();
    const row = await this.repo.findRefreshToken(sha256(refreshToken));
    if (!row || row.revoked_at !== null || row.expires_at <= now) throw unauthorized('Refresh token is invalid or expired');
    if (row.used_at !== null || !(await this.repo.markRefreshTokenUsed(row.id, now))) {
      // Tabs of one browser share the cookie and may refresh at the same moment: a token rotated moments
      // ago is refused without ending the session (the other tab's request rotated it).
      if (row.used_at === null || now - row.used_at < REFRESH_REUSE_GRACE_MS) throw unauthorized('Refresh token was just rotated');
      // Reuse of a rotated token later than that means it leaked: end the whole session.
      await this.endSession(row.family, row.user_id, now);
      this.log.warn({ userId: row.user_id }, 'refresh token reused; session revoked');
      throw unauthorized('Refresh token was already used');
    }
    const user = await this.repo.findUserById(row.user_id);
    if (!user) throw unauthorized('User no longer exists');
    return this.issue(user, row.family);
  }

  /** Revokes the session of the access token and of the refresh cookie (usually one and the same). */
  async logout(session: { sessionId: string; userId: number } | null, refreshToken: string | undefined): Promise<void> {
    const now = Date.now();
    const revoked = new Map<string, number>();
    if (session) revoked.set(session.sessionId, session.userId);
    const row = refreshToken ? await this.repo.findRefreshToken(sha256(refreshToken)) : undefined;
    if (row) revoked.set(row.family, row.user_id);
    for (const [sessionId, userId] of revoked) await this.endSession(sessionId, userId, now);
  }

  /**
   * Every revocation goes through here or `endAllSessions`: the session is revoked in the database
   * (every request checks it) and announced, so the realtime hub closes its connections at once, on
   * every instance (`sessionRevoked` crosses instances through the hub's fan-out).
   */
  private async endSession(sessionId: string, userId: number, now: number): Promise<void> {
    await this.repo.revokeFamily(sessionId, now);
    this.opts.events?.emit('sessionRevoked', { sessionId, userId });
  }

  /** Ends every session of the user (password reset; account changes that must sign everyone out). */
  async endAllSessions(userId: number, now = Date.now()): Promise<number> {
    const ended = await this.repo.revokeAllForUser(userId, now);
    for (const sessionId of ended) this.opts.events?.emit('sessionRevoked', { sessionId, userId });
    return ended.length;
  }

  /** The sessions of these that are still active (not logged out or revoked). */
  activeSessions = (sessionIds: readonly string[]) => this.repo.activeFamilies(sessionIds);

  /**
   * The one place an access token is accepted (API routes, token verification, the hub): its signature
   * and expiry are valid, and its session is live and belongs to the user the token names. A token
   * whose subject names another user (or none) than its session's is refused, however it was signed.
   */
  checkAccess = async (token: string): Promise<AccessClaims | null> => {
    const claims = await this.tokens.verify(token);
    if (!claims) return null;
    const owner = await this.repo.sessionUser(claims.sessionId);
    return owner === claims.userId ? claims : null;
  };

  /** Always succeeds from the caller's view, so it cannot be used to find which emails exist. */
  async forgotPassword(email: string): Promise<void> {
    const row = await this.repo.findUserByEmail(email);
    if (!row) return;
    const token = randomToken();
    const now = Date.now();
    // Only the newest link works: an older one (in a mailbox, a forwarded mail) is ended.
    await this.repo.endPasswordResets(row.id, now);
    await this.repo.insertPasswordReset({ token_hash: sha256(token), user_id: row.id, expires_at: now + RESET_TTL_MS, created_at: now });
    const resetUrl = `${this.opts.publicUrl.replace(/\/+$/, '')}/reset-password?token=${token}`;
    if (this.opts.resetMail) {
      // The link goes by mail only: a log line would let whoever reads the logs reset the password.
      this.opts.resetMail(languageOf(row.language), row.email, row.full_name, resetUrl);
      this.log.info({ email: row.email }, 'password reset mail queued');
      return;
    }
    // No mail server configured: the link goes to the server log.
    this.log.info({ email: row.email, resetUrl }, 'password reset link');
  }

  async resetPassword(token: string, password: string): Promise<void> {
    const now = Date.now();
    const userId = await this.repo.consumePasswordReset(sha256(token), now);
    if (userId === undefined) throw keyedError(400, 'errors.resetTokenInvalid', { field: 'token' });
    // Using a link ends every other one of the user, so no second link changes the password again.
    await this.repo.endPasswordResets(userId, now);
    await this.repo.updateUser(userId, { password_hash: await hashPassword(password), updated_at: now });
    await this.endAllSessions(userId, now);
  }

  private startSession(row: UserRow): Promise<Session> {
    return this.issue(row, randomToken(16));
  }

  private async issue(row: UserRow, family: string): Promise<Session> {
    const now = Date.now();
    const refreshToken = randomToken();
    const refreshExpiresAt = now + this.opts.refreshTtlSeconds * 1000;
    await this.repo.insertRefreshToken({
      user_id: row.id,
      token_hash: sha256(refreshToken),
      family,
      expires_at: refreshExpiresAt,
      created_at: now,
    });
    return { token: await this.tokens.sign(row.id, family), user: toUser(row), refreshToken, refreshExpiresAt };
  }
}
