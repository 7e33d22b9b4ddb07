import http from 'node:http';
import fc from 'fast-check';
import {
  arbitraryFor,
  type Dictionary,
  type GenerateOptions,
  type Json,
  type JsonSchema,
  malformed,
  strangeKey,
  strangeValue,
  withHints,
} from './schema-arbitrary.js';

/** One HTTP request as the fuzzer sends it. */
export interface FuzzRequest {
  method: string;
  /** Path and query, percent-encoded. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What kind of request this is (well-formed, malformed body, wrong content type, …): for the counts. */
  kind: string;
}

export interface FuzzAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** An answer, or how the connection failed before one arrived. */
export type FuzzOutcome = { answer: FuzzAnswer } | { dropped: string };

/** What the fuzzer knows of an operation: from the OpenAPI document, or nothing (routes left out of it). */
export interface Operation {
  method: string;
  /** Fastify's pattern (`/api/devices/:id`). */
  url: string;
  parameters: { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: JsonSchema }[];
  body?: JsonSchema;
}

/** Credentials the fixture holds, and how a request presents them. */
export interface Credentials {
  bearer: string;
  deviceKey: string;
}

/** Path segments no id parser should take, percent-encoded where a raw character could not travel. */
const STRANGE_SEGMENTS = [
  '0',
  '-1',
  '1e0',
  '0x10',
  '0b1',
  '+1',
  '0001',
  '1.5',
  '1%20',
  '%20',
  '%00',
  '%2F',
  '%25',
  '..',
  '%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
  'null',
  'undefined',
  '__proto__',
  '2147483648',
  '9'.repeat(40),
  '1'.repeat(120),
  '%F0%9F%98%80',
  '%E2%80%AE',
  '%C0%AF',
  '%FF',
];

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=latin1',
  'application/jsonx',
  '',
  'application/json, text/plain',
];

