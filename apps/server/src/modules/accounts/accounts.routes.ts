import {
  authResponseSchema,
  forgotPasswordRequestSchema,
  loginRequestSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  updateProfileRequestSchema,
  userSchema,
  verifyTokenRequestSchema,
} from '@phasewatch/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken } from '../../auth/authenticate.js';
import { unauthorized } from '../../http/errors.js';
import type { AccountsService, Session } from './accounts.service.js';

export const REFRESH_COOKIE = 'pw_refresh';
const COOKIE_PATH = '/api/account';

export interface AccountsRoutesOptions {
  accounts: AccountsService;
  cookieSecure: boolean;
}

/** The spec's account calls (section 7), paths and payloads as they are. */
export const accountsRoutes: FastifyPluginAsyncZod<AccountsRoutesOptions> = async (app, { accounts, cookieSecure }) => {
  const sendSession = (reply: import('fastify').FastifyReply, s: Session) => {
    reply.setCookie(REFRESH_COOKIE, s.refreshToken, {
      httpOnly: true,
      secure: cookieSecure,
      sameSite: 'strict',
      path: COOKIE_PATH,
      expires: new Date(s.refreshExpiresAt),
    });
    return { token: s.token, user: s.user };
  };

  app.post('/account/login', { schema: { body: loginRequestSchema, response: { 200: authResponseSchema } } }, async (req, reply) =>
    sendSession(reply, await accounts.login(req.body, req.ip)),
  );

  app.post('/register', { schema: { body: registerRequestSchema, response: { 200: authResponseSchema } } }, async (req, reply) =>
    sendSession(reply, await accounts.register(req.body)),
  );

  app.post(
    '/forgot_password',
    { schema: { body: forgotPasswordRequestSchema, response: { 200: z.object({ ok: z.literal(true) }) } } },
    async (req) => {
      await accounts.forgotPassword(req.body.email);
      return { ok: true as const };
    },
  );

  app.post(
    '/reset_password',
    { schema: { body: resetPasswordRequestSchema, response: { 200: z.object({ ok: z.literal(true) }) } } },
    async (req) => {
      await accounts.resetPassword(req.body.token, req.body.password);
      return { ok: true as const };
    },
  );

  app.get('/account/userInfo', { onRequest: app.authenticate, schema: { response: { 200: userSchema } } }, async (req) =>
    accounts.userInfo(req.auth.userId),
  );

  app.post(
    '/account/update',
    { onRequest: app.authenticate, schema: { body: updateProfileRequestSchema, response: { 200: userSchema } } },
    async (req) => accounts.updateProfile(req.auth.userId, req.body),
  );

  app.post(
    '/account/verifytoken',
    { schema: { body: verifyTokenRequestSchema, response: { 200: z.object({ token: z.string() }) } } },
    async (req) => {
      if (!(await accounts.checkAccess(req.body.api_token))) throw unauthorized('Invalid or expired token');
      return { token: req.body.api_token };
    },
  );

  // The spec's client sends the "current user" here. The session is identified by the refresh cookie alone:
  // the body is accepted (any object, or none) and never read, so a client written from the spec works and
  // nothing in a body can name another session.
  app.post(
    '/account/refreshtoken',
    {
      schema: {
        description:
          'New access token for the session of the refresh cookie (rotated). The body, as the spec sends it (the current user record), is optional and ignored.',
        body: z.looseObject({}).nullish().describe('the current user (ignored)'),
        response: { 200: authResponseSchema },
      },
    },
    async (req, reply) => {
      try {
        return sendSession(reply, await accounts.refresh(req.cookies[REFRESH_COOKIE]));
      } catch (err) {
        reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
        throw err;
      }
    },
  );

  // The client purges its auth whatever this answers; we revoke what we can identify.
  app.get('/account/logout', { schema: { response: { 200: z.object({ ok: z.literal(true) }) } } }, async (req, reply) => {
    const token = bearerToken(req.headers.authorization);
    const claims = token ? await accounts.checkAccess(token) : null;
    await accounts.logout(claims ? { sessionId: claims.sessionId, userId: claims.userId } : null, req.cookies[REFRESH_COOKIE]);
    reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
    return { ok: true as const };
  });
};
