import { describe, expect, it } from 'vitest';
import { endpointProblem, guardedLookup, isBlockedAddress } from './push-endpoint.js';

/** A resolver stub: names resolve from this table only, so nothing is asked of any DNS server. */
const table: Record<string, string[]> = {
  'fcm.example.test': ['142.250.74.10', '2a00:1450:4001:82a::200a'],
  'inside.example.test': ['10.0.0.7'],
  'mixed.example.test': ['142.250.74.10', '192.168.0.4'],
  'v6-local.example.test': ['fd12:3456:789a::1'],
};
let asked: string[] = [];
const resolve = async (host: string) => {
  asked.push(host);
  const found = table[host];
  if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return found;
};

describe('push endpoint guard', () => {
  it('knows the loopback, private, link-local and other inward ranges, IPv4-mapped forms included', () => {
    for (const a of [
      '127.0.0.1',
      '10.2.3.4',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
    ])
      expect(isBlockedAddress(a), a).toBe(true);
    for (const a of ['::1', '::', 'fe80::1', 'fd00::1', 'fc00::5', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a00:1', '[::1]'])
      expect(isBlockedAddress(a), a).toBe(true);
    for (const a of ['142.250.74.10', '172.32.0.1', '8.8.8.8', '2a00:1450:4001:82a::200a', '::ffff:8.8.8.8'])
      expect(isBlockedAddress(a), a).toBe(false);
    expect(isBlockedAddress('not an address')).toBe(true);
  });

  it('accepts https endpoints whose host resolves to public addresses only', async () => {
    asked = [];
    expect(await endpointProblem('https://fcm.example.test/send/abc', resolve, false)).toBeNull();
    expect(await endpointProblem('https://142.250.74.10/x', resolve, false)).toBeNull();
    expect(asked).toEqual(['fcm.example.test']);
  });

  it('refuses other schemes, credentials, inward hosts and names that do not resolve', async () => {
    expect(await endpointProblem('http://fcm.example.test/x', resolve, false)).toBe('must be an https URL');
    expect(await endpointProblem('https://a:b@fcm.example.test/x', resolve, false)).toBe('must not carry credentials');
    expect(await endpointProblem('https://inside.example.test/x', resolve, false)).toMatch(/private/);
    // One inward address among public ones is enough to refuse (the socket may pick it).
    expect(await endpointProblem('https://mixed.example.test/x', resolve, false)).toMatch(/private/);
    expect(await endpointProblem('https://v6-local.example.test/x', resolve, false)).toMatch(/private/);
    expect(await endpointProblem('https://[::1]:8443/x', resolve, false)).toMatch(/loopback/);
    expect(await endpointProblem('https://localhost.invalid/x', resolve, false)).toBe('host does not resolve');
  });

  it('lets everything https through with the tests-only switch, without resolving', async () => {
    asked = [];
    expect(await endpointProblem('https://127.0.0.1:8443/push', resolve, true)).toBeNull();
    expect(await endpointProblem('https://inside.example.test/x', resolve, true)).toBeNull();
    expect(await endpointProblem('http://127.0.0.1/x', resolve, true)).toBe('must be an https URL');
    expect(asked).toEqual([]);
  });

  it('refuses an inward address again when the request connects (a name that changed its answer)', async () => {
    const lookup = guardedLookup(resolve, false);
    const ask = (host: string, all: boolean) =>
      new Promise<{ err: NodeJS.ErrnoException | null; result: unknown }>((done) =>
        lookup(host, { all }, (err, address) => done({ err, result: address })),
      );
    expect((await ask('inside.example.test', false)).err?.code).toBe('EBLOCKED');
    expect((await ask('mixed.example.test', true)).err?.code).toBe('EBLOCKED');
    const ok = await ask('fcm.example.test', true);
    expect(ok.err).toBeNull();
    expect(ok.result).toEqual([
      { address: '142.250.74.10', family: 4 },
      { address: '2a00:1450:4001:82a::200a', family: 6 },
    ]);
    expect((await ask('fcm.example.test', false)).result).toBe('142.250.74.10');
    expect((await ask('nowhere.example.test', false)).err).not.toBeNull();
  });
});