/** Bodies that are not JSON, or JSON that parsers choke on. */
const BROKEN_BODIES = [
  '',
  '{',
  '{"a":}',
  '{"a":1,}',
  '[1,2',
  'nul',
  'NaN',
  '{"n": NaN}',
  '{"n": Infinity}',
  '{"n": 1e999}',
  '"\\ud800"',
  '{"a":"\\u0000"}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  '\u0000',
  '\ufeff{}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
  `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
];

const encodeSegment = (s: string) => encodeURIComponent(s);

/**
 * Requests for one operation: well-formed ones (values the schemas accept, often dictionary words that
 * reach real objects) and malformed ones (a field of the wrong type, missing or extra, extreme numbers,
 * long and control-character strings, prototype keys, wrong content types, broken and oversized JSON,
 * strange path segments and query parameters, missing or wrong credentials).
 */
export function requestArbitrary(op: Operation, creds: Credentials, gen: GenerateOptions, bodyLimit: number): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const names = op.url.match(/:\w+|\*/g) ?? [];
  const paramArb = (name: string) => {
    const p = pathParams.find((x) => x.name === name.slice(1));
    const wellFormed = p?.schema
      ? withHints(p.name, arbitraryFor(p.schema, gen), gen).map(String)
      : fc.constantFrom(...gen.dictionary.strings, 'index.html');
    return wellFormed.map(encodeSegment);
  };
  const build = (segments: string[]) => {
    let i = 0;
    return op.url.replace(/:\w+|\*/g, () => segments[i++] ?? '1');
  };
  const goodPath = fc.tuple(...names.map(paramArb)).map(build);
  const strangePath = fc
    .tuple(...names.map(() => fc.oneof(fc.constantFrom(...STRANGE_SEGMENTS), fc.string({ maxLength: 30 }).map(encodeSegment))))
    .map(build);

  const queryValue = (p: Operation['parameters'][number]) =>
    withHints(p.name, p.schema ? arbitraryFor(p.schema, gen) : fc.string(), gen).map(String);
  const goodQuery = fc
    .tuple(
      ...queryParams.map((p) =>
        p.required
          ? queryValue(p).map((v) => [p.name, v])
          : fc.option(
              queryValue(p).map((v) => [p.name, v]),
              { nil: undefined },
            ),
      ),
    )
    .map((pairs) => pairs.filter((x): x is string[] => x !== undefined));
  const strangeQuery = goodQuery.chain((pairs) =>
    fc.oneof<fc.Arbitrary<string[][]>[]>(
      // A parameter given twice (Fastify hands the handler an array), an unknown one, a strange value.
      fc.constant(pairs.length ? [...pairs, pairs[0] as string[]] : [['x', '1']]),
      fc.tuple(strangeKey, fc.string()).map(([k, v]) => [...pairs, [k, v]]),
      pairs.length
        ? fc
            .tuple(fc.nat(pairs.length - 1), strangeValue)
            .map(([i, v]) => pairs.map((p, j) => (j === i ? [p[0] as string, JSON.stringify(v) ?? ''] : p)))
        : fc.constant([['__proto__', '1']]),
      fc.constant(pairs.slice(1)),
    ),
  );
  const qs = (pairs: readonly (readonly string[])[]) =>
    pairs.length ? `?${pairs.map(([k, v]) => `${encodeURIComponent(k ?? '')}=${encodeURIComponent(v ?? '')}`).join('&')}` : '';

  const authHeaders = fc.oneof<fc.WeightedArbitrary<Record<string, string>>[]>(
    { weight: 8, arbitrary: fc.constant({ authorization: `Bearer ${creds.bearer}`, 'x-device-key': creds.deviceKey }) },
    { weight: 1, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Record<string, string>>(
        { authorization: 'Bearer not.a.token' },
        { authorization: `Bearer ${creds.bearer}x` },
        { authorization: 'Basic dXNlcjpwYXNz' },
        { authorization: `Bearer ${'a'.repeat(4000)}` },
        { 'x-device-key': 'pwd_unknown' },
        { 'x-device-key': `${creds.deviceKey}x` },
      ),
    },
  );

  const hasBody = op.body !== undefined || ['POST', 'PUT', 'PATCH'].includes(op.method);
  const goodBody = op.body ? arbitraryFor(op.body, gen) : fc.constant<Json>({});
  const json = (v: Json) => ({ body: JSON.stringify(v) ?? 'null', contentType: 'application/json' });

  type Part = { kind: string; path: string; body?: string | Buffer; contentType?: string };
  const parts: (fc.Arbitrary<Part> | fc.WeightedArbitrary<Part>)[] = [
    fc.tuple(goodPath, goodQuery, goodBody).map(([p, q, b]) => ({ kind: 'well-formed', path: p + qs(q), ...(hasBody ? json(b) : {}) })),
    fc.tuple(goodPath, goodQuery, goodBody).map(([p, q, b]) => ({ kind: 'well-formed', path: p + qs(q), ...(hasBody ? json(b) : {}) })),
    fc.tuple(goodPath, strangeQuery, goodBody).map(([p, q, b]) => ({ kind: 'query', path: p + qs(q), ...(hasBody ? json(b) : {}) })),
  ];
  if (names.length) {
    parts.push(
      fc.tuple(strangePath, goodQuery, goodBody).map(([p, q, b]) => ({ kind: 'path', path: p + qs(q), ...(hasBody ? json(b) : {}) })),
    );
  }
  if (hasBody) {
    parts.push(
      fc
        .tuple(goodPath, goodQuery, goodBody.chain(malformed))
        .map(([p, q, b]) => ({ kind: 'malformed body', path: p + qs(q), ...json(b) })),
      fc
        .tuple(goodPath, goodQuery, goodBody.chain(malformed))
        .map(([p, q, b]) => ({ kind: 'malformed body', path: p + qs(q), ...json(b) })),
      fc
        .tuple(goodPath, goodQuery, fc.constantFrom(...BROKEN_BODIES))
        .map(([p, q, b]) => ({ kind: 'broken JSON', path: p + qs(q), body: b, contentType: 'application/json' })),
      fc
        .tuple(goodPath, goodBody, fc.constantFrom(...CONTENT_TYPES))
        .map(([p, b, ct]) => ({ kind: 'content type', path: p, body: JSON.stringify(b) ?? '', contentType: ct })),
      // Rare: past the ingest limit each is 20 MB.
      {
        weight: 1,
        arbitrary: fc.tuple(goodPath, fc.constantFrom(1, 2)).map(([p, n]) => ({
          kind: 'oversized',
          path: p,
          // Valid JSON just past the body limit (n = 2: a large array of a well-formed value's size class).
          body: n === 1 ? `{"a":"${'x'.repeat(bodyLimit)}"}` : `[${'1,'.repeat(Math.ceil(bodyLimit / 2))}1]`,
          contentType: 'application/json',
        })),
      },
    );
  } else {
    parts.push(
      fc
        .tuple(goodPath, fc.constantFrom(...BROKEN_BODIES))
        .map(([p, b]) => ({ kind: 'unexpected body', path: p, body: b, contentType: 'application/json' })),
    );
  }
  const weighted = parts.map((p) => ('arbitrary' in p ? p : { weight: 8, arbitrary: p }));
  return fc.tuple(fc.oneof(...weighted), authHeaders).map(([part, auth]) => ({
    method: op.method,
    path: part.path,
    headers: { ...auth, ...(part.contentType !== undefined && part.contentType !== '' ? { 'content-type': part.contentType } : {}) },
    ...(part.body !== undefined ? { body: part.body } : {}),
    kind: part.kind,
  }));
}

/** Sends a request over a fresh connection; an answer, or how the connection failed before one came. */
export function send(port: number, req: FuzzRequest, timeoutMs = 15_000): Promise<FuzzOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: FuzzOutcome) => {
      if (!settled) {
        settled = true;
        resolve(o);
      }
    };
    const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
    let answered = false;
    const r = http.request(
      {
        host: '127.0.0.1',
        port,
        method: req.method,
        path: req.path,
        headers: { ...req.headers, connection: 'close', ...(body ? { 'content-length': String(body.length) } : {}) },
        agent: false,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () =>
          done({
            answer: {
              status: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              body: Buffer.concat(chunks).toString('utf8'),
            },
          });
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= 2_000_000) chunks.push(c);
        });
        res.on('end', finish);
        // The server may close the socket right after a complete answer to a body it refused (413).
        res.on('close', finish);
      },
    );
    r.setTimeout(timeoutMs, () => {
      r.destroy(new Error(`no answer in ${timeoutMs} ms`));
    });
    // Writing the rest of a refused body fails once the server closed: not a drop if the answer came.
    r.on('error', (err: NodeJS.ErrnoException) => {
      if (!answered) done({ dropped: err.code ?? err.message });
    });
    if (body) r.write(body);
    r.end();
  });
}

export type { Dictionary, GenerateOptions, JsonSchema };
