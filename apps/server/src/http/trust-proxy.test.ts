import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { buildTestApp } from '../test/app.js';

/** Unknown device keys from two clients behind one proxy: counted per client only when the proxy is trusted. */
async function codes(trustProxy: string[]): Promise<{ first: number[]; other: number; spoofed: number }> {
  const t = await buildTestApp('sqlite', { ingestKeyFailures: { max: 2, windowMs: 60_000 }, trustProxy });
  try {
    const ingest = (key: string, remoteAddress: string, forwardedFor?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/ingest',
        remoteAddress,
        headers: { 'x-device-key': key, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
        payload: { readings: [{ ts: new Date(Date.now() - 60_000).toISOString(), values: { vave1: 230 } }] },
      });
    const first: number[] = [];
    for (let i = 0; i < 3; i++) first.push((await ingest(`made-up-${i}`, '127.0.0.1', '203.0.113.1')).statusCode);
    const other = (await ingest('made-up-x', '127.0.0.1', '203.0.113.2')).statusCode;
    // A client that is not the proxy cannot choose its address by sending the header itself.
    for (let i = 0; i < 2; i++) await ingest(`made-up-s${i}`, '198.51.100.7', '203.0.113.50');
    const spoofed = (await ingest('made-up-s2', '198.51.100.7', '203.0.113.51')).statusCode;
    return { first, other, spoofed };
  } finally {
    await t.close();
  }
}

describe('TRUST_PROXY', () => {
  it('counts clients behind a trusted proxy by X-Forwarded-For, and ignores the header from anyone else', async () => {
    expect(await codes(['127.0.0.1'])).toEqual({ first: [401, 401, 429], other: 401, spoofed: 429 });
  });

  it('without it, everyone behind the proxy is the proxy: one count for all', async () => {
    expect(await codes([])).toEqual({ first: [401, 401, 429], other: 429, spoofed: 429 });
  });

  it('is read as a list of addresses and CIDRs, and refuses anything else', () => {
    const base = { DATA_DIR: '/tmp/pw-config-test', JWT_SECRET: 'x' };
    expect(loadConfig(base).trustProxy).toEqual([]);
    expect(loadConfig({ ...base, TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
  });
});
