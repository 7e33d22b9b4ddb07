import { apiErrorResponseSchema, PARAMETER_NAMES } from '@phasewatch/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteInfo } from '../http/openapi.js';
import { INGEST_BODY_LIMIT } from '../ingest/ingest.routes.js';
import { buildTestApp, signUp, type TestApp } from '../test/app.js';
import { type FuzzOutcome, type FuzzRequest, type JsonSchema, type Operation, requestArbitrary, send } from '../test/fuzz/requests.js';
import { DIALECTS } from '../test/storage.js';

/**
 * The fuzzing gate: every route the app registered, driven by the OpenAPI document, gets well-formed and
 * malformed requests from fast-check for a few seconds. Gate: no answer 5xx, no dropped connection,
 * every 4xx in the one error shape, the server healthy after each route. Seeded (FUZZ_SEED), so a
 * failure names the request and repeats; FUZZ_MS_PER_ROUTE changes the time per route.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_126);
const MS_PER_ROUTE = Number(process.env.FUZZ_MS_PER_ROUTE ?? 1_500);
const MAX_RUNS_PER_ROUTE = 500;
const BODY_LIMIT = 64 * 1024;

type OpenApi = {
  paths: Record<
    string,
    Record<string, { parameters?: Operation['parameters']; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>
  >;
  components?: { schemas?: Record<string, JsonSchema> };
};

interface Counts {
  route: string;
  runs: number;
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
  dropped: number;
  badShape: number;
  statuses: string;
}

/** The document's operation of a route, or a bare one for routes left out of it (docs, metrics). */
function operationOf(doc: OpenApi, r: RouteInfo): Operation {
  const op = doc.paths[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
  return {
    method: r.method,
    url: r.url,
    parameters: op?.parameters ?? [],
    ...(op?.requestBody?.content?.['application/json']?.schema ? { body: op.requestBody.content['application/json'].schema } : {}),
  };
}

/** What is wrong with an outcome, or null: the gate's rules. */
function problem(out: FuzzOutcome): string | null {
  if ('dropped' in out) return `connection dropped (${out.dropped})`;
  const { status, contentType, body } = out.answer;
  if (status >= 500) return `answered ${status}: ${body.slice(0, 300)}`;
  if (status >= 400) {
    if (!contentType.startsWith('application/json')) return `${status} with content-type ${contentType}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return `${status} with a body that is not JSON: ${body.slice(0, 200)}`;
    }
    const shape = apiErrorResponseSchema.safeParse(parsed);
    if (!shape.success || shape.data.errors.length === 0 || shape.data.statusCode !== status)
      return `${status} not in the error shape: ${body.slice(0, 300)}`;
  }
  return null;
}

const describeRequest = (r: FuzzRequest) =>
  `${r.method} ${r.path.slice(0, 200)} [${r.kind}] ${JSON.stringify(r.headers).slice(0, 200)} ${typeof r.body === 'string' ? r.body.slice(0, 300) : ''}`;

describe.each(DIALECTS)('fuzzing gate on %s', (dialect) => {
  let t: TestApp;
  let port = 0;
  let doc: OpenApi;
  let macs = 0;

  beforeAll(async () => {
    t = await buildTestApp(dialect, {
      metricsToken: 'fuzz-metrics-token-0123456789',
      bodyLimitBytes: BODY_LIMIT,
      // The handlers are the target here, not the limiter (which has its own tests).
      rateLimits: { ingest: { max: 0, windowMs: 60_000 }, reads: { max: 0, windowMs: 60_000 }, jobs: { max: 0, windowMs: 60_000 } },
      // Exports the requests start stay queued (no worker spends the gate's time on them) and the queue is
      // never full: its 503 is a designed answer with its own test, not a failure to find here.
      jobConcurrency: 0,
      jobQueueLimit: 1_000_000,
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address();
    port = typeof addr === 'object' && addr ? addr.port : 0;
    doc = (await (await fetch(`http://127.0.0.1:${port}/api/openapi.json`)).json()) as OpenApi;
  });
  afterAll(async () => t?.close());

  /** A fresh user with a device and a day of readings, so one route's requests cannot spoil the next's. */
  async function fixture() {
    const u = await signUp(t.app);
    const mac = `02:FF:00:00:${String(Math.floor(macs / 100)).padStart(2, '0')}:${String(macs++ % 100).padStart(2, '0')}`;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: u.auth,
      payload: { name: 'fuzz', mac, typeCode: 13 },
    });
    const device = created.json() as { device: { id: number }; ingestKey: string };
    const now = Date.now();
    const readings = Array.from({ length: 60 }, (_, i) => ({
      ts: new Date(now - (60 - i) * 60_000).toISOString(),
      values: { vave1: 230 + (i % 3), pave1: 400 + i, eai1: 1000 + i * 0.01, rssi: -60 },
    }));
    await t.app.inject({ method: 'POST', url: '/api/ingest', headers: { 'x-device-key': device.ingestKey }, payload: { readings } });
    const id = device.device.id;
    const iso = (ms: number) => new Date(ms).toISOString();
    // A location with a tariff, the device placed there: the locations and tariffs routes reach real objects.
    const loc = (await t.app.inject({ method: 'POST', url: '/api/locations', headers: u.auth, payload: { name: 'fuzz' } })).json() as {
      id: number;
    };
    const tariff = (
      await t.app.inject({
        method: 'POST',
        url: `/api/locations/${loc.id}/tariffs`,
        headers: u.auth,
        payload: {
          name: 'fuzz',
          group: 'G12',
          presetId: 'tauron-g12',
          prices: [{ validFrom: '2026-01-01', area1: 1, area2: 0.5, fixedMonthly: 30 }],
        },
      })
    ).json() as { id: number };
    await t.app.inject({ method: 'PUT', url: `/api/devices/${id}`, headers: u.auth, payload: { locationId: loc.id } });
    const day = (ms: number) => iso(ms).slice(0, 10);
    return {
      creds: { bearer: u.token, deviceKey: device.ingestKey },
      hints: {
        id: [String(id), String(loc.id), String(tariff.id)],
        locationId: [String(loc.id)],
        tariffId: [String(tariff.id)],
        from: [
          iso(now - 7_200_000),
          String(now - 7_200_000),
          iso(now - 3 * 86_400_000),
          iso(now).slice(0, 10),
          day(now - 3 * 86_400_000),
          '2026-01-01',
        ],
        to: [iso(now), String(now + 60_000), iso(now + 86_400_000).slice(0, 10), '2027-01-02'],
        calendar: ['PL', 'TR'],
        year: ['2026', '1969'],
        presetId: ['tauron-g12', 'pge-g12n', 'epdk-t3'],
        group: ['G12', 'G12n', 'T3'],
        interval: ['raw', '15m', '30m', '1h', '24h'],
        params: ['vave1,eai1', 'pave1'],
        ts: [iso(now - 90_000), iso(now - 30_000), iso(now - 5_000)],
        email: [u.email],
        password: [u.password],
        api_token: [u.token],
        mac: [mac],
        country: ['PL', 'TR'],
        timezone: ['Europe/Warsaw', 'europe/istanbul'],
        language: ['en', 'tr'],
        deviceId: [id, String(id)],
        deviceIds: [String(id), `${id},${id + 1}`],
        kind: ['daily', 'weekly', 'monthly', 'yearly'],
        parameter: ['energy', 'vave1'],
        parameters: [['vave1', 'eai1'], []],
        format: ['csv', 'pdf'],
        fileName: ['report', 'a/b'],
        name: ['Kitchen'],
        series: [[{ deviceId: id, parameter: 'vave1' }]],
        items: [
          [
            { deviceId: id, from: iso(now - 7_200_000), to: iso(now) },
            { deviceId: id, from: iso(now - 86_400_000), to: iso(now - 3_600_000) },
          ],
        ],
      },
      dictionary: {
        strings: [
          String(id),
          String(id + 1),
          '1',
          u.email,
          u.password,
          'demo@phasewatch.dev',
          mac,
          u.token,
          'raw',
          '15m',
          '1h',
          '24h',
          iso(now - 90_000),
          iso(now - 30_000),
          iso(now - 86_400_000),
          iso(now + 3_600_000),
          String(now - 3_600_000),
          String(now),
          '2026-01-01 00:00:00',
          '2026-03-29',
          '2026-11-20',
          'daily',
          'energy',
          'csv',
          'pdf',
          'Europe/Warsaw',
          'America/Argentina/ComodRivadavia',
          'PL',
          'TR',
          'en',
          'pl',
          'vave1,eai1',
          'pave1',
          '2026-01-01',
          '04-01',
          '09-30',
          'PLN',
          'local',
          'cet',
        ],
        numbers: [id, loc.id, tariff.id, 230, -60, 0.95, 13, 17, 10, 20, 50, 1, 0, 2, 3, 24],
        keys: PARAMETER_NAMES,
      },
    };
  }

  it(
    'every route: no 5xx, no dropped connection, every 4xx in the error shape, healthy after',
    async () => {
      const table: Counts[] = [];
      const failures: string[] = [];
      const resolve = (ref: string) => doc.components?.schemas?.[ref.replace('#/components/schemas/', '')];
      for (const route of t.ctx.routes) {
        const f = await fixture();
        const op = operationOf(doc, route);
        const limit = route.url === '/api/ingest' ? INGEST_BODY_LIMIT : BODY_LIMIT;
        const name = `${route.method} ${route.url}`;
        const counts: Counts = { route: name, runs: 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, dropped: 0, badShape: 0, statuses: '' };
        const statuses = new Map<number, number>();
        const arb = requestArbitrary(op, f.creds, { resolve, dictionary: f.dictionary, hints: f.hints, maxItems: 6 }, limit);
        // fast-check stops waiting for the run in flight when the time is up: it is awaited below.
        let inFlight: Promise<unknown> = Promise.resolve();
        const property = fc.asyncProperty(arb, async (req) => {
          const sent = send(port, req);
          inFlight = sent;
          const out = await sent;
          counts.runs++;
          if ('dropped' in out) counts.dropped++;
          else {
            const s = out.answer.status;
            statuses.set(s, (statuses.get(s) ?? 0) + 1);
            const cls = `${Math.floor(s / 100)}xx` as '2xx' | '3xx' | '4xx' | '5xx';
            if (cls in counts) counts[cls]++;
          }
          const wrong = problem(out);
          if (wrong) {
            if (!('dropped' in out) && out.answer.status < 500) counts.badShape++;
            if (failures.length < 30) failures.push(`${name}: ${wrong}\n    request: ${describeRequest(req)}`);
          }
          return true;
        });
        const fuzz = (ms: number, numRuns = MAX_RUNS_PER_ROUTE) =>
          fc.assert(property, { seed: SEED, numRuns, interruptAfterTimeLimit: ms, markInterruptAsFailure: false });
        try {
          await fuzz(MS_PER_ROUTE);
        } catch (err) {
          // fast-check reports a time limit reached before the first request answered (a loaded machine,
          // a 20 MB body first) as a failure: that route gets one longer try, so it is never left out.
          if (!/interrupted after 0 tests/.test(String(err))) throw err;
          await inFlight;
          await fuzz(30_000, 25);
        }
        await inFlight;
        await new Promise((r) => setImmediate(r));
        counts.statuses = [...statuses.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([s, n]) => `${s}×${n}`)
          .join(' ');
        table.push(counts);
        const health = await send(port, { method: 'GET', path: '/api/health', headers: {}, kind: 'health' });
        if (!('answer' in health) || health.answer.status !== 200)
          failures.push(`${name}: the server is not healthy after it (${JSON.stringify(health).slice(0, 200)})`);
      }
      const total = table.reduce(
        (s, c) => ({ runs: s.runs + c.runs, x5: s.x5 + c['5xx'], dropped: s.dropped + c.dropped, bad: s.bad + c.badShape }),
        { runs: 0, x5: 0, dropped: 0, bad: 0 },
      );
      console.log(
        `\nFuzzing gate (${dialect}, seed ${SEED}, ${MS_PER_ROUTE} ms or ${MAX_RUNS_PER_ROUTE} requests per route): ${table.length} routes, ${total.runs} requests, ${total.x5} answered 5xx, ${total.dropped} dropped, ${total.bad} 4xx out of shape`,
      );
      console.table(table);
      expect(table.length).toBe(t.ctx.routes.length);
      expect(failures).toEqual([]);
    },
    15 * 60_000,
  );
});
