import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';
import { REFRESH_COOKIE } from './accounts.routes.js';

type Json = Record<string, unknown> & { errors?: { field?: string; message: string; key?: string }[] };

describe.each(DIALECTS)('accounts on %s', (dialect) => {
  let t: TestApp;
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers });
  const fieldsOf = (body: Json) => (body.errors ?? []).map((e) => e.field);

  beforeAll(async () => {
    t = await buildTestApp(dialect, { loginMaxFailures: 3 });
  });
  afterAll(async () => t?.close());

  describe('register', () => {
    it('creates the user with the timezone of the country and signs in', async () => {
      const res = await post('/api/register', {
        email: 'Ayse@Example.com',
        password: 'abcd',
        country: 'tr',
        fullName: 'Ayşe',
        language: 'tr',
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.user).toMatchObject({
        email: 'ayse@example.com',
        country: 'TR',
        timezone: 'Europe/Istanbul',
        language: 'tr',
        fullName: 'Ayşe',
      });
      expect(body.user.createdAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(body.token.split('.')).toHaveLength(3);
      const cookie = res.cookies.find((c) => c.name === REFRESH_COOKIE);
      expect(cookie?.httpOnly).toBe(true);
      expect(cookie?.path).toBe('/api/account');
    });

    it('refuses a taken email with 409 on the email field', async () => {
      await signUp(t.app, 'taken@example.com');
      const res = await post('/api/register', { email: 'TAKEN@example.com', password: 'abcd', country: 'PL' });
      expect(res.statusCode).toBe(409);
      expect(fieldsOf(res.json())).toEqual(['email']);
      // English for API users, the message key for the web app to translate.
      expect(res.json().errors[0]).toEqual({ field: 'email', message: 'already registered', key: 'errors.emailTaken' });
    });

    it.each([
      [{ email: 'not-an-email', password: 'abcd', country: 'PL' }, 'email'],
      [{ email: 'a@b.co', password: 'abc', country: 'PL' }, 'password'],
      [{ email: 'a@b.co', password: 'abcd' }, 'country'],
      [{ email: 'a@b.co', password: 'abcd', country: 'XX' }, 'country'],
      [{ email: 'a@b.co', password: 'abcd', country: 'PL', language: 'de' }, 'language'],
      [{ email: 'a@b.co', password: 1234, country: 'PL' }, 'password'],
      [{ email: 'a@b.co', password: 'abcd', country: 'PL', isAdmin: true }, 'isAdmin'],
    ])('rejects %o on field %s', async (payload, field) => {
      const res = await post('/api/register', payload);
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(fieldsOf(body)).toContain(field);
      expect(body.message).toContain(field);
      // Every validation error carries the message key of its rule next to the English text.
      for (const e of body.errors) expect(e.key).toMatch(/^(validation|errors)\./);
    });

    it('accepts exactly 4 password characters (inclusive minimum)', async () => {
      const res = await post('/api/register', { email: 'four@example.com', password: '1234', country: 'PL' });
      expect(res.statusCode).toBe(200);
    });
  });

  describe('login', () => {
    it('refuses a password shorter than 4 characters with the same message as every password field', async () => {
      await signUp(t.app, 'shorty@example.com', 'pw-shorty');
      const res = await post('/api/account/login', { email: 'shorty@example.com', password: 'abc' });
      expect(res.statusCode).toBe(400);
      expect((res.json() as Json).errors).toEqual([
        { field: 'password', message: 'must be at least 4 characters', key: 'validation.passwordMin' },
      ]);
    });

    it('answers token and user; email is case-insensitive', async () => {
      await signUp(t.app, 'carol@example.com', 'pw-carol');
      const res = await post('/api/account/login', { email: ' Carol@Example.COM ', password: 'pw-carol' });
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json()).sort()).toEqual(['token', 'user']);
    });

    it('gives the same answer for an unknown email and a wrong password', async () => {
      await signUp(t.app, 'dave@example.com', 'pw-dave');
      const wrong = await post('/api/account/login', { email: 'dave@example.com', password: 'nope' });
      const unknown = await post('/api/account/login', { email: 'nobody@example.com', password: 'nope' });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json().errors).toEqual(unknown.json().errors);
      expect(wrong.json().message).toBe('Invalid email or password');
      expect(wrong.json().errors).toEqual([{ field: 'password', message: 'Invalid email or password', key: 'errors.invalidCredentials' }]);
    });

    it('rate-limits repeated failures with 429 and Retry-After, then still refuses the right password', async () => {
      await signUp(t.app, 'eve@example.com', 'pw-eve');
      for (let i = 0; i < 3; i++)
        expect((await post('/api/account/login', { email: 'eve@example.com', password: 'bad!' })).statusCode).toBe(401);
      const blocked = await post('/api/account/login', { email: 'eve@example.com', password: 'pw-eve' });
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.json().errors).toEqual([
        { message: 'Too many failed sign-in attempts, try again later', key: 'errors.tooManyAttempts' },
      ]);
    });

    it.each([
      ['{"email":', 'body'],
      ['[]', 'body'],
      ['{"email":"a@b.co"}', 'password'],
      ['{"email":"a@b.co","password":"x","remember":true}', 'remember'],
    ])('rejects malformed body %s', async (raw, field) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/account/login',
        payload: raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(400);
      expect(fieldsOf(res.json())).toContain(field);
    });

    it('rejects a non-JSON content type with 415', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/account/login',
        payload: 'email=a',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.statusCode).toBe(415);
      expect(res.json().errors.length).toBe(1);
    });
  });

  describe('userInfo and update', () => {
    it('reads and updates the profile; the email cannot change', async () => {
      const u = await signUp(t.app, 'frank@example.com');
      const upd = await post(
        '/api/account/update',
        { fullName: 'Frank Z', country: 'DE', timezone: 'Europe/Berlin', language: 'pl' },
        u.auth,
      );
      expect(upd.statusCode).toBe(200);
      expect(upd.json()).toMatchObject({
        email: 'frank@example.com',
        fullName: 'Frank Z',
        country: 'DE',
        timezone: 'Europe/Berlin',
        language: 'pl',
      });
      const info = await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: u.auth });
      expect(info.json()).toMatchObject({ fullName: 'Frank Z', timezone: 'Europe/Berlin' });
      const withEmail = await post(
        '/api/account/update',
        { fullName: 'F', country: 'DE', timezone: 'Europe/Berlin', language: 'pl', email: 'x@y.z' },
        u.auth,
      );
      expect(withEmail.statusCode).toBe(400);
      expect(fieldsOf(withEmail.json())).toContain('email');
      const after = await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: u.auth });
      expect(after.json().email).toBe('frank@example.com');
    });

    it.each([
      [{ fullName: 'F', country: 'DE', language: 'en' }, 'timezone'],
      [{ fullName: 'F', country: 'DE', timezone: 'Nowhere/City', language: 'en' }, 'timezone'],
      [{ fullName: 'F', country: '', timezone: 'Europe/Berlin', language: 'en' }, 'country'],
      [{ fullName: 7, country: 'DE', timezone: 'Europe/Berlin', language: 'en' }, 'fullName'],
      [{ fullName: '', country: 'DE', timezone: 'Europe/Berlin', language: 'en' }, 'fullName'],
      [{ fullName: '   ', country: 'DE', timezone: 'Europe/Berlin', language: 'en' }, 'fullName'],
    ])('rejects %o on %s and keeps the profile', async (payload, field) => {
      const u = await signUp(t.app);
      const res = await post('/api/account/update', payload, u.auth);
      expect(res.statusCode).toBe(400);
      expect(fieldsOf(res.json())).toContain(field);
      const info = await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: u.auth });
      expect(info.json()).toMatchObject({ fullName: 'Test User', country: 'PL', timezone: 'Europe/Warsaw' });
    });

    it('answers 401 without, with a forged and with an expired token', async () => {
      const none = await t.app.inject({ method: 'GET', url: '/api/account/userInfo' });
      expect(none.statusCode).toBe(401);
      const forged = await new SignJWT({ sid: 'x' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('1')
        .setIssuer('phasewatch')
        .setAudience('phasewatch')
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('some-other-secret-entirely-000000000'));
      const bad = await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: { authorization: `Bearer ${forged}` } });
      expect(bad.statusCode).toBe(401);
      const u = await signUp(t.app);
      const sid = JSON.parse(Buffer.from(u.token.split('.')[1] ?? '', 'base64url').toString()).sid as string;
      const expired = await new SignJWT({ sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(u.userId))
        .setIssuer('phasewatch')
        .setAudience('phasewatch')
        .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
        .sign(new TextEncoder().encode(t.config.jwtSecret));
      const exp = await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: { authorization: `Bearer ${expired}` } });
      expect(exp.statusCode).toBe(401);
      const garbage = await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: { authorization: 'Bearer not.a.jwt' } });
      expect(garbage.statusCode).toBe(401);
    });
  });

  describe('verifytoken', () => {
    it('returns the token when valid, 401 otherwise, 400 without api_token', async () => {
      const u = await signUp(t.app);
      const ok = await post('/api/account/verifytoken', { api_token: u.token });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ token: u.token });
      expect((await post('/api/account/verifytoken', { api_token: `${u.token}x` })).statusCode).toBe(401);
      const missing = await post('/api/account/verifytoken', {});
      expect(missing.statusCode).toBe(400);
      expect(fieldsOf(missing.json())).toContain('api_token');
    });
  });

  describe('refresh and logout', () => {
    const cookieHeader = (value: string) => ({ cookie: `${REFRESH_COOKIE}=${value}` });

    it('rotates the refresh token; reusing the old one revokes the session', async () => {
      const u = await signUp(t.app);
      const r1 = await post('/api/account/refreshtoken', {}, cookieHeader(u.refreshCookie));
      expect(r1.statusCode).toBe(200);
      expect(r1.json().user.id).toBe(u.userId);
      const next = r1.cookies.find((c) => c.name === REFRESH_COOKIE)?.value ?? '';
      expect(next).not.toBe(u.refreshCookie);
      const newToken = r1.json().token as string;
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: { authorization: `Bearer ${newToken}` } })).statusCode,
      ).toBe(200);
      // The spent token again within the grace window (another tab's simultaneous refresh): refused, session kept.
      const early = await post('/api/account/refreshtoken', {}, cookieHeader(u.refreshCookie));
      expect(early.statusCode).toBe(401);
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: { authorization: `Bearer ${newToken}` } })).statusCode,
      ).toBe(200);
      // Later than that it is a replay of a leaked token, so the whole session ends.
      await t.ctx.storage.db
        .updateTable('refresh_tokens')
        .set((eb) => ({ used_at: eb('used_at', '-', 60_000) }))
        .where('used_at', 'is not', null)
        .execute();
      const replay = await post('/api/account/refreshtoken', {}, cookieHeader(u.refreshCookie));
      expect(replay.statusCode).toBe(401);
      expect((await post('/api/account/refreshtoken', {}, cookieHeader(next))).statusCode).toBe(401);
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: { authorization: `Bearer ${newToken}` } })).statusCode,
      ).toBe(401);
    });

    it('two simultaneous refreshes with one cookie keep the session', async () => {
      const u = await signUp(t.app);
      const [a, b] = await Promise.all([
        post('/api/account/refreshtoken', {}, cookieHeader(u.refreshCookie)),
        post('/api/account/refreshtoken', {}, cookieHeader(u.refreshCookie)),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 401]);
      const winner = a.statusCode === 200 ? a : b;
      const token = winner.json().token as string;
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: { authorization: `Bearer ${token}` } })).statusCode,
      ).toBe(200);
      const next = winner.cookies.find((c) => c.name === REFRESH_COOKIE)?.value ?? '';
      expect((await post('/api/account/refreshtoken', {}, cookieHeader(next))).statusCode).toBe(200);
    });

    it("takes the spec's body (the current user) and ignores it: the refresh cookie alone names the session", async () => {
      const me = await signUp(t.app);
      const other = await signUp(t.app);
      const otherUser = (await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: other.auth })).json() as Json;
      // Another user's record (and token) in the body changes nothing: the answer is the cookie's user.
      const res = await post('/api/account/refreshtoken', { ...otherUser, token: other.token }, cookieHeader(me.refreshCookie));
      expect(res.statusCode).toBe(200);
      expect(res.json().user.id).toBe(me.userId);
      // The same body without a cookie refreshes nothing.
      expect((await post('/api/account/refreshtoken', { ...otherUser, token: other.token })).statusCode).toBe(401);
      // No body at all works too (the web app sends the current user's record).
      const next = res.cookies.find((c) => c.name === REFRESH_COOKIE)?.value ?? '';
      const bare = await t.app.inject({ method: 'POST', url: '/api/account/refreshtoken', headers: cookieHeader(next) });
      expect(bare.statusCode).toBe(200);
    });

    it('answers 401 without or with an unknown refresh cookie', async () => {
      expect((await post('/api/account/refreshtoken', {})).statusCode).toBe(401);
      expect((await post('/api/account/refreshtoken', {}, cookieHeader('nonsense'))).statusCode).toBe(401);
    });

    it('logout revokes the session: the access token and the refresh token stop working', async () => {
      const u = await signUp(t.app);
      const out = await t.app.inject({
        method: 'GET',
        url: '/api/account/logout',
        headers: { ...u.auth, ...cookieHeader(u.refreshCookie) },
      });
      expect(out.statusCode).toBe(200);
      expect(out.cookies.find((c) => c.name === REFRESH_COOKIE)?.value).toBe('');
      expect((await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: u.auth })).statusCode).toBe(401);
      expect((await post('/api/account/verifytoken', { api_token: u.token })).statusCode).toBe(401);
      expect((await post('/api/account/refreshtoken', {}, cookieHeader(u.refreshCookie))).statusCode).toBe(401);
    });

    it('logout answers 200 even without any credentials', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/account/logout' })).statusCode).toBe(200);
    });

    it('other sessions of the same user survive a logout', async () => {
      const u = await signUp(t.app, 'multi@example.com', 'pw-multi');
      const second = await post('/api/account/login', { email: 'multi@example.com', password: 'pw-multi' });
      await t.app.inject({ method: 'GET', url: '/api/account/logout', headers: u.auth });
      const token2 = second.json().token as string;
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: { authorization: `Bearer ${token2}` } })).statusCode,
      ).toBe(200);
    });
  });

  describe('forgot and reset password', () => {
    it('always answers ok, and a reset token from the log changes the password once', async () => {
      const lines: string[] = [];
      const { buildApp } = await import('../../app.js');
      const { default: pino } = await import('pino');
      const { createTestStorage } = await import('../../test/storage.js');
      const ts = await createTestStorage(dialect);
      const logger = pino({ level: 'info' }, { write: (s: string) => lines.push(s) });
      const { app } = await buildApp({ ...t.config, dataDir: ts.dataDir }, { storage: ts.storage, logger });
      try {
        await signUp(app, 'gina@example.com', 'old-pass');
        const unknown = await app.inject({ method: 'POST', url: '/api/forgot_password', payload: { email: 'nobody@example.com' } });
        expect(unknown.statusCode).toBe(200);
        expect(lines.some((l) => l.includes('resetUrl'))).toBe(false);
        const res = await app.inject({ method: 'POST', url: '/api/forgot_password', payload: { email: 'gina@example.com' } });
        expect(res.json()).toEqual({ ok: true });
        const line = lines.find((l) => l.includes('resetUrl'));
        const token = /token=([\w-]+)/.exec(line ?? '')?.[1];
        expect(token).toBeTruthy();
        const reset = await app.inject({ method: 'POST', url: '/api/reset_password', payload: { token, password: 'new-pass' } });
        expect(reset.statusCode).toBe(200);
        expect(
          (await app.inject({ method: 'POST', url: '/api/account/login', payload: { email: 'gina@example.com', password: 'old-pass' } }))
            .statusCode,
        ).toBe(401);
        expect(
          (await app.inject({ method: 'POST', url: '/api/account/login', payload: { email: 'gina@example.com', password: 'new-pass' } }))
            .statusCode,
        ).toBe(200);
        const again = await app.inject({ method: 'POST', url: '/api/reset_password', payload: { token, password: 'third-pass' } });
        expect(again.statusCode).toBe(400);
        expect(fieldsOf(again.json())).toEqual(['token']);
        const short = await app.inject({ method: 'POST', url: '/api/reset_password', payload: { token, password: 'abc' } });
        expect(fieldsOf(short.json())).toContain('password');
      } finally {
        await app.close();
        await ts.dispose();
      }
    });

    it('rejects an invalid email', async () => {
      const res = await post('/api/forgot_password', { email: 'nope' });
      expect(res.statusCode).toBe(400);
      expect(fieldsOf(res.json())).toEqual(['email']);
    });
  });
});
