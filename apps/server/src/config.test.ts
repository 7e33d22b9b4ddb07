import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from './config.js';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Every non-test TypeScript file of the server's sources. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test' ? [] : sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** The variables the server reads: `env.NAME` (loadConfig's argument) and `process.env.NAME`. */
function variablesRead(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(path.join(repoRoot, 'apps/server/src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\benv\.([A-Z][A-Z0-9_]+)\b/g)) names.add(m[1] as string);
  }
  return names;
}

/** The variables the README's configuration table names (first column, one or more `NAME`s). */
function variablesDocumented(): Set<string> {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const section = readme.split('## Configuration')[1]?.split('\n## ')[0] ?? '';
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    const first = line.startsWith('| `') ? line.split('|')[1] : undefined;
    for (const m of first?.matchAll(/`([A-Z][A-Z0-9_]+)`/g) ?? []) names.add(m[1] as string);
  }
  return names;
}

describe('configuration', () => {
  it('documents in the README every environment variable the server reads, and only those', () => {
    const read = variablesRead();
    const documented = variablesDocumented();
    // Sanity: both sides were found (a renamed heading would make the comparison vacuous).
    expect(read.size).toBeGreaterThan(20);
    expect(documented.has('DATABASE_URL')).toBe(true);
    expect([...read].filter((v) => !documented.has(v)).sort(), 'read by the server, missing from the README').toEqual([]);
    expect([...documented].filter((v) => !read.has(v)).sort(), 'in the README, read nowhere').toEqual([]);
  });

  it('subscribes MQTT readings in the share group phasewatch unless told otherwise; an empty group is a plain subscription', () => {
    const base = { DATA_DIR: '/tmp/pw-config-test', JWT_SECRET: 'x' };
    expect(loadConfig(base).mqttShareGroup).toBe('phasewatch');
    expect(loadConfig({ ...base, MQTT_SHARE_GROUP: '' }).mqttShareGroup).toBe('');
    expect(loadConfig({ ...base, MQTT_SHARE_GROUP: 'site-a' }).mqttShareGroup).toBe('site-a');
    expect(() => loadConfig({ ...base, MQTT_SHARE_GROUP: 'a/b' })).toThrow(/MQTT_SHARE_GROUP/);
    expect(() => loadConfig({ ...base, MQTT_SHARE_GROUP: '#' })).toThrow(/MQTT_SHARE_GROUP/);
  });

  it('Fox discovery: the broadcast on loopback only, off on any other address unless COLLECTOR_DISCOVERY_ADDRESS says where', () => {
    const base = { DATA_DIR: '/tmp/pw-config-test', JWT_SECRET: 'x' };
    expect(loadConfig(base).collectorDiscovery).toEqual({ host: '255.255.255.255', port: 1918 });
    expect(loadConfig({ ...base, HOST: '::1' }).collectorDiscovery).toEqual({ host: '255.255.255.255', port: 1918 });
    expect(loadConfig({ ...base, HOST: '0.0.0.0' }).collectorDiscovery).toBeNull();
    expect(loadConfig({ ...base, HOST: '192.168.1.10' }).collectorDiscovery).toBeNull();
    expect(loadConfig({ ...base, HOST: '0.0.0.0', COLLECTOR_DISCOVERY_ADDRESS: '192.168.1.255' }).collectorDiscovery).toEqual({
      host: '192.168.1.255',
      port: 1918,
    });
    expect(loadConfig({ ...base, COLLECTOR_DISCOVERY_ADDRESS: '127.0.0.1:9' }).collectorDiscovery).toEqual({ host: '127.0.0.1', port: 9 });
    expect(loadConfig(base).rateLimits.discovery).toEqual({ max: 6, windowMs: 60_000 });
  });

  it('refuses a malformed number with the variable named', () => {
    expect(() => loadConfig({ DATA_DIR: '/tmp/pw-config-test', JWT_SECRET: 'x', PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATA_DIR: '/tmp/pw-config-test', JWT_SECRET: 'x', ENERGY_JITTER_RATIO: '1.5' })).toThrow(
      /ENERGY_JITTER_RATIO/,
    );
  });

  it('leases a running job for 60 s unless JOB_LEASE_MS says otherwise; refuses one under a second, over a day or not a whole number', () => {
    const base = { DATA_DIR: '/tmp/pw-config-test', JWT_SECRET: 'x' };
    expect(loadConfig(base).jobLeaseMs).toBe(60_000);
    expect(loadConfig({ ...base, JOB_LEASE_MS: '' }).jobLeaseMs).toBe(60_000);
    expect(loadConfig({ ...base, JOB_LEASE_MS: '5000' }).jobLeaseMs).toBe(5000);
    expect(loadConfig({ ...base, JOB_LEASE_MS: '1000' }).jobLeaseMs).toBe(1000);
    expect(loadConfig({ ...base, JOB_LEASE_MS: '86400000' }).jobLeaseMs).toBe(86_400_000);
    for (const bad of ['999', '0', '-5000', '1.5e3', '2500.5', '86400001', ' 5000', 'soon'])
      expect(() => loadConfig({ ...base, JOB_LEASE_MS: bad }), bad).toThrow(
        /JOB_LEASE_MS must be a whole number of milliseconds from 1000 to 86400000, got/,
      );
  });

  it('generates the VAPID keys into DATA_DIR once (like the JWT secret), or takes both from the environment', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pw-vapid-'));
    try {
      const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x' });
      // Reading the configuration (as backup and restore do) writes no key file; the first use does.
      expect(readdirSync(dir)).toEqual([]);
      const first = config.vapid;
      expect(config.vapid).toBe(first);
      expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
      expect(Buffer.from(first.privateKey, 'base64url')).toHaveLength(32);
      expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x' }).vapid).toEqual(first);
      expect(statSync(path.join(dir, 'vapid-keys.json')).mode & 0o777).toBe(0o600);
      const env = { VAPID_PUBLIC_KEY: first.publicKey, VAPID_PRIVATE_KEY: first.privateKey, VAPID_SUBJECT: 'mailto:ops@example.com' };
      expect(loadConfig({ DATA_DIR: '/tmp/pw-config-test', JWT_SECRET: 'x', ...env }).vapid).toEqual({
        ...first,
        subject: 'mailto:ops@example.com',
      });
      expect(() => loadConfig({ DATA_DIR: '/tmp/pw-config-test', JWT_SECRET: 'x', VAPID_PUBLIC_KEY: first.publicKey })).toThrow(
        /VAPID_PRIVATE_KEY/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an SMTP_URL that is not smtp:// or smtps:// (without echoing its password)', () => {
    const smtpDir = mkdtempSync(path.join(os.tmpdir(), 'pw-smtp-'));
    onTestFinished(() => rmSync(smtpDir, { recursive: true, force: true }));
    expect(loadConfig({ DATA_DIR: smtpDir, JWT_SECRET: 'x', SMTP_URL: 'smtps://u:pw@mail.example.com' }).smtpUrl).toBe(
      'smtps://u:pw@mail.example.com',
    );
    expect(() => loadConfig({ DATA_DIR: smtpDir, JWT_SECRET: 'x', SMTP_URL: 'http://u:secret@mail.example.com' })).toThrow(
      /SMTP_URL must be/,
    );
    expect(() => loadConfig({ DATA_DIR: smtpDir, JWT_SECRET: 'x', SMTP_URL: 'http://u:secret@mail.example.com' })).not.toThrow(/secret/);
  });
});
