import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny stand-in for the Phasewatch server's public API (sign in, devices, ingest), listening on a real
 * loopback socket and recording what it receives. The real ingest endpoint is being built in parallel;
 * the end-to-end test against it lives in `e2e/`. It checks the contract the simulator relies on: the
 * device key header, at most `maxBatch` readings per request, JSON numbers only.
 */
export interface FakeApiOptions {
  email?: string;
  password?: string;
  /** Readings per request above which it answers 413 (the real limit is 5,000). */
  maxBatch?: number;
  /** Answer 503 to this many ingest requests first (a busy server). */
  failFirst?: number;
  /** Hold each ingest request of more than one reading this long (a server busy storing history). */
  batchDelayMs?: number;
}

export interface ReceivedReading {
  ts: string;
  values: Record<string, number>;
}

export interface FakeDevice {
  id: number;
  name: string;
  mac: string;
  typeCode: number;
  model: string;
  billingStartDate?: string;
  key: string;
  /** Readings in arrival order. */
  readings: ReceivedReading[];
  /** Size of each accepted ingest request. */
  batches: number[];
}

export interface FakeApi {
  url: string;
  devices: FakeDevice[];
  registrations: number;
  ingestRequests: number;
  rejected413: number;
  /** Most ingest requests in progress at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the fake API on 127.0.0.1 and a free port. */
export async function startFakeApi(options: FakeApiOptions = {}): Promise<FakeApi> {
  const email = options.email ?? 'demo@example.com';
  const password = options.password ?? 'demo1234';
  let failLeft = options.failFirst ?? 0;
  let inFlight = 0;
  const api: Omit<FakeApi, 'url' | 'close'> = { devices: [], registrations: 0, ingestRequests: 0, rejected413: 0, maxInFlight: 0 };

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const authed = req.headers.authorization === 'Bearer token-1';
      if (req.method === 'POST' && req.url === '/api/account/login') {
        const b = JSON.parse(body) as { email: string; password: string };
        if (b.email === email && b.password === password) return send(res, 200, { token: 'token-1', user: { id: 1, email } });
        return send(res, 401, { message: 'bad credentials' });
      }
      if (req.url === '/api/devices' && req.method === 'GET') {
        if (!authed) return send(res, 401, {});
        return send(
          res,
          200,
          api.devices.map(({ id, name, mac, typeCode, model }) => ({ id, name, mac, typeCode, model })),
        );
      }
      if (req.url === '/api/devices' && req.method === 'POST') {
        if (!authed) return send(res, 401, {});
        const b = JSON.parse(body) as { name: string; mac: string; typeCode: number; model: string };
        if (api.devices.some((d) => d.mac === b.mac)) return send(res, 409, { message: 'mac taken' });
        api.registrations++;
        const id = api.devices.length + 1;
        const device: FakeDevice = { id, ...b, key: `key-${id}-secret`, readings: [], batches: [] };
        api.devices.push(device);
        return send(res, 201, { device: { id, name: b.name, mac: b.mac, typeCode: b.typeCode, model: b.model }, ingestKey: device.key });
      }
      if (req.url === '/api/ingest' && req.method === 'POST') {
        inFlight++;
        api.maxInFlight = Math.max(api.maxInFlight, inFlight);
        try {
          // Hold the request a moment, as a committing server would, so concurrency shows.
          const many = body.indexOf('"ts"') !== body.lastIndexOf('"ts"');
          await new Promise((r) => setTimeout(r, many && options.batchDelayMs ? options.batchDelayMs : 2));
          const device = api.devices.find((d) => d.key === req.headers['x-device-key']);
          if (!device) return send(res, 401, { message: 'unknown device key' });
          if (failLeft > 0) {
            failLeft--;
            return send(res, 503, { message: 'busy' });
          }
          const b = JSON.parse(body) as { readings: ReceivedReading[] };
          if (b.readings.length > (options.maxBatch ?? 5000)) {
            api.rejected413++;
            return send(res, 413, { message: 'too many readings' });
          }
          for (const r of b.readings) {
            for (const v of Object.values(r.values))
              if (typeof v !== 'number' || !Number.isFinite(v)) return send(res, 400, { message: 'bad value' });
          }
          api.ingestRequests++;
          device.batches.push(b.readings.length);
          device.readings.push(...b.readings);
          return send(res, 200, { accepted: b.readings.length });
        } finally {
          inFlight--;
        }
      }
      send(res, 404, { message: 'not found' });
    })().catch((err: unknown) => send(res, 500, { message: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(api, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
