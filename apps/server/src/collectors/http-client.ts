import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { CollectorError } from './collector-error.js';
import type { NetworkGuard } from './network-guard.js';

/** How a polled device is asked: through the network guard, with a deadline, never following a redirect. */
export interface HttpOptions {
  guard: NetworkGuard;
  /** Whole request, connection to last byte (ms). */
  timeoutMs: number;
  /** Answers longer than this are refused (a device that streams forever must not fill memory). */
  maxBytes?: number;
  /** `basic` (Shelly Gen1) or `digest` (Shelly Gen2, SHA-256): user and password. */
  auth?: { scheme: 'basic' | 'digest'; user: string; password: string } | undefined;
}

const DEFAULT_MAX_BYTES = 256 * 1024;

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(url: URL, ip: string, headers: Record<string, string>, opts: HttpOptions): Promise<RawAnswer> {
  const max = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const secure = url.protocol === 'https:';
  const lib = secure ? https : http;
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = lib.request(
      {
        host: ip,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        // The name the user typed, though the connection goes to the address the guard checked.
        headers: { host: url.host, accept: 'application/json', connection: 'close', ...headers },
        ...(secure ? { servername: url.hostname.replace(/^\[(.*)\]$/, '$1') } : {}),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > max) {
            req.destroy(new CollectorError('unexpectedAnswer', `the answer is longer than ${max} bytes`));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new CollectorError('timeout', `no answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (err instanceof CollectorError) reject(err);
      else reject(new CollectorError('unreachable', `${url.host} did not answer (${err.code ?? err.message})`));
    });
    req.end();
  });
}

/** The `Authorization` of an HTTP digest challenge (RFC 7616; Shelly Gen2 asks for SHA-256). */
function digestAuthorization(challenge: string, path: string, user: string, password: string): string | null {
  const params = new Map<string, string>();
  for (const m of challenge.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]+))/g)) params.set((m[1] as string).toLowerCase(), m[2] ?? m[3] ?? '');
  const realm = params.get('realm');
  const nonce = params.get('nonce');
  if (realm === undefined || nonce === undefined) return null;
  const algorithm = (params.get('algorithm') ?? 'MD5').toUpperCase();
  const hash = (s: string) =>
    createHash(algorithm === 'SHA-256' ? 'sha256' : 'md5')
      .update(s)
      .digest('hex');
  const cnonce = randomBytes(8).toString('hex');
  const nc = '00000001';
  const ha1 = hash(`${user}:${realm}:${password}`);
  const ha2 = hash(`GET:${path}`);
  const qop = params.has('qop') ? 'auth' : null;
  const response = qop ? hash(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : hash(`${ha1}:${nonce}:${ha2}`);
  return [
    `Digest username="${user}"`,
    `realm="${realm}"`,
    `nonce="${nonce}"`,
    `uri="${path}"`,
    `algorithm=${algorithm}`,
    `response="${response}"`,
    ...(qop ? [`qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`] : []),
  ].join(', ');
}

/**
 * GET `url` and parse its JSON. Every failure is a CollectorError: refused network, unreachable, timeout,
 * redirect (never followed), 401, another status, HTML or other text that is not JSON.
 */
export async function getJson(url: URL, opts: HttpOptions): Promise<unknown> {
  const ip = await opts.guard.address(url.hostname);
  const path = `${url.pathname}${url.search}`;
  const headers: Record<string, string> = {};
  if (opts.auth?.scheme === 'basic')
    headers.authorization = `Basic ${Buffer.from(`${opts.auth.user}:${opts.auth.password}`).toString('base64')}`;
  let answer = await request(url, ip, headers, opts);
  if (answer.status === 401 && opts.auth?.scheme === 'digest') {
    const challenge = String(answer.headers['www-authenticate'] ?? '');
    const authorization = /^digest /i.test(challenge) ? digestAuthorization(challenge, path, opts.auth.user, opts.auth.password) : null;
    if (authorization) answer = await request(url, ip, { authorization }, opts);
  }
  if (answer.status >= 300 && answer.status < 400)
    throw new CollectorError('redirect', `the device answered a redirect (${answer.status}), which collectors never follow`);
  if (answer.status === 401 || answer.status === 403)
    throw new CollectorError('unauthorized', `the device refused the key or password (HTTP ${answer.status})`);
  if (answer.status !== 200) throw new CollectorError('httpStatus', `the device answered HTTP ${answer.status}`);
  try {
    return JSON.parse(answer.body) as unknown;
  } catch {
    const looksHtml = /^\s*</.test(answer.body);
    throw new CollectorError(
      'notJson',
      looksHtml ? 'the device answered a web page, not JSON' : 'the device answered something that is not JSON',
    );
  }
}
