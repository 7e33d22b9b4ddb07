import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, type TestApp } from '../test/app.js';
import { API_TAGS, DOCS_PATH, OPENAPI_PATH, PUBLIC_ROUTES, type RouteInfo, tagOf } from './openapi.js';

/** Methods whose requests carry a body the route must describe. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * What a route's schema lacks: answers (a 2xx schema), path parameters when the URL has any, a body
 * when the method carries one (or `consumes: multipart/form-data`). Swagger UI's own files are the only routes without.
 */
export function schemaProblems(routes: readonly RouteInfo[]): string[] {
  const problems: string[] = [];
  for (const r of routes) {
    if (r.url === DOCS_PATH || r.url.startsWith(`${DOCS_PATH}/`)) continue;
    const name = `${r.method} ${r.url}`;
    const s = r.schema;
    const codes = Object.keys((s?.response as Record<string, unknown> | undefined) ?? {});
    if (!codes.some((c) => /^2(\d\d|XX)$/.test(c))) problems.push(`${name}: no schema for its answer`);
    if (r.url.includes(':') && !s?.params) problems.push(`${name}: no schema for its path parameters`);
    // A multipart form (history import) is read part by part as it streams: its route says `consumes` and
    // describes the parts in words; a JSON schema of the body would be checked against no parsed body.
    const multipart = (s?.consumes as string[] | undefined)?.includes('multipart/form-data');
    if (BODY_METHODS.has(r.method) && !s?.body && !multipart) problems.push(`${name}: no schema for its body`);
  }
  return problems;
}

const openApiDocument = z.object({
  openapi: z.literal('3.1.0'),
  paths: z.record(
    z.string(),
    z.record(
      z.string(),
      z.object({ responses: z.record(z.string(), z.unknown()), security: z.array(z.record(z.string(), z.array(z.string()))) }),
    ),
  ),
  components: z.object({ securitySchemes: z.record(z.string(), z.unknown()), schemas: z.object({ ApiErrorResponse: z.unknown() }) }),
});

describe('the schema gate: every route declares its schemas', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  it('finds the app routes, each with schemas for its answers, path parameters and body', () => {
    const names = t.ctx.routes.map((r) => `${r.method} ${r.url}`);
    expect(names).toContain('POST /api/ingest');
    expect(names).toContain('GET /api/devices/:id/readings');
    expect(schemaProblems(t.ctx.routes)).toEqual([]);
  });

  it('would fail for a route without them', () => {
    expect(
      schemaProblems([
        { method: 'GET', url: '/api/things/:id', schema: undefined },
        { method: 'POST', url: '/api/things', schema: { response: { 200: z.object({}) } } },
        { method: 'GET', url: '/api/other', schema: { response: { 404: z.object({}) } } },
      ]),
    ).toEqual([
      'GET /api/things/:id: no schema for its answer',
      'GET /api/things/:id: no schema for its path parameters',
      'POST /api/things: no schema for its body',
      'GET /api/other: no schema for its answer',
    ]);
  });

  it('serves an OpenAPI 3.1 document with every documented route, its security and the error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(res.statusCode).toBe(200);
    const doc = openApiDocument.parse(res.json());
    for (const r of t.ctx.routes) {
      if (r.schema?.hide) continue;
      const op = doc.paths[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.url}`).toBeDefined();
      expect(Object.keys(op?.responses ?? {})).toContain('4XX');
    }
    // Only the metrics route and Swagger UI's files are left out of the document.
    const documented = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(documented).toBe(t.ctx.routes.filter((r) => !r.schema?.hide).length);
    expect(doc.paths['/api/devices/{id}']?.get?.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/api/ingest']?.post?.security).toEqual([{ deviceKey: [] }]);
    expect(doc.paths['/api/account/login']?.post?.security).toEqual([]);
  });

  it('groups the routes by tag for /api/docs: each operation in one group of API_TAGS, the groups listed in order', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: OPENAPI_PATH })).json() as {
      tags: { name: string }[];
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    expect(doc.tags.map((x) => x.name)).toEqual(API_TAGS.map((x) => x.name));
    const used = new Set<string>();
    for (const [p, ops] of Object.entries(doc.paths))
      for (const [m, op] of Object.entries(ops)) {
        expect(op.tags?.length, `${m} ${p}`).toBe(1);
        used.add(op.tags?.[0] as string);
      }
    expect(doc.paths['/api/devices/{id}']?.get?.tags).toEqual(['Devices']);
    expect(doc.paths['/api/tariffs/advisor']?.get?.tags).toEqual(['Locations and tariffs']);
    expect(doc.paths['/api/account/login']?.post?.tags).toEqual(['Account']);
    expect(doc.paths['/api/push/subscriptions']?.post?.tags).toEqual(['Notifications']);
    // Every group has routes; "Operations" holds only what no other group names (health).
    for (const tag of API_TAGS) expect(used.has(tag.name), tag.name).toBe(true);
    expect(tagOf('/api/health')).toBe('Operations');
  });

  it('tells the truth about security: a bearer route answers 401 without a token, the others do not ask for one', async () => {
    for (const r of t.ctx.routes) {
      if (r.url.startsWith(DOCS_PATH) || r.url.includes('*')) continue;
      const key = `${r.method} ${r.url}`;
      const url = r.url.replace(/:\w+/g, '1');
      const res = await t.app.inject({ method: r.method as 'GET', url, ...(BODY_METHODS.has(r.method) ? { payload: {} } : {}) });
      const refused = res.statusCode === 401;
      // Public routes may refuse other credentials (refreshtoken without its cookie), never a missing bearer token.
      if (PUBLIC_ROUTES.has(key)) expect(refused && res.body.includes('bearer token'), key).toBe(false);
      else expect(refused, `${key} answered ${res.statusCode} without credentials`).toBe(true);
    }
  });

  it("serves the reference page under the app's Content-Security-Policy, from its own files", async () => {
    const page = await t.app.inject({ method: 'GET', url: `${DOCS_PATH}/` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    const html = page.body;
    // No inline scripts (the policy would block them) and nothing from another origin.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/(src|href)="https?:/);
    for (const src of [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string)) {
      const url = new URL(src, `http://localhost${DOCS_PATH}/`).pathname;
      const asset = await t.app.inject({ method: 'GET', url });
      expect(asset.statusCode, url).toBe(200);
    }
    const init = await t.app.inject({ method: 'GET', url: `${DOCS_PATH}/static/swagger-initializer.js` });
    expect(init.body).toContain('validatorUrl');
  });
});
