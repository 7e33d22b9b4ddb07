import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../test/app.js';
import { DIALECTS } from '../test/storage.js';

type Errors = { errors: { field?: string; message: string; key?: string }[] };
const INVALID = { message: 'must be valid Unicode text (it has an unpaired surrogate)', key: 'validation.invalidText' };

/** Text the dialects would store differently (SQLite: a\uFFFD\uFFFD\uFFFDb, PostgreSQL: a\uFFFDb) is refused on both. */
describe.each(DIALECTS)('lone UTF-16 surrogates on %s', (dialect) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  let device: { id: number; key: string };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    user = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: user.auth,
      payload: { name: 'Surrogates', mac: '02:00:00:00:5E:01', typeCode: 13 },
    });
    device = { id: res.json().device.id, key: res.json().ingestKey };
  });
  afterAll(async () => t?.close());

  it.each(['name', 'friendlyName', 'typeName', 'model'])(
    'refuses one in the device %s with a field error, and stores nothing',
    async (field) => {
      const create = await t.app.inject({
        method: 'POST',
        url: '/api/devices',
        headers: user.auth,
        payload: { name: 'ok', mac: '02:00:00:00:5E:02', typeCode: 13, [field]: 'a\uD800b' },
      });
      expect(create.statusCode).toBe(400);
      expect((create.json() as Errors).errors).toEqual([{ field, ...INVALID }]);
      const update = await t.app.inject({
        method: 'PUT',
        url: `/api/devices/${device.id}`,
        headers: user.auth,
        payload: { [field]: 'x\uDFFF' },
      });
      expect(update.statusCode).toBe(400);
      expect((update.json() as Errors).errors).toEqual([{ field, ...INVALID }]);
      const stored = (await t.app.inject({ method: 'GET', url: `/api/devices/${device.id}`, headers: user.auth })).json();
      expect(stored.name).toBe('Surrogates');
    },
  );

  it('keeps well-formed text beyond the BMP exactly as sent, on both dialects', async () => {
    const name = 'Gniazdko 🔌 ⚡ zażółć';
    const update = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${device.id}`,
      headers: user.auth,
      payload: { friendlyName: name },
    });
    expect(update.statusCode).toBe(200);
    const stored = (await t.app.inject({ method: 'GET', url: `/api/devices/${device.id}`, headers: user.auth })).json();
    expect(stored.friendlyName).toBe(name);
  });

  it('refuses one in the full name and in passwords', async () => {
    const profile = await t.app.inject({
      method: 'POST',
      url: '/api/account/update',
      headers: user.auth,
      payload: { fullName: 'Ann \uD800', country: 'PL', timezone: 'Europe/Warsaw', language: 'en' },
    });
    expect(profile.statusCode).toBe(400);
    expect((profile.json() as Errors).errors).toEqual([{ field: 'fullName', ...INVALID }]);
    // "pass\uD800" and "pass\uDBFF" would hash alike (each becomes U+FFFD in UTF-8).
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { email: 'surrogate@example.com', password: 'pass\uD800', country: 'PL' },
    });
    expect(reg.statusCode).toBe(400);
    expect((reg.json() as Errors).errors).toEqual([{ field: 'password', ...INVALID }]);
    const login = await t.app.inject({ method: 'POST', url: '/api/account/login', payload: { email: user.email, password: 'pass\uDBFF' } });
    expect(login.statusCode).toBe(400);
    expect((login.json() as Errors).errors).toEqual([{ field: 'password', ...INVALID }]);
  });

  it('refuses ingest bodies with one in a parameter name or a timestamp, escaped or as bytes, and stores nothing', async () => {
    const ts = new Date(Date.now() - 60_000).toISOString();
    const post = (body: string | Buffer) =>
      t.app.inject({
        method: 'POST',
        url: '/api/ingest',
        headers: { 'x-device-key': device.key, 'content-type': 'application/json' },
        payload: body,
      });
    const inName = await post(`{"readings":[{"ts":"${ts}","values":{"vave1\\ud800":230}}]}`);
    expect(inName.statusCode).toBe(400);
    expect((inName.json() as Errors).errors).toEqual([{ field: 'readings.0.values', ...INVALID }]);
    const inTs = await post(`{"readings":[{"ts":"${ts}\\udc00","values":{"vave1":230}}]}`);
    expect(inTs.statusCode).toBe(400);
    expect((inTs.json() as Errors).errors.map((e) => e.field)).toEqual(['readings.0.ts']);
    // A surrogate written as bytes (CESU-8) is not UTF-8: decoded as U+FFFD, it names no parameter.
    const bytes = Buffer.concat([
      Buffer.from(`{"readings":[{"ts":"${ts}","values":{"vave1`),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('":230}}]}'),
    ]);
    const asBytes = await post(bytes);
    expect(asBytes.statusCode).toBe(400);
    const raw = await t.app.inject({
      method: 'GET',
      url: `/api/devices/${device.id}/readings?from=${Date.now() - 3_600_000}&to=${Date.now()}&interval=raw`,
      headers: user.auth,
    });
    expect(raw.json().ts).toEqual([]);
  });
});
