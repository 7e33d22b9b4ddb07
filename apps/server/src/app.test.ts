import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { buildTestApp, type TestApp } from './test/app.js';
import { createTestStorage } from './test/storage.js';

describe('http behaviour', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = path.join(os.tmpdir(), `phasewatch-web-${process.pid}`);
    mkdirSync(path.join(webDir, 'assets'), { recursive: true });
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Phasewatch</title>');
    writeFileSync(path.join(webDir, 'assets', 'app.js'), 'console.log(1)');
    t = await buildTestApp('sqlite', { webDistDir: webDir, appVersion: '9.9.9', bodyLimitBytes: 2048 });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('health answers with the version header and security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', version: '9.9.9', database: 'sqlite' });
    expect(res.headers['x-app-version']).toBe('9.9.9');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends no CORS headers unless configured', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/health',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('unknown API routes answer a JSON 404 with the version header', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json().errors[0].message).toContain('/api/does-not-exist');
    expect(res.headers['x-app-version']).toBe('9.9.9');
    expect((await t.app.inject({ method: 'DELETE', url: '/api/account/login' })).statusCode).toBe(404);
  });

  it('serves the web app with history-API fallback', async () => {
    const deep = await t.app.inject({ method: 'GET', url: '/device-energy-details/42' });
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain('<title>Phasewatch</title>');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.body).toBe('console.log(1)');
  });

  it('answers 413 for an oversized body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(5000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().errors[0]).toMatchObject({ field: 'body' });
  });
});

describe('configuration', () => {
  it('has the documented defaults', () => {
    const dir = path.join(os.tmpdir(), `phasewatch-cfg-${process.pid}`);
    const c = loadConfig({ DATA_DIR: dir });
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: '',
      appVersion: '0.1.0',
      demo: { email: 'demo@phasewatch.dev', password: 'demo1234' },
    });
    rmSync(dir, { recursive: true, force: true });
  });

  it('generates the JWT secret once into DATA_DIR with mode 0600 and reuses it', () => {
    const dir = path.join(os.tmpdir(), `phasewatch-secret-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    const a = loadConfig({ DATA_DIR: dir });
    const file = path.join(dir, 'jwt-secret');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(a.jwtSecret);
    expect(a.jwtSecret.length).toBeGreaterThanOrEqual(40);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(a.jwtSecret);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: 'from-env' }).jwtSecret).toBe('from-env');
    rmSync(dir, { recursive: true, force: true });
  });

  it('rejects a malformed PORT and can disable the demo account', () => {
    expect(() => loadConfig({ DATA_DIR: os.tmpdir(), PORT: 'eighty', JWT_SECRET: 'x' })).toThrow(/PORT/);
    expect(loadConfig({ DATA_DIR: os.tmpdir(), DEMO_ACCOUNT: 'off', JWT_SECRET: 'x' }).demo).toBeNull();
    // Beyond loopback the demo account (published password) is off unless asked for.
    expect(loadConfig({ DATA_DIR: os.tmpdir(), HOST: '0.0.0.0', JWT_SECRET: 'x' }).demo).toBeNull();
    expect(loadConfig({ DATA_DIR: os.tmpdir(), HOST: '0.0.0.0', DEMO_ACCOUNT: 'on', JWT_SECRET: 'x' }).demo).not.toBeNull();
  });

  it('sends CORS headers for a configured origin only', async () => {
    const ts = await createTestStorage('sqlite');
    const { app } = await buildApp(
      {
        ...loadConfig({ DATA_DIR: ts.dataDir, JWT_SECRET: 'x'.repeat(40) }),
        corsOrigins: ['http://app.example'],
        webDistDir: '/nonexistent',
      },
      { storage: ts.storage, logger: false },
    );
    try {
      const ok = await app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'http://app.example' } });
      expect(ok.headers['access-control-allow-origin']).toBe('http://app.example');
      expect(ok.headers['access-control-allow-credentials']).toBe('true');
      const other = await app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'http://evil.example' } });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await app.close();
      await ts.dispose();
    }
  });
});
