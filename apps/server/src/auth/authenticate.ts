import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../http/errors.js';
import type { AccessClaims } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `authenticate` on routes that need a signed-in user. */
    auth: { userId: number; sessionId: string };
  }
}

/** Reads `Authorization: Bearer <jwt>`; answers 401 for a missing, expired or forged token. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  return m?.[1] ?? null;
}

/** Accepts an access token: the claims when it is valid and its live session belongs to its user, else null. */
export type AccessCheck = (token: string) => Promise<AccessClaims | null>;

export function makeAuthenticate(checkAccess: AccessCheck) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthorized('Missing bearer token');
    const claims = await checkAccess(token);
    if (!claims) throw unauthorized('Invalid or expired token');
    request.auth = { userId: claims.userId, sessionId: claims.sessionId };
  };
}
