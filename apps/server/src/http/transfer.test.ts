import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webCacheControl } from '../app.js';
import { buildTestApp, signUp, type TestApp } from '../test/app.js';

/** How answers travel: compressed when the client accepts it, cached as long as their names allow. */
describe('transfer: compression and caching', () => {
  let t: TestApp;
  let webDir: string;
  const js = `export function big(){return ${JSON.stringify('phasewatch '.repeat(3000))}}\n`;
  const html = `<!doctype html><html><head><title>Phasewatch</title><script type="module" src="/assets/index-AbC123.js"></script></head><body>${'<div></div>'.repeat(150)}</body></html>`;

  beforeAll(async () => {
    webDir = path.join(os.tmpdir(), `phasewatch-transfer-${process.pid}`);
    mkdirSync(path.join(webDir, 'assets'), { recursive: true });
    // As the build leaves them: each text file with its .br and .gz copies.
    for (const [file, body] of [
      ['assets/index-AbC123.js', js],
      ['index.html', html],
    ] as const) {
      const p = path.join(webDir, file);
      writeFileSync(p, body);
      writeFileSync(`${p}.br`, zlib.brotliCompressSync(body));
      writeFileSync(`${p}.gz`, zlib.gzipSync(body));
    }
    writeFileSync(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await buildTestApp('sqlite', { webDistDir: webDir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('sends the built files precompressed (brotli, else gzip, else as they are), varying on Accept-Encoding', async () => {
    const br = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(js);
    expect(br.rawPayload.length).toBeLessThan(js.length / 10);

    const gz = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(js);

    const plain = await get('/assets/index-AbC123.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(js);
  });

  it('caches hashed assets as immutable and revalidates index.html, also as the history-API fallback', async () => {
    const asset = await get('/assets/index-AbC123.js', { 'accept-encoding': 'br' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    for (const url of ['/dashboard', '/device-energy-details/7', '/index.html']) {
      const page = await get(url, { 'accept-encoding': 'br' });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(page.headers['content-encoding'], url).toBe('br');
      expect(zlib.brotliDecompressSync(page.rawPayload).toString(), url).toBe(html);
      const etag = String(page.headers.etag ?? '');
      expect(etag, url).not.toBe('');
      // Revalidation costs a 304 without a body while the page is unchanged.
      const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': etag });
      expect(again.statusCode, url).toBe(304);
      expect(again.rawPayload.length, url).toBe(0);
    }
    expect((await get('/favicon.svg')).headers['cache-control']).toBe('public, max-age=3600');
  });

  it('sends the compressed copies only in place of their file, never as files of their own', async () => {
    for (const url of ['/index.html.br', '/index.html.gz', '/assets/index-AbC123.js.br', '/assets/index-AbC123.js.gz']) {
      const res = await get(url, { 'accept-encoding': 'br, gzip' });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/application\/json/);
      expect(res.json(), url).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
  });

  it('answers /favicon.ico with the way to the icon, and other file names with 404, not the index page', async () => {
    const ico = await get('/favicon.ico');
    expect(ico.statusCode).toBe(301);
    expect(ico.headers.location).toBe('/favicon.svg');
    const svg = await get('/favicon.svg');
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toMatch(/image\/svg\+xml/);
    for (const url of ['/robots.txt', '/apple-touch-icon.png', '/dashboard/x.php']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('<html');
    }
    // Pages of the app still get the index page.
    expect((await get('/reset-password?token=a.b')).statusCode).toBe(200);
  });

  it('answers 404 for a missing file of the build instead of the index page', async () => {
    for (const url of ['/assets/index-Old999.js', '/assets/missing.css', '/assets/']) {
      const res = await get(url, { accept: '*/*' });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('<title>Phasewatch</title>');
    }
  });

  it('compresses API answers of 1 KB and more for clients that accept it, and leaves small ones alone', async () => {
    const user = await signUp(t.app);
    for (let i = 0; i < 8; i++) {
      const mac = `40:00:00:00:00:0${i}`;
      await t.app.inject({ method: 'POST', url: '/api/devices', headers: user.auth, payload: { name: `Meter ${i}`, mac, typeCode: 13 } });
    }
    const plain = await get('/api/devices', { ...user.auth, 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const list = plain.body;
    expect(list.length).toBeGreaterThan(1024);

    const br = await get('/api/devices', { ...user.auth, 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(JSON.parse(list));
    expect(br.rawPayload.length).toBeLessThan(list.length / 3);

    const gz = await get('/api/devices', { ...user.auth, 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toEqual(JSON.parse(list));

    const small = await get('/api/health', { 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().status).toBe('ok');
  });

  it('names the cache rule of each built file', () => {
    expect(webCacheControl('assets/index-AbC123.js.br')).toBe('public, max-age=31536000, immutable');
    expect(webCacheControl('index.html.gz')).toBe('no-cache');
    expect(webCacheControl('favicon.svg')).toBe('public, max-age=3600');
  });
});
