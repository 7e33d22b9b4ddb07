import net from 'node:net';
import { apiErrorResponseSchema } from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app.js';

/** Sends raw bytes and reads everything until the server closes the connection. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (d) => {
      out += d.toString('latin1');
    });
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
    socket.write(text);
  });
}

function parse(answer: string): { status: number; headers: string; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head, body: JSON.parse(body) };
}

describe('framework-level errors answer in the one error shape', () => {
  let t: TestApp;
  let port = 0;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address();
    port = typeof addr === 'object' && addr ? addr.port : 0;
  });
  afterAll(async () => t?.close());

  it.each([
    ['a bad percent-encoding (FST_ERR_BAD_URL)', 'GET /api/devices/% HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400, 'url'],
    ['a path parameter too long (414)', `GET /api/devices/${'1'.repeat(300)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 414, 'url'],
    ['headers too large (431)', `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers'],
    ['a URL too long for the header limit (431)', `GET /api/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, 'headers'],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 400, 'request'],
    [
      'both Content-Length and chunked',
      'POST /api/account/login HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      'request',
    ],
  ])('%s', async (_, text, status, field) => {
    const answer = parse(await rawRequest(port, text));
    expect(answer.status).toBe(status);
    expect(answer.headers).toMatch(/content-type: application\/json/i);
    const body = apiErrorResponseSchema.parse(answer.body);
    expect(body.statusCode).toBe(status);
    expect(body.errors).toEqual([expect.objectContaining({ field })]);
  });

  it('keeps serving afterwards', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
  });
});
