import { HubConnectionBuilder } from '@microsoft/signalr';
import { HUB_EVENTS, HUB_METHODS, HUB_PATH } from '@phasewatch/shared';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_PATH, type RouteInfo } from '../http/openapi.js';
import { buildTestApp, signUp, type TestApp } from '../test/app.js';
import { fakeFox } from '../test/collectors/fake-devices.js';
import { arbitraryFor, type Json, type JsonSchema } from '../test/fuzz/schema-arbitrary.js';
import { DIALECTS } from '../test/storage.js';

type User = Awaited<ReturnType<typeof signUp>>;

/** An object of user A that routes name by id, and how to see whether anything about it changed. */
interface Owned {
  /** Path parameter values naming the object (`{ id: '12' }`). */
  params: Record<string, string>;
  /** Everything A can read about the object, to compare before and after B's requests. */
  snapshot(): Promise<unknown>;
  /** Text only A's object contains, which must never appear in B's answers. */
  markers: string[];
  /** Query values its routes need (otherwise the readings' hints below). */
  query?: Record<string, string>;
  /** Query values one route (`METHOD url`) needs beyond `query` (issue 33: the ledger's months). */
  queryFor?(route: string): Record<string, string> | undefined;
  /**
   * A body for a route (`METHOD url`) that A's own request must be able to use (one naming A's other
   * objects, which a generated body cannot); generated bodies otherwise.
   */
  body?(route: string): Json | undefined;
}

