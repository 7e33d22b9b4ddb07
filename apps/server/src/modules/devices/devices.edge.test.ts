import { HUB_METHODS, HUB_PATH } from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildTestApp, signUp, type TestApp } from '../../test/app.js';
import { DIALECTS } from '../../test/storage.js';

type Errors = { errors: { field?: string; message: string; key?: string }[] };
const RS = '\x1e';

describe.each(DIALECTS)('device ids and texts at the edge on %s', (dialect) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof signUp>>;
  let id: number;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    user = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: user.auth,
      payload: { name: 'Edge', mac: '02:00:00:00:ED:01', typeCode: 13 },
    });
    id = res.json().device.id;
  });
  afterAll(async () => t?.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: user.auth });

  it.each(['1e0', '0x1', '0b1', '+1', '01', '0001', '1%20', '%201', '1.0', '-1', '0'])(
    'refuses the id spelled %s with 400 on the id field',
    async (spelled) => {
      // The device exists as id; every other spelling of it is refused, not read as the same device.
      const spelling = spelled.replace(/1/, String(id));
      for (const url of [`/api/devices/${spelling}`, `/api/devices/${spelling}/energy`]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(400);
        expect((res.json() as Errors).errors).toEqual([
          { field: 'id', message: 'must be a positive whole number written in decimal digits', key: 'validation.id' },
        ]);
      }
    },
  );

  it('reads the canonical spelling', async () => {
    expect((await get(`/api/devices/${id}`)).statusCode).toBe(200);
  });

  it.each(['2147483648', '99999999999999999999'])('answers 404 for the well-formed id %s that no row can have', async (big) => {
    for (const [method, url] of [
      ['GET', `/api/devices/${big}`],
      ['GET', `/api/devices/${big}/energy`],
      ['DELETE', `/api/devices/${big}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: user.auth });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const put = await t.app.inject({ method: 'PUT', url: `/api/devices/${big}`, headers: user.auth, payload: { name: 'x' } });
    expect(put.statusCode).toBe(404);
  });

  it.each(['name', 'friendlyName', 'typeName', 'model'])('answers the same 400 for a NUL character in %s', async (field) => {
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: user.auth,
      payload: { name: 'ok', mac: '02:00:00:00:ED:02', typeCode: 13, [field]: 'ab\u0000cd' },
    });
    expect(create.statusCode).toBe(400);
    expect((create.json() as Errors).errors).toEqual([
      { field, message: 'must not contain control characters', key: 'validation.controlCharacters' },
    ]);
    const update = await t.app.inject({ method: 'PUT', url: `/api/devices/${id}`, headers: user.auth, payload: { [field]: 'ab\u0000cd' } });
    expect(update.statusCode).toBe(400);
    expect((update.json() as Errors).errors).toEqual([
      { field, message: 'must not contain control characters', key: 'validation.controlCharacters' },
    ]);
    expect((await get(`/api/devices/${id}`)).json().name).toBe('Edge');
  });

  describe('hub', () => {
    let port = 0;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const addr = t.app.server.address();
      port = typeof addr === 'object' && addr ? addr.port : 0;
    });

    /** Invokes SubscribeDevice with the argument over the raw protocol; the completion's result or error. */
    async function subscribe(arg: unknown): Promise<{ result?: unknown; error?: string }> {
      const ws = new WebSocket(`ws://127.0.0.1:${port}${HUB_PATH}?access_token=${encodeURIComponent(user.token)}`);
      const records: string[] = [];
      ws.on('message', (d) => records.push(...d.toString().split(RS).filter(Boolean)));
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      ws.send(`{"protocol":"json","version":1}${RS}`);
      ws.send(`${JSON.stringify({ type: 1, invocationId: '1', target: HUB_METHODS.subscribeDevice, arguments: [arg] })}${RS}`);
      const deadline = Date.now() + 5000;
      for (;;) {
        const done = records.map((r) => JSON.parse(r) as { type?: number; result?: unknown; error?: string }).find((m) => m.type === 3);
        if (done) {
          ws.terminate();
          return done;
        }
        if (Date.now() > deadline) throw new Error(`no completion: ${records.join(' | ')}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }

    it('answers "not found" for SubscribeDevice(2147483648), as for any id that is not the user\'s', async () => {
      expect(await subscribe(2_147_483_648)).toMatchObject({ error: 'Device 2147483648 not found.' });
      expect(await subscribe('2147483648')).toMatchObject({ error: 'Device 2147483648 not found.' });
      expect(await subscribe(id + 1000)).toMatchObject({ error: `Device ${id + 1000} not found.` });
    });

    it('takes the same id spellings as HTTP', async () => {
      expect(await subscribe(id)).toMatchObject({ result: true });
      expect(await subscribe(String(id))).toMatchObject({ result: true });
      for (const bad of [`0${id}`, `${id}e0`, `+${id}`, ` ${id}`, 1.5, -1, 0])
        expect((await subscribe(bad)).error, String(bad)).toMatch(/deviceId must be a positive integer/);
    });
  });
});
