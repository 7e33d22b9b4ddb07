import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';

describe.each(DIALECTS)('accounts on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('registers, signs in and reads the user', async () => {
    const u = await signUp(t.app, 'Alice@Example.com', 'pass1');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      payload: { email: 'alice@example.com', password: 'pass1' },
    });
    expect(login.statusCode).toBe(200);
    const body = login.json();
    expect(body.user).toMatchObject({ email: 'alice@example.com', country: 'PL', timezone: 'Europe/Warsaw', fullName: 'Test User' });
    expect(login.headers['x-app-version']).toBe('0.1.0');
    const info = await t.app.inject({ method: 'GET', url: '/api/account/userInfo', headers: { authorization: `Bearer ${body.token}` } });
    expect(info.statusCode).toBe(200);
    expect(info.json().id).toBe(u.userId);
  });

  it('rejects a wrong password with errors', async () => {
    await signUp(t.app, 'bob@example.com', 'right');
    const res = await t.app.inject({ method: 'POST', url: '/api/account/login', payload: { email: 'bob@example.com', password: 'wrong' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0]).toMatchObject({ field: 'password' });
  });
});
