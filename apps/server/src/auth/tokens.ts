import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { parseId } from '@phasewatch/shared';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

export interface AccessClaims {
  userId: number;
  /** Refresh-token family (session) the access token was issued in; logout revokes it. */
  sessionId: string;
  expiresAt: number;
}

/** Signs and verifies short-lived HS256 access tokens. */
export class AccessTokens {
  /**
   * The secret as a WebCrypto HMAC key, imported once: given the secret's bytes, jose imports them again
   * for every token it signs or checks (each request with a bearer token, each hub negotiate and connect).
   */
  private readonly key: Promise<webcrypto.CryptoKey>;
  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
  }

  async sign(userId: number, sessionId: string): Promise<string> {
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setIssuedAt()
      .setIssuer('phasewatch')
      .setAudience('phasewatch')
      .setExpirationTime(Math.floor(Date.now() / 1000) + this.ttlSeconds)
      .sign(await this.key);
  }

  /** The claims of a valid token, or null for an expired, forged or malformed one. */
  async verify(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: ['HS256'],
        issuer: 'phasewatch',
        audience: 'phasewatch',
      });
      // The subject is the user id as `sign` writes it: canonical decimal only (`1e0` is not user 1).
      const userId = parseId(payload.sub);
      if (userId === null || typeof payload.sid !== 'string' || !payload.exp) return null;
      return { userId, sessionId: payload.sid, expiresAt: payload.exp * 1000 };
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
      throw err;
    }
  }
}

/** A random URL-safe secret (refresh tokens, reset tokens, device keys). */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** Secrets are stored as SHA-256: they are high-entropy, so a slow hash adds nothing. */
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
