import { HUB_PATH } from '@phasewatch/shared';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { openStorage } from '../../storage/database.js';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { createTestStorage, DIALECTS } from '../../test/storage.js';

type Errors = { errors: { field?: string; message: string; key?: string }[] };
const LIMIT = 10;

/** Signs a token with the app's key: what someone holding JWT_SECRET could forge. */
function forge(secret: string, claims: { sub?: string; sid: string }): Promise<string> {
  const jwt = new SignJWT({ sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setIssuer('phasewatch')
    .setAudience('phasewatch')
    .setExpirationTime('10m');
  if (claims.sub !== undefined) jwt.setSubject(claims.sub);
  return jwt.sign(new TextEncoder().encode(secret));
}

const sidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sid as string;

describe.each(DIALECTS)('account hardening on %s', (dialect) => {
  let t: TestApp;
  const login = (app: FastifyInstance, email: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/account/login', payload: { email, password } });

  beforeAll(async () => {
    t = await buildTestApp(dialect, { loginMaxFailures: LIMIT });
  });
  afterAll(async () => t?.close());

  describe('login throttle', () => {
    it('holds against 49 wrong passwords sent at once: at most the limit are checked, the rest get 429', async () => {
      await signUp(t.app, 'parallel@example.com', 'right-pass');
      const answers = await Promise.all(Array.from({ length: 49 }, () => login(t.app, 'parallel@example.com', 'wrong')));
      const codes = answers.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 401)).toHaveLength(LIMIT);
      expect(codes.filter((c) => c === 429)).toHaveLength(49 - LIMIT);
      for (const r of answers.filter((a) => a.statusCode === 429)) {
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
        expect((r.json() as Errors).errors).toHaveLength(1);
      }
      // The right password is not even checked now.
      expect((await login(t.app, 'parallel@example.com', 'right-pass')).statusCode).toBe(429);
    });

    it('clears after a successful sign-in', async () => {
      await signUp(t.app, 'clears@example.com', 'right-pass');
      const counted = async () =>
        (await t.ctx.storage.db.selectFrom('login_attempts').select('count').execute()).map((r) => Number(r.count));
      const before = (await counted()).length;
      for (let i = 0; i < 3; i++) expect((await login(t.app, 'clears@example.com', 'wrong')).statusCode).toBe(401);
      expect((await counted()).length).toBe(before + 1);
      expect(await counted()).toContain(3);
      expect((await login(t.app, 'clears@example.com', 'right-pass')).statusCode).toBe(200);
      expect((await counted()).length).toBe(before);
    });
  });

  describe('timezones', () => {
    it('stores the canonical IANA name however the zone is spelled', async () => {
      const u = await signUp(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/account/update',
        headers: u.auth,
        payload: { fullName: 'Z', country: 'AR', timezone: 'AMERIca/ARGEnTiNA/ComoDRIvadaViA', language: 'en' },
      });
      expect(res.statusCode).toBe(200);
      const canonical = new Intl.DateTimeFormat('en', { timeZone: 'America/Argentina/ComodRivadavia' }).resolvedOptions().timeZone;
      expect(res.json().timezone).toBe(canonical);
      const row = await t.ctx.storage.db.selectFrom('users').select('timezone').where('id', '=', u.userId).executeTakeFirstOrThrow();
      expect(row.timezone).toBe(canonical);
      const lower = await t.app.inject({
        method: 'POST',
        url: '/api/account/update',
        headers: u.auth,
        payload: { fullName: 'Z', country: 'PL', timezone: 'europe/warsaw', language: 'en' },
      });
      expect(lower.json().timezone).toBe('Europe/Warsaw');
    });
  });

  describe('text with NUL characters', () => {
    it('answers the same 400 on the full name, and stores nothing', async () => {
      const u = await signUp(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/account/update',
        headers: u.auth,
        payload: { fullName: 'ab\u0000cd', country: 'PL', timezone: 'Europe/Warsaw', language: 'en' },
      });
      expect(res.statusCode).toBe(400);
      expect((res.json() as Errors).errors).toEqual([
        { field: 'fullName', message: 'must not contain control characters', key: 'validation.controlCharacters' },
      ]);
      const reg = await t.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { email: 'nul@example.com', password: 'abcd', country: 'PL', fullName: 'x\u0000' },
      });
      expect(reg.statusCode).toBe(400);
      expect((reg.json() as Errors).errors[0]?.field).toBe('fullName');
    });
  });

  describe('password reset tokens', () => {
    it('issuing a new token ends the older one, and using one ends every other', async () => {
      const lines: string[] = [];
      const ts = await createTestStorage(dialect);
      const logger = pino({ level: 'info' }, { write: (s: string) => lines.push(s) });
      const { app } = await buildApp({ ...t.config, dataDir: ts.dataDir }, { storage: ts.storage, logger });
      const tokens = () => lines.flatMap((l) => /token=([\w-]+)/.exec(l)?.[1] ?? []);
      const reset = (token: string | undefined, password: string) =>
        app.inject({ method: 'POST', url: '/api/reset_password', payload: { token, password } });
      try {
        await signUp(app, 'resets@example.com', 'old-pass');
        for (let i = 0; i < 2; i++)
          await app.inject({ method: 'POST', url: '/api/forgot_password', payload: { email: 'resets@example.com' } });
        const [first, second] = tokens();
        // The first link was ended by the second.
        expect((await reset(first, 'first-pass')).statusCode).toBe(400);
        expect((await reset(second, 'second-pass')).statusCode).toBe(200);
        expect((await login(app, 'resets@example.com', 'second-pass')).statusCode).toBe(200);

        // Two links outstanding at once (issued in parallel): using one ends the other.
        lines.length = 0;
        await Promise.all(
          [0, 1].map(() => app.inject({ method: 'POST', url: '/api/forgot_password', payload: { email: 'resets@example.com' } })),
        );
        const pair = tokens();
        await ts.storage.db
          .updateTable('password_resets')
          .set({ used_at: null })
          .where('created_at', '>', Date.now() - 60_000)
          .execute();
        expect((await reset(pair[0], 'third-pass')).statusCode).toBe(200);
        expect((await reset(pair[1], 'fourth-pass')).statusCode).toBe(400);
        expect((await login(app, 'resets@example.com', 'third-pass')).statusCode).toBe(200);
      } finally {
        await app.close();
        await ts.dispose();
      }
    });
  });

  describe('access tokens bound to their session user', () => {
    it.each([
      ['another user', (other: number) => String(other)],
      ['user 1 as 1e0', () => '1e0'],
      ['user 0001', () => '0001'],
      ['no user', () => undefined],
    ])('refuses a live session under %s on every route and the hub', async (_, sub) => {
      const a = await signUp(t.app);
      const b = await signUp(t.app);
      // A's live session, a subject that is not A.
      const token = await forge(t.config.jwtSecret, { sid: sidOf(a.token), sub: sub(b.userId) });
      const auth = { authorization: `Bearer ${token}` };
      expect((await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: auth })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/api/devices', headers: auth })).statusCode).toBe(401);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/devices',
            headers: auth,
            payload: { name: 'x', mac: '02:00:00:00:00:99', typeCode: 13 },
          })
        ).statusCode,
      ).toBe(401);
      expect((await t.app.inject({ method: 'POST', url: '/api/account/verifytoken', payload: { api_token: token } })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'POST', url: `${HUB_PATH}/negotiate`, headers: auth })).statusCode).toBe(401);
      // The token A really holds still works.
      expect((await t.app.inject({ method: 'GET', url: '/api/devices', headers: a.auth })).statusCode).toBe(200);
    });

    it('the hub refuses such a token on the WebSocket too', async () => {
      const a = await signUp(t.app);
      const b = await signUp(t.app);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const addr = t.app.server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      const token = await forge(t.config.jwtSecret, { sid: sidOf(a.token), sub: String(b.userId) });
      const status = await new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}${HUB_PATH}?access_token=${encodeURIComponent(token)}`);
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => {
          ws.terminate();
          resolve(101);
        });
        ws.on('error', reject);
      });
      expect(status).toBe(401);
    });
  });
});

describe('login throttle shared by two instances on one PostgreSQL', () => {
  it('counts the attempts of both instances together', async () => {
    const ts = await createTestStorage('postgres');
    const second = openStorage({ databaseUrl: ts.databaseUrl, dataDir: ts.dataDir });
    const config = {
      ...loadConfig({
        DATA_DIR: ts.dataDir,
        DATABASE_URL: ts.databaseUrl,
        JWT_SECRET: 'test-secret-for-signing-tokens-0123456789',
        RCE_IMPORT: 'off',
      }),
      demo: null,
      simulate: false,
      webDistDir: '/nonexistent',
      logLevel: 'silent',
      loginMaxFailures: 6,
    };
    const one = await buildApp(config, { storage: ts.storage, logger: false });
    const two = await buildApp(config, { storage: second, logger: false });
    try {
      await signUp(one.app, 'shared@example.com', 'right-pass');
      const apps = [one.app, two.app];
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          (apps[i % 2] as FastifyInstance).inject({
            method: 'POST',
            url: '/api/account/login',
            payload: { email: 'shared@example.com', password: 'wrong' },
          }),
        ),
      );
      const codes = answers.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 401)).toHaveLength(6);
      expect(codes.filter((c) => c === 429)).toHaveLength(18);
      // Either instance now refuses without checking, the right password too.
      for (const app of apps) {
        const r = await app.inject({
          method: 'POST',
          url: '/api/account/login',
          payload: { email: 'shared@example.com', password: 'right-pass' },
        });
        expect(r.statusCode).toBe(429);
      }
    } finally {
      await two.app.close();
      await one.app.close();
      await ts.dispose();
    }
  });
});