/** Waits for an export of A to finish, so its snapshot no longer moves. */
async function exportDone(app: FastifyInstance, owner: User, id: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const res = await app.inject({ method: 'GET', url: `/api/exports/${id}`, headers: owner.auth });
    const status = (res.json() as { status?: string }).status;
    if (status === 'done') return;
    if (status === 'failed') throw new Error(`export fixture failed: ${res.body}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('export fixture did not finish');
}

let fixtures = 0;
let fox: ReturnType<typeof fakeFox> | null = null;
async function gateFox() {
  if (!fox) fox = await fakeFox().start();
  return fox;
}
afterAll(async () => fox?.stop());

/**
 * How to create a user-owned object, by the resource segment its routes put before the id
 * (`/api/devices/:id/...` → `devices`). A route whose id belongs to a resource missing here fails the
 * gate: locations, tariffs, comparisons and exports add theirs when they arrive.
 */
const OWNED_RESOURCES: Record<string, (app: FastifyInstance, owner: User) => Promise<Owned>> = {
  devices: async (app, owner) => {
    const marker = `A-only-${Math.random().toString(36).slice(2, 10)}`;
    const n = fixtures++;
    const mac = `02:AA:00:00:${String(Math.floor(n / 100)).padStart(2, '0')}:${String(n % 100).padStart(2, '0')}`;
    // Read by a collector (a fake Fox on loopback), so its collector routes have something to answer A;
    // polled once at creation, then not for an hour, so nothing changes under the snapshots.
    const fox = await gateFox();
    const res = await app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: owner.auth,
      payload: { name: marker, mac, typeCode: 13, model: marker, source: { kind: 'fox-energy', address: fox.url, pollSeconds: 3600 } },
    });
    if (res.statusCode !== 200) throw new Error(`device fixture: ${res.statusCode} ${res.body}`);
    const { device, ingestKey } = res.json() as { device: { id: number }; ingestKey: string };
    await expect
      .poll(
        async () =>
          (await app.inject({ method: 'GET', url: `/api/devices/${device.id}`, headers: owner.auth })).json().latestReading?.values?.vave1,
        { timeout: 20_000 },
      )
      .toBe(239.7);
    const now = Date.now();
    const readings = Array.from({ length: 30 }, (_, i) => ({
      ts: new Date(now - (30 - i) * 60_000).toISOString(),
      values: { vave1: 230, pave1: 500 + i, eai1: 100 + i * 0.01 },
    }));
    await app.inject({ method: 'POST', url: '/api/ingest', headers: { 'x-device-key': ingestKey }, payload: { readings } });
    const id = String(device.id);
    const read = async (url: string) => (await app.inject({ method: 'GET', url, headers: owner.auth })).json() as unknown;
    return {
      params: { id },
      markers: [marker, mac],
      snapshot: async () => {
        // The totals, not the spans (today, month, year, billing period): those start at the server's
        // local midnight, and one falling between two snapshots moved them (the readings are of the
        // last half hour). What B could change in them shows in the totals, the readings or the device.
        const energy = (await read(`/api/devices/${id}/energy`)) as Record<string, unknown>;
        const figures = Object.fromEntries(Object.entries(energy).filter(([, v]) => !(v && typeof v === 'object')));
        return {
          device: await read(`/api/devices/${id}`),
          energy: figures,
          readings: await read(`/api/devices/${id}/readings?from=${now - 3_600_000}&to=${now + 60_000}&interval=raw`),
        };
      },
    };
  },
  notifications: async (app, owner) => {
    // An alarm of A's device: its reading sags far below the drop threshold.
    const marker = `A-only-${Math.random().toString(36).slice(2, 10)}`;
    const n = fixtures++;
    const mac = `02:AC:00:00:${String(Math.floor(n / 100)).padStart(2, '0')}:${String(n % 100).padStart(2, '0')}`;
    const created = await app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: owner.auth,
      payload: { name: marker, mac, typeCode: 13 },
    });
    if (created.statusCode !== 200) throw new Error(`notification fixture: ${created.statusCode} ${created.body}`);
    const { device: sagging, ingestKey } = created.json() as { device: { id: number }; ingestKey: string };
    await app.inject({
      method: 'POST',
      url: '/api/ingest',
      headers: { 'x-device-key': ingestKey },
      payload: { readings: [{ ts: new Date(Date.now() - 1000).toISOString(), values: { vave1: 150 } }] },
    });
    const list = async () =>
      (await app.inject({ method: 'GET', url: `/api/notifications?deviceId=${sagging.id}`, headers: owner.auth })).json() as {
        items: { id: number }[];
      };
    const deadline = Date.now() + 10_000;
    let items = (await list()).items;
    while (items.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      items = (await list()).items;
    }
    if (items.length === 0) throw new Error('notification fixture: the sag raised no alarm');
    const id = String(items[0]?.id);
    return {
      params: { id },
      markers: [marker],
      snapshot: async () => (await list()).items.find((i) => String(i.id) === id),
    };
  },
  exports: async (app, owner) => {
    const device = await OWNED_RESOURCES.devices?.(app, owner);
    const marker = `A-export-${Math.random().toString(36).slice(2, 10)}`;
    const now = Date.now();
    const res = await app.inject({
      method: 'POST',
      url: '/api/exports',
      headers: owner.auth,
      payload: {
        deviceId: Number(device?.params.id),
        parameters: ['pave1', 'eai1'],
        from: new Date(now - 3_600_000).toISOString(),
        to: new Date(now + 60_000).toISOString(),
        interval: 'raw',
        format: 'csv',
        fileName: marker,
      },
    });
    if (res.statusCode !== 202) throw new Error(`export fixture: ${res.statusCode} ${res.body}`);
    const id = (res.json() as { id: string }).id;
    await exportDone(app, owner, id);
    const read = async () => (await app.inject({ method: 'GET', url: `/api/exports/${id}`, headers: owner.auth })).json() as unknown;
    return { params: { id }, markers: [marker, ...(device?.markers ?? [])], snapshot: read };
  },
  imports: async (app, owner) => {
    const device = await OWNED_RESOURCES.devices?.(app, owner);
    const marker = `A-import-${Math.random().toString(36).slice(2, 10)}`;
    const boundary = 'gateimport';
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const payload = `${part('deviceId', String(device?.params.id))}${part('format', 'phasewatch')}${part('dryRun', 'true')}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${marker}.csv"\r\n\r\ntime,pave1 [W]\n${new Date(Date.now() - 60_000).toISOString()},5\n\r\n--${boundary}--\r\n`;
    const res = await app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...owner.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    if (res.statusCode !== 202) throw new Error(`import fixture: ${res.statusCode} ${res.body}`);
    const id = (res.json() as { id: string }).id;
    const read = async () =>
      (await app.inject({ method: 'GET', url: `/api/imports/${id}`, headers: owner.auth })).json() as { status?: string };
    for (let i = 0; i < 600 && !['done', 'failed'].includes((await read()).status ?? ''); i++) await new Promise((r) => setTimeout(r, 50));
    return { params: { id }, markers: [marker, ...(device?.markers ?? [])], snapshot: read };
  },
  comparisons: async (app, owner) => {
    const device = await OWNED_RESOURCES.devices?.(app, owner);
    const marker = `A-cmp-${Math.random().toString(36).slice(2, 8)}`;
    const series = [{ deviceId: Number(device?.params.id), parameter: 'vave1' }];
    const res = await app.inject({ method: 'POST', url: '/api/comparisons', headers: owner.auth, payload: { name: marker, series } });
    if (res.statusCode !== 200) throw new Error(`comparison fixture: ${res.statusCode} ${res.body}`);
    const id = String((res.json() as { id: number }).id);
    return {
      params: { id },
      markers: [marker],
      snapshot: async () => (await app.inject({ method: 'GET', url: '/api/comparisons', headers: owner.auth })).json() as unknown,
      // A valid change of A's comparison names A's device (a generated one names nobody's).
      body: (route) => (route === 'PUT /api/comparisons/:id' ? { name: 'Renamed', series } : undefined),
    };
  },
};

