// @vitest-environment node
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiClientOptions, ApiError, createApiClient, SERVER_ERROR_KEY } from './api-client';

/** A tiny real HTTP server whose answers the tests script per path. */
interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  body: string;
}
let server: http.Server;
let base = '';
const seen: Seen[] = [];
let version = '1.0.0';
let validToken = 'fresh';
let refreshWorks = true;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization, body });
      const json = (status: number, data: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'x-app-version': version });
        res.end(JSON.stringify(data));
      };
      switch (req.url) {
        case '/api/me':
          return req.headers.authorization === `Bearer ${validToken}` ? json(200, { id: 1 }) : json(401, { message: 'no', errors: [] });
        case '/api/account/refreshtoken':
          return refreshWorks
            ? json(200, {
                token: validToken,
                user: {
                  id: 1,
                  email: 'a@b.cd',
                  fullName: '',
                  country: 'PL',
                  timezone: 'Europe/Warsaw',
                  language: 'en',
                  createdAt: '2024-01-01 00:00:00',
                },
              })
            : json(401, { message: 'expired', errors: [] });
        case '/api/missing':
          return json(404, { statusCode: 404, error: 'Not Found', message: 'Device not found', errors: [{ message: 'Device not found' }] });
        case '/api/bad':
          return json(400, {
            statusCode: 400,
            error: 'Bad Request',
            message: 'fullName: is too long',
            errors: [{ field: 'fullName', message: 'is too long' }],
          });
        case '/api/boom':
          return json(500, { message: 'stack trace here' });
        case '/api/slow':
          setTimeout(() => json(200, {}), 500);
          return;
        default:
          return json(200, { ok: true, echo: body ? JSON.parse(body) : null });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

beforeEach(() => {
  seen.length = 0;
  version = '1.0.0';
  validToken = 'fresh';
  refreshWorks = true;
});

function client(token: string | null, over: Partial<ApiClientOptions> = {}) {
  let current = token;
  const opts = {
    baseUrl: base,
    getToken: () => current,
    onRefreshed: vi.fn((auth: { token: string }) => {
      current = auth.token;
    }),
    onPurge: vi.fn(() => {
      current = null;
    }),
    onNotFound: vi.fn(),
    onVersionChange: vi.fn(),
    ...over,
  };
  return { api: createApiClient(opts), opts, token: () => current };
}

describe('api client', () => {
  it('sends the Bearer token and JSON body to the base URL', async () => {
    const { api } = client('fresh');
    const res = await api.post<{ echo: unknown }>('things', { a: 1 });
    expect(res.echo).toEqual({ a: 1 });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/things', auth: 'Bearer fresh' });
  });

  it('on 401 refreshes once and replays the request with the new token', async () => {
    const { api, opts, token } = client('stale');
    await expect(api.get('me')).resolves.toEqual({ id: 1 });
    expect(seen.map((s) => s.url)).toEqual(['/api/me', '/api/account/refreshtoken', '/api/me']);
    expect(seen[2]?.auth).toBe('Bearer fresh');
    expect(opts.onRefreshed).toHaveBeenCalledOnce();
    expect(opts.onPurge).not.toHaveBeenCalled();
    expect(token()).toBe('fresh');
  });

  it("sends the spec's refresh body: the current user's record", async () => {
    const user = { id: 1, email: 'a@b.cd', fullName: 'Ala', country: 'PL' };
    const { api } = client('stale', { getUser: () => user });
    await api.get('me');
    const refresh = seen.find((s) => s.url === '/api/account/refreshtoken');
    expect(refresh?.method).toBe('POST');
    expect(JSON.parse(refresh?.body ?? 'null')).toEqual(user);
  });

  it('shares one refresh between concurrent 401s', async () => {
    const { api } = client('stale');
    await Promise.all([api.get('me'), api.get('me'), api.get('me')]);
    expect(seen.filter((s) => s.url === '/api/account/refreshtoken')).toHaveLength(1);
  });

  it('purges the auth when the refresh fails, without looping', async () => {
    refreshWorks = false;
    const { api, opts, token } = client('stale');
    const err = await api.get('me').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect(opts.onPurge).toHaveBeenCalledOnce();
    expect(token()).toBeNull();
    expect(seen.map((s) => s.url)).toEqual(['/api/me', '/api/account/refreshtoken']);
  });

  it('does not refresh for calls that opt out (login)', async () => {
    const { api, opts } = client('stale');
    await expect(api.get('me', { skipAuthRefresh: true })).rejects.toMatchObject({ status: 401 });
    expect(seen).toHaveLength(1);
    expect(opts.onPurge).not.toHaveBeenCalled();
  });

  it('goes to the 404 page once, and again only after a navigation', async () => {
    const { api, opts } = client('fresh');
    await expect(api.get('missing')).rejects.toMatchObject({ status: 404, message: 'Device not found' });
    await expect(api.get('missing')).rejects.toMatchObject({ status: 404 });
    expect(opts.onNotFound).toHaveBeenCalledOnce();
    api.resetNotFound();
    await expect(api.get('missing')).rejects.toMatchObject({ status: 404 });
    expect(opts.onNotFound).toHaveBeenCalledTimes(2);
    await expect(api.get('missing', { notFoundRedirect: false })).rejects.toMatchObject({ status: 404 });
    expect(opts.onNotFound).toHaveBeenCalledTimes(2);
  });

  it('gives field errors of a 400 and the server error text for a 5xx', async () => {
    const { api } = client('fresh');
    const bad = (await api.post('bad', {}).catch((e: unknown) => e)) as ApiError;
    expect(bad.kind).toBe('http');
    expect(bad.errors).toEqual([{ field: 'fullName', message: 'is too long' }]);
    const boom = (await api.get('boom').catch((e: unknown) => e)) as ApiError;
    expect(boom.kind).toBe('server');
    expect(boom.message).toBe(SERVER_ERROR_KEY);
  });

  it('reloads when the version header of a GET changes, not on other methods', async () => {
    const { api, opts } = client('fresh');
    await api.get('x');
    version = '2.0.0';
    await api.post('x', {});
    expect(opts.onVersionChange).not.toHaveBeenCalled();
    await api.get('x');
    expect(opts.onVersionChange).toHaveBeenCalledExactlyOnceWith('2.0.0', '1.0.0');
    await api.get('x');
    expect(opts.onVersionChange).toHaveBeenCalledOnce();
  });

  it('compares with the version the page was loaded with', async () => {
    const { api, opts } = client('fresh', { initialVersion: '0.9.0' });
    await api.get('x');
    expect(opts.onVersionChange).toHaveBeenCalledExactlyOnceWith('1.0.0', '0.9.0');
  });

  it('times out and reports a lost server as the server error', async () => {
    const { api } = client('fresh');
    await expect(api.get('slow', { timeoutMs: 50 })).rejects.toMatchObject({ kind: 'timeout' });
    const dead = createApiClient({ ...client(null).opts, baseUrl: 'http://127.0.0.1:9/api/' });
    await expect(dead.get('x')).rejects.toMatchObject({ kind: 'network', message: SERVER_ERROR_KEY });
  });

  it('sends credentials with every request', async () => {
    const fetchSpy = vi.fn<typeof fetch>((input, init) => fetch(input, init));
    const { api } = client('fresh', { fetch: fetchSpy });
    await api.get('x');
    expect(fetchSpy.mock.calls[0]?.[1]?.credentials).toBe('include');
  });
});
