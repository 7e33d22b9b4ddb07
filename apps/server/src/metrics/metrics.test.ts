import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HubConnectionBuilder } from '@microsoft/signalr';
import { HUB_PATH } from '@phasewatch/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../test/app.js';
import { DIALECTS } from '../test/storage.js';

const TOKEN = 'metrics-token-0123456789';

/** The value of a sample line `name{labels} value` of the exposition, or undefined. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe.each(DIALECTS)('metrics on %s', (dialect) => {
  let t: TestApp;
  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect, { metricsToken: TOKEN });
  });
  afterAll(async () => t?.close());

  it('refuses a missing or wrong token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().errors).toHaveLength(1);
  });

  it('reports requests by route and status, ingest, the writer, the hub, job queues and the event loop', async () => {
    const u = await signUp(t.app);
    const dev = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: u.auth,
      payload: { name: 'm', mac: '02:00:00:00:BB:01', typeCode: 13 },
    });
    const key = dev.json().ingestKey as string;
    const base = Date.now() - 3_600_000;
    const readings = Array.from({ length: 30 }, (_, i) => ({
      ts: new Date(base + i * 60_000).toISOString(),
      values: { vave1: 230, eai1: i },
    }));
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/ingest', headers: { 'x-device-key': key }, payload: { readings } });
      expect(res.statusCode).toBe(200);
    }
    await t.app.inject({ method: 'GET', url: '/api/devices/99999', headers: u.auth });
    await t.app.inject({ method: 'GET', url: '/no/such/route/1' });
    await t.app.inject({ method: 'GET', url: '/no/such/route/2' });

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    const hub = new HubConnectionBuilder()
      .withUrl(`http://127.0.0.1:${port}${HUB_PATH}`, { accessTokenFactory: () => u.token })
      .configureLogging({ log: () => {} })
      .build();
    await hub.start();
    try {
      const text = await scrape();
      expect(sample(text, 'phasewatch_http_requests_total', 'method="POST",route="/api/ingest",status="200"')).toBe(3);
      expect(sample(text, 'phasewatch_http_requests_total', 'method="GET",route="/api/devices/:id",status="404"')).toBe(1);
      // Unknown URLs share one label: a scanner cannot grow the series.
      expect(sample(text, 'phasewatch_http_requests_total', 'method="GET",route="unmatched",status="404"')).toBe(2);
      expect(sample(text, 'phasewatch_ingest_readings_total', 'source="http"')).toBe(90);
      expect(sample(text, 'phasewatch_ingest_batches_total', 'source="http"')).toBe(3);
      expect(sample(text, 'phasewatch_writer_commit_seconds_count')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'phasewatch_writer_committed_readings_total')).toBe(90);
      expect(sample(text, 'phasewatch_writer_queue_readings')).toBe(0);
      expect(sample(text, 'phasewatch_hub_connections')).toBe(1);
      expect(sample(text, 'phasewatch_hub_messages', 'direction="in"')).toBeGreaterThanOrEqual(1);
      expect(text).toContain('# TYPE phasewatch_job_queue_depth gauge');
      expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'phasewatch_cache_entries', 'cache="zone_formatters"')).toBeGreaterThanOrEqual(0);
    } finally {
      await hub.stop();
    }
  });
});

describe('metrics off', () => {
  it('has no /metrics route without METRICS_TOKEN', async () => {
    const t = await buildTestApp('sqlite');
    try {
      expect(t.config.metricsToken).toBe('');
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
      expect(t.ctx.routes.some((r) => r.url === '/metrics')).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('answers 404 at /metrics with the web app served too (not the app page of the history-API fallback)', async () => {
    const webDir = mkdtempSync(path.join(os.tmpdir(), 'phasewatch-web-'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Phasewatch</title>');
    const t = await buildTestApp('sqlite', { webDistDir: webDir });
    try {
      for (const url of ['/metrics', '/metrics?x=1']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${TOKEN}` } });
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type'], url).toMatch(/^application\/json/);
        expect(res.json().statusCode).toBe(404);
      }
      // The fallback still serves the app's routes.
      expect((await t.app.inject({ method: 'GET', url: '/dashboard' })).body).toContain('<title>Phasewatch</title>');
    } finally {
      await t.close();
      rmSync(webDir, { recursive: true, force: true });
    }
  });
});