/**
 * A location of the owner with a tariff and a device placed there with a day of readings: the locations
 * (`/api/locations/:id`, `/api/locations/:locationId/tariffs/:tariffId`) and tariffs (`/api/tariffs/:id`)
 * fixtures.
 */
async function placeFixture(app: FastifyInstance, owner: User): Promise<Owned & { tariffId: string }> {
  const marker = `A-place-${Math.random().toString(36).slice(2, 10)}`;
  const inject = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await app.inject({ method, url, headers: owner.auth, ...(payload ? { payload } : {}) });
    if (res.statusCode !== 200) throw new Error(`place fixture ${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as { id: number };
  };
  const loc = await inject('POST', '/api/locations', { name: marker, address: `${marker} street` });
  const tariffBody = {
    name: `${marker} G12`,
    group: 'G12',
    presetId: 'tauron-g12',
    prices: [{ validFrom: '2020-01-01', area1: 1.23, area2: 0.61, fixedMonthly: 30 }],
  };
  const tariff = await inject('POST', `/api/locations/${loc.id}/tariffs`, tariffBody);
  const dev = await OWNED_RESOURCES.devices?.(app, owner);
  if (dev) await inject('PUT', `/api/devices/${dev.params.id}`, { locationId: loc.id });
  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const read = async (url: string) => (await app.inject({ method: 'GET', url, headers: owner.auth })).json() as unknown;
  return {
    params: { id: String(loc.id), locationId: String(loc.id), tariffId: String(tariff.id) },
    tariffId: String(tariff.id),
    markers: [marker],
    query: { from, to, calendar: 'PL', year: today.slice(0, 4) },
    body: (route): Json | undefined => {
      if (/^(POST|PUT) .*\/tariffs/.test(route)) return { ...tariffBody, name: 'changed by B' };
      if (route === 'PUT /api/locations/:locationId/prosumer') return { scheme: 'net-metering', since: '2020-01-01', installationKw: 5 };
      return undefined;
    },
    queryFor: (route) => (route.endsWith('/prosumer/ledger') ? { from: today.slice(0, 7), to: today.slice(0, 7) } : undefined),
    snapshot: async () => ({
      location: await read(`/api/locations/${loc.id}`),
      tariffs: await read(`/api/locations/${loc.id}/tariffs`),
      stats: await read(`/api/tariffs/${tariff.id}/stats?from=${from}&to=${to}`),
      devices: await read('/api/devices'),
      prosumer: await read(`/api/locations/${loc.id}/prosumer`),
    }),
  };
}
OWNED_RESOURCES.locations = placeFixture;
OWNED_RESOURCES.tariffs = async (app, owner) => {
  const place = await placeFixture(app, owner);
  return { ...place, params: { id: place.tariffId } };
};

/** The resource an id-taking route names (`/api/devices/:id/energy` → `devices`), or null for routes without ids. */
function resourceOf(url: string): string | null {
  if (!url.includes(':') || url.startsWith(DOCS_PATH)) return null;
  // A month of a price (`/api/prices/rcem/:month`, issue 33) is not an object id: each user's value is their own.
  if (url.startsWith('/api/prices/')) return null;
  return /\/([^/:]+)\/:\w+/.exec(url)?.[1] ?? '';
}

/** Routes taking an id of a resource the gate cannot create: each fails the gate. */
function uncovered(routes: readonly RouteInfo[]): string[] {
  return routes
    .filter((r) => {
      const resource = resourceOf(r.url);
      return resource !== null && !(resource in OWNED_RESOURCES);
    })
    .map((r) => `${r.method} ${r.url}`);
}

describe('tenancy gate coverage', () => {
  it('fails for a route taking an id the gate has no fixture for', () => {
    expect(
      uncovered([
        { method: 'GET', url: '/api/devices/:id', schema: undefined },
        { method: 'GET', url: '/api/widgets/:id', schema: undefined },
        { method: 'PUT', url: '/api/gadgets/:id', schema: undefined },
        { method: 'GET', url: '/api/devices', schema: undefined },
        { method: 'GET', url: '/api/locations/:locationId/tariffs/:tariffId', schema: undefined },
      ]),
    ).toEqual(['GET /api/widgets/:id', 'PUT /api/gadgets/:id']);
  });
});

type OpenApi = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string; required?: boolean }[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, JsonSchema> };
};

describe.each(DIALECTS)('tenancy gate on %s', (dialect) => {
  let t: TestApp;
  let doc: OpenApi;
  let a: User;
  let b: User;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    a = await signUp(t.app);
    b = await signUp(t.app);
    doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as OpenApi;
  });
  afterAll(async () => t?.close());

  /** A query with every required parameter of the route (a recent range for the readings). */
  /** The Monday of the current week in the users' zone (they sign up in PL): a week the fixtures' readings fall in. */
  function thisMonday(now: number): string {
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(now);
    const d = new Date(`${day}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
    return d.toISOString().slice(0, 10);
  }

  function query(method: string, url: string, owned?: Owned): string {
    const now = Date.now();
    const hints: Record<string, string> = {
      from: String(now - 3_600_000),
      to: String(now),
      interval: 'raw',
      week: thisMonday(now),
      ...owned?.query,
      ...owned?.queryFor?.(`${method} ${url}`),
    };
    const params = doc.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()]?.parameters ?? [];
    const pairs = params.filter((p) => p.in === 'query' && p.required).map((p) => `${p.name}=${encodeURIComponent(hints[p.name] ?? '')}`);
    return pairs.length ? `?${pairs.join('&')}` : '';
  }

  /** Bodies the route's schema accepts, seeded, so a refusal is about the id and not the body. */
  function bodies(method: string, url: string): (Json | undefined)[] {
    const schema = doc.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
    if (!schema) return [undefined];
    const resolve = (ref: string) => doc.components?.schemas?.[ref.replace('#/components/schemas/', '')];
    const arb = arbitraryFor(schema, { resolve, dictionary: { strings: [], numbers: [], keys: [] } });
    return fc.sample(arb, { seed: 11, numRuns: 40 });
  }

  it('every route with an id of a user-owned object answers 404 to another user and leaves the object unchanged', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const name of uncovered(t.ctx.routes)) {
      failures.push(`${name}: takes an id the tenancy gate has no fixture for (add its resource to OWNED_RESOURCES)`);
    }
    for (const route of t.ctx.routes) {
      const resource = resourceOf(route.url);
      const create = resource === null ? undefined : OWNED_RESOURCES[resource];
      if (!create) continue;
      const name = `${route.method} ${route.url}`;
      const owned = await create(t.app, a);
      const missing = (route.url.match(/:(\w+)/g) ?? []).map((p) => p.slice(1)).filter((p) => !(p in owned.params));
      if (missing.length) {
        failures.push(`${name}: the "${resource}" fixture gives no value for ${missing.join(', ')}`);
        continue;
      }
      const url = route.url.replace(/:(\w+)/g, (_, p: string) => owned.params[p] as string) + query(route.method, route.url, owned);
      const before = await owned.snapshot();
      let answered: number | undefined;
      let usedBody: Json | undefined;
      // The first body that passes validation (a refine the JSON Schema cannot say may refuse some).
      const given = owned.body?.(name);
      for (const body of given === undefined ? bodies(route.method, route.url) : [given]) {
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: b.auth,
          ...(body === undefined ? {} : { payload: body as object }),
        });
        if (res.statusCode === 400) continue;
        answered = res.statusCode;
        usedBody = body;
        for (const m of owned.markers) if (res.body.includes(m)) failures.push(`${name}: B's answer contains A's "${m}"`);
        break;
      }
      if (answered !== 404) {
        failures.push(`${name}: B with A's ids answered ${answered ?? '400 to every generated body'}, not 404`);
        continue;
      }
      expect(await owned.snapshot(), `${name}: A's object changed after B's request`).toEqual(before);
      // The same request from A reaches the object: the 404 was about ownership, not the request.
      const own = await t.app.inject({
        method: route.method as 'GET',
        url,
        headers: a.auth,
        ...(usedBody === undefined ? {} : { payload: usedBody as object }),
      });
      if (own.statusCode < 200 || own.statusCode >= 300)
        failures.push(`${name}: A's own request answered ${own.statusCode}: ${own.body.slice(0, 200)}`);
      checked++;
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(0);
    console.log(`Tenancy gate (${dialect}): ${checked} routes with ids of user-owned objects checked`);
    // Every route with an id, each with fixtures of its own: the time grows with the API (two requests and
    // a fixture per route; ~16 s on PostgreSQL for the routes of stop 26, ~30 s with this round's).
  }, 180_000);

  it("answers without ids never carry another user's objects", async () => {
    // Fresh users: GET account/logout is among these routes and ends B's session.
    a = await signUp(t.app);
    b = await signUp(t.app);
    const owned = await OWNED_RESOURCES.devices?.(t.app, a);
    const place = await OWNED_RESOURCES.locations?.(t.app, a);
    const markers = [...(owned?.markers ?? []), ...(place?.markers ?? [])];
    // The advisor names objects by query: A's device and location answer B 404.
    for (const q of [`deviceId=${owned?.params.id}`, `locationId=${place?.params.id}`]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/tariffs/advisor?${q}`, headers: b.auth });
      expect(res.statusCode, q).toBe(404);
      for (const m of markers) expect(res.body.includes(m)).toBe(false);
    }
    for (const route of t.ctx.routes) {
      if (route.method !== 'GET' || route.url.includes(':') || route.url.includes('*') || route.url.startsWith(DOCS_PATH)) continue;
      const res = await t.app.inject({ method: 'GET', url: route.url, headers: b.auth });
      for (const m of markers) expect(res.body.includes(m), `${route.url} shows B A's "${m}"`).toBe(false);
    }
  });

  it("the hub refuses B's subscription to A's device and sends B none of its readings", async () => {
    a = await signUp(t.app);
    b = await signUp(t.app);
    const owned = (await OWNED_RESOURCES.devices?.(t.app, a)) as Owned;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    const client = (u: User) =>
      new HubConnectionBuilder()
        .withUrl(`http://127.0.0.1:${port}${HUB_PATH}`, { accessTokenFactory: () => u.token })
        .configureLogging({ log: () => {} })
        .build();
    const hubA = client(a);
    const hubB = client(b);
    const seenByB: unknown[] = [];
    const seenByA: unknown[] = [];
    hubB.on(HUB_EVENTS.liveMeasurement, (m) => seenByB.push(m));
    hubA.on(HUB_EVENTS.liveMeasurement, (m) => seenByA.push(m));
    await hubA.start();
    await hubB.start();
    try {
      const id = Number(owned.params.id);
      await expect(hubB.invoke(HUB_METHODS.subscribeDevice, id)).rejects.toThrow(`Device ${id} not found.`);
      await expect(hubB.invoke(HUB_METHODS.subscribeDevice, String(id))).rejects.toThrow(/not found/);
      expect(await hubA.invoke(HUB_METHODS.subscribeDevice, id)).toBe(true);
      const device = await t.app.inject({ method: 'GET', url: `/api/devices/${id}`, headers: a.auth });
      expect(device.statusCode).toBe(200);
      // A reading of A's device reaches A and not B.
      const keyRes = await t.app.inject({
        method: 'POST',
        url: '/api/devices',
        headers: a.auth,
        payload: { name: 'second', mac: '02:AB:00:00:00:02', typeCode: 13 },
      });
      const second = keyRes.json() as { device: { id: number }; ingestKey: string };
      expect(await hubA.invoke(HUB_METHODS.subscribeDevice, second.device.id)).toBe(true);
      await expect(hubB.invoke(HUB_METHODS.subscribeDevice, second.device.id)).rejects.toThrow(/not found/);
      await t.app.inject({
        method: 'POST',
        url: '/api/ingest',
        headers: { 'x-device-key': second.ingestKey },
        payload: { readings: [{ ts: new Date(Date.now() - 1000).toISOString(), values: { vave1: 231 } }] },
      });
      const deadline = Date.now() + 5000;
      while (seenByA.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(seenByA.length).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 200));
      expect(seenByB).toEqual([]);
    } finally {
      await hubA.stop();
      await hubB.stop();
    }
  });
});
