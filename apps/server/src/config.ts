import { createECDH, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { DEFAULT_APP_VERSION } from '@phasewatch/shared';
import { DEFAULT_COLLECTOR_NETWORKS, parseNetworks } from './collectors/network-guard.js';
import type { RateLimits } from './http/rate-limits.js';

export interface AppConfig {
  port: number;
  host: string;
  /** Folder for the SQLite file, generated secrets and exports. */
  dataDir: string;
  /** `postgres://…` selects PostgreSQL; empty means the embedded SQLite file in dataDir. */
  databaseUrl: string;
  appVersion: string;
  logLevel: string;
  /** Secret for signing access tokens; generated into dataDir when not given. */
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /**
   * Addresses (IPs or CIDRs) of the reverse proxies whose `X-Forwarded-For` is believed (`TRUST_PROXY`); empty:
   * none, the socket's address is the client's. Rate limits and sign-in throttles count per client address.
   */
  trustProxy: string[];
  /** Allowed CORS origin(s); none means no CORS headers at all. */
  corsOrigins: string[];
  bodyLimitBytes: number;
  /** Secure flag of the refresh cookie; on by default unless the app listens on loopback. */
  cookieSecure: boolean;
  /** Demo account seeded at start (embedded default); null disables it. */
  demo: { email: string; password: string } | null;
  /** Start the live simulated fleet and its backfill with the demo account. */
  simulate: boolean;
  /** Days of simulated history the demo account gets on first start. */
  simulateHistoryDays: number;
  mqttUrl: string;
  /**
   * MQTT shared-subscription group (`MQTT_SHARE_GROUP`, default `phasewatch`): the readings topic is subscribed
   * as `$share/<group>/phasewatch/+/readings`, so each message goes to one instance of the group; empty: a plain
   * subscription (a broker without shared subscriptions, and one instance only).
   */
  mqttShareGroup: string;
  /**
   * Days raw readings are kept (`RAW_RETENTION_DAYS`, default 400: a year of history plus a month);
   * rollups are kept forever. Readings older than this are refused at ingest.
   */
  rawRetentionDays: number;
  /** Where the built web app lives; served with history-API fallback when present. */
  webDistDir: string;
  /** Failed logins allowed per email and address in the window before 429. */
  loginMaxFailures: number;
  loginFailureWindowMs: number;
  /** Public base URL used in mails (password reset links). */
  publicUrl: string;
  /** Where `npm run backup` writes dated copies of the SQLite database (`BACKUP_DIR`, default DATA_DIR/backups). */
  backupDir: string;
  /** Bearer token that opens `/metrics` (Prometheus text); empty: metrics are off. */
  metricsToken: string;
  /** Requests allowed per key and window (`RATE_LIMIT_*`; 0 turns a limit off). */
  rateLimits: RateLimits;
  /** Realtime hub invocations allowed per user and window (`RATE_LIMIT_HUB`; 0 turns it off). */
  hubRateLimit: { max: number; windowMs: number };
  /** Unknown device keys allowed per address and window on HTTP ingest (`RATE_LIMIT_INGEST_KEY_FAILURES`; 0 off). */
  ingestKeyFailures: { max: number; windowMs: number };
  /**
   * Energy rules (packages/shared/src/energy/counter.ts): a counter reading below this share of the one
   * before it is a reset, at or above it a drop is noise (`ENERGY_JITTER_RATIO`, default 0.9).
   */
  energyJitterRatio: number;
  /** A step between counter readings longer than this marks its buckets estimated (`ENERGY_GAP_LIMIT_MINUTES`, default 15). */
  energyGapLimitMs: number;
  /** PostgreSQL connections per server instance (`PG_POOL_SIZE`, default 10). */
  pgPoolSize: number;
  /** `smtp://host:port` or `smtps://user:pass@host` (`SMTP_URL`): alarm and password-reset mails; empty: no mail. */
  smtpUrl: string;
  /** Sender of those mails (`MAIL_FROM`, default `Phasewatch <no-reply@host of PUBLIC_URL>`). */
  mailFrom: string;
  /** Web Push (VAPID) keys, base64url: from `VAPID_PUBLIC_KEY`/`VAPID_PRIVATE_KEY` or generated into dataDir. */
  vapid: { publicKey: string; privateKey: string; subject: string };
  /**
   * Accept push endpoints on loopback, private and link-local addresses (`PUSH_ALLOW_PRIVATE_ENDPOINTS=1`).
   * For tests only: such endpoints let a user make the server send requests into its own network.
   */
  pushAllowPrivateEndpoints: boolean;
  /** Background jobs (exports) this instance runs at once (`JOB_CONCURRENCY`, default 1; 0: none). */
  jobConcurrency: number;
  /**
   * Unfinished jobs of a queue on all instances past which a start answers 503 (`JOB_QUEUE_LIMIT`, default 16);
   * one user may have a quarter of them.
   */
  jobQueueLimit: number;
  /** A job thread's heap limit in MB (`JOB_WORKER_MEMORY_MB`, default 512): past it the job fails and the thread is replaced. */
  jobWorkerMemoryMb: number;
  /**
   * How long a running job's claim holds without its instance's heartbeat (`JOB_LEASE_MS`, default 60000,
   * 1000 to 86400000): a job of an instance that died is taken over by another one this long after its last
   * heartbeat (sent every third of it).
   */
  jobLeaseMs: number;
  /** Whether this instance reads collected devices (`COLLECTORS`, default on; off on all but one of several instances). */
  collectors: boolean;
  /** Networks collectors may connect to (`COLLECTOR_NETWORKS`, CIDR list; default loopback and the private ranges). */
  collectorNetworks: string[];
  /**
   * Where the Fox UDP discovery request goes (`COLLECTOR_DISCOVERY_ADDRESS`); without it, the broadcast
   * 255.255.255.255:1918 when the server listens on loopback (a home computer), else null: discovery is off
   * (a server others sign in to must not let them send packets into its network).
   */
  collectorDiscovery: { host: string; port: number } | null;
  /** Largest CSV file an import takes, bytes after decompression (`IMPORT_MAX_BYTES`, default 512 MiB). */
  importMaxBytes: number;
  /** Most data rows an import reads (`IMPORT_MAX_ROWS`, default 2,000,000: ~4 years of 1-minute rows). */
  importMaxRows: number;
  /** Home Assistant MQTT discovery (`HA_DISCOVERY=on`, default off) and its broker (`HA_MQTT_URL`, default MQTT_URL). */
  haDiscovery: boolean;
  haMqttUrl: string;
  /**
   * The daily RCE import from PSE for locations settled with hourly RCE (`RCE_IMPORT`, default on; `off`
   * disables it: tests, and servers that must not reach the internet) and where from (`RCE_SOURCE_URL`,
   * default PSE's public API).
   */
  rceImport: boolean;
  rceSourceUrl: string;
}

function hostPort(value: string | undefined, fallback: { host: string; port: number }, name: string): { host: string; port: number } {
  if (value === undefined || value === '') return fallback;
  const m = /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(value.trim());
  const port = m?.[2] === undefined ? fallback.port : Number(m[2]);
  if (!m || port < 1 || port > 65535) throw new Error(`${name} must be an IPv4 address with an optional port, got "${value}"`);
  return { host: m[1] as string, port };
}

function httpUrl(value: string | undefined, fallback: string, name: string): string {
  if (value === undefined || value === '') return fallback;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new Error(`${name} must be an http(s) URL, got "${value}"`);
  return value;
}

function ratio(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n >= 1) throw new Error(`${name} must be a number between 0 and 1 (exclusive), got "${value}"`);
  return n;
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/**
 * `JOB_LEASE_MS`: whole milliseconds from a second (a shorter lease would be lost between heartbeats) to a day
 * (the heartbeat's timer takes at most ~24.8 days).
 */
function leaseMs(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 1000 && n <= 86_400_000))
    throw new Error(`${name} must be a whole number of milliseconds from 1000 to 86400000, got "${value}"`);
  return n;
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

/** `TRUST_PROXY`: a comma-separated list of IPv4/IPv6 addresses or CIDRs, each checked (a typo must not trust everyone). */
function proxies(value: string | undefined): string[] {
  const list = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of list) {
    const [addr, bits, extra] = item.split('/');
    const family = isIP(addr ?? '');
    const max = family === 4 ? 32 : 128;
    if (!family || extra !== undefined || (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= max)))
      throw new Error(`TRUST_PROXY must list IP addresses or CIDRs of your proxies, got "${item}"`);
  }
  return list;
}

/** An MQTT topic level: no wildcards, no separators (the broker refuses the subscription otherwise). */
function shareGroup(value: string | undefined): string {
  if (value === undefined) return 'phasewatch';
  const v = value.trim();
  if (/[/+#\s]/.test(v)) throw new Error(`MQTT_SHARE_GROUP must be one topic level without /, + or #, got "${value}"`);
  return v;
}

/** `SMTP_URL` checked at start: a typo should stop the server, not lose every mail later. */
function smtpUrl(value: string | undefined): string {
  if (!value) return '';
  if (!URL.canParse(value) || !['smtp:', 'smtps:'].includes(new URL(value).protocol))
    throw new Error(`SMTP_URL must be smtp://host:port or smtps://user:pass@host, got "${value.replace(/\/\/[^@/]*@/, '//…@')}"`);
  return value;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** Reads the secret from dataDir, creating it (mode 0600) on first start. */
function persistedSecret(dataDir: string, file: string): string {
  const p = path.join(dataDir, file);
  try {
    return readFileSync(p, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(p, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

/** Base64url without padding of raw bytes. */
const b64url = (b: Buffer) => b.toString('base64url');

/**
 * VAPID keys (P-256: the uncompressed public point and the private scalar, base64url) from the
 * environment, which every instance of a deployment must share, or generated into dataDir on first start
 * (mode 0600) like the JWT secret: a browser's subscription belongs to the public key it was made with.
 */
function vapidKeys(env: NodeJS.ProcessEnv, dataDir: string): { publicKey: string; privateKey: string } {
  const pub = env.VAPID_PUBLIC_KEY ?? '';
  const priv = env.VAPID_PRIVATE_KEY ?? '';
  if (pub || priv) {
    if (Buffer.from(pub, 'base64url').length !== 65 || Buffer.from(priv, 'base64url').length !== 32)
      throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must both be set: a 65-byte and a 32-byte P-256 key in base64url');
    return { publicKey: pub, privateKey: priv };
  }
  const p = path.join(dataDir, 'vapid-keys.json');
  try {
    const stored = JSON.parse(readFileSync(p, 'utf8')) as { publicKey: string; privateKey: string };
    if (typeof stored.publicKey === 'string' && typeof stored.privateKey === 'string') return stored;
  } catch {
    // first start (or an unreadable file, which the write below refuses to replace)
  }
  mkdirSync(dataDir, { recursive: true });
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  // The private scalar is 32 bytes; Node drops its leading zero bytes.
  const priv32 = Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()]).subarray(-32);
  const keys = { publicKey: b64url(ecdh.getPublicKey()), privateKey: b64url(priv32) };
  writeFileSync(p, `${JSON.stringify(keys)}\n`, { mode: 0o600, flag: 'wx' });
  return keys;
}

/** Configuration from environment variables, each with a default that runs the embedded app. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = path.resolve(env.DATA_DIR || path.join(repoRoot, 'data'));
  const host = env.HOST || '127.0.0.1';
  const port = int(env.PORT, 8080, 'PORT');
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(host);
  // A demo sign-in with a published password must not appear on a reachable server by accident:
  // off by default beyond loopback, unless DEMO_ACCOUNT=on says so.
  const demoDisabled = env.DEMO_ACCOUNT ? !bool(env.DEMO_ACCOUNT, true) : !loopback;
  const publicUrl = env.PUBLIC_URL || `http://${host}:${port}`;
  const collectorNetworks = env.COLLECTOR_NETWORKS
    ? env.COLLECTOR_NETWORKS.split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : DEFAULT_COLLECTOR_NETWORKS;
  // A typo in the allow-list stops the start instead of silently allowing less (or nothing).
  parseNetworks(collectorNetworks);
  // Keys from the environment are checked now; generated keys are written on first use (a server that
  // sends push), not by every tool that reads the configuration (backup, restore, migrations).
  const vapidFromEnv = env.VAPID_PUBLIC_KEY || env.VAPID_PRIVATE_KEY ? vapidKeys(env, dataDir) : null;
  const vapidSubject = env.VAPID_SUBJECT || 'mailto:no-reply@phasewatch.invalid';
  let vapid: AppConfig['vapid'] | undefined;
  return {
    port,
    host,
    dataDir,
    databaseUrl: env.DATABASE_URL || '',
    appVersion: env.APP_VERSION || DEFAULT_APP_VERSION,
    logLevel: env.LOG_LEVEL || 'info',
    jwtSecret: env.JWT_SECRET || persistedSecret(dataDir, 'jwt-secret'),
    accessTokenTtlSeconds: int(env.ACCESS_TOKEN_TTL, 15 * 60, 'ACCESS_TOKEN_TTL'),
    refreshTokenTtlSeconds: int(env.REFRESH_TOKEN_TTL, 30 * 24 * 3600, 'REFRESH_TOKEN_TTL'),
    trustProxy: proxies(env.TRUST_PROXY),
    corsOrigins: (env.CORS_ORIGINS || '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    bodyLimitBytes: int(env.BODY_LIMIT, 1024 * 1024, 'BODY_LIMIT'),
    cookieSecure: bool(env.COOKIE_SECURE, !loopback),
    demo: demoDisabled ? null : { email: env.DEMO_EMAIL || 'demo@phasewatch.dev', password: env.DEMO_PASSWORD || 'demo1234' },
    simulate: bool(env.SIMULATE, true),
    simulateHistoryDays: int(env.SIMULATE_HISTORY_DAYS, 365, 'SIMULATE_HISTORY_DAYS'),
    mqttUrl: env.MQTT_URL || '',
    mqttShareGroup: shareGroup(env.MQTT_SHARE_GROUP),
    rawRetentionDays: int(env.RAW_RETENTION_DAYS, 400, 'RAW_RETENTION_DAYS'),
    webDistDir: path.resolve(env.WEB_DIST_DIR || path.join(repoRoot, 'apps/web/dist')),
    loginMaxFailures: int(env.LOGIN_MAX_FAILURES, 10, 'LOGIN_MAX_FAILURES'),
    loginFailureWindowMs: int(env.LOGIN_FAILURE_WINDOW_MS, 15 * 60_000, 'LOGIN_FAILURE_WINDOW_MS'),
    publicUrl,
    metricsToken: env.METRICS_TOKEN || '',
    backupDir: path.resolve(env.BACKUP_DIR || path.join(dataDir, 'backups')),
    rateLimits: {
      ingest: { max: int(env.RATE_LIMIT_INGEST, 600, 'RATE_LIMIT_INGEST'), windowMs: 60_000 },
      reads: { max: int(env.RATE_LIMIT_READS, 600, 'RATE_LIMIT_READS'), windowMs: 60_000 },
      jobs: { max: int(env.RATE_LIMIT_JOBS, 30, 'RATE_LIMIT_JOBS'), windowMs: 3_600_000 },
      discovery: { max: int(env.RATE_LIMIT_DISCOVERY, 6, 'RATE_LIMIT_DISCOVERY'), windowMs: 60_000 },
    },
    hubRateLimit: { max: int(env.RATE_LIMIT_HUB, 1200, 'RATE_LIMIT_HUB'), windowMs: 60_000 },
    ingestKeyFailures: { max: int(env.RATE_LIMIT_INGEST_KEY_FAILURES, 30, 'RATE_LIMIT_INGEST_KEY_FAILURES'), windowMs: 60_000 },
    energyJitterRatio: ratio(env.ENERGY_JITTER_RATIO, 0.9, 'ENERGY_JITTER_RATIO'),
    energyGapLimitMs: int(env.ENERGY_GAP_LIMIT_MINUTES, 15, 'ENERGY_GAP_LIMIT_MINUTES') * 60_000,
    pgPoolSize: Math.max(1, int(env.PG_POOL_SIZE, 10, 'PG_POOL_SIZE')),
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: env.MAIL_FROM || `Phasewatch <no-reply@${hostOf(publicUrl)}>`,
    get vapid() {
      vapid ??= { ...(vapidFromEnv ?? vapidKeys(env, dataDir)), subject: vapidSubject };
      return vapid;
    },
    pushAllowPrivateEndpoints: bool(env.PUSH_ALLOW_PRIVATE_ENDPOINTS, false),
    jobConcurrency: int(env.JOB_CONCURRENCY, 1, 'JOB_CONCURRENCY'),
    jobQueueLimit: Math.max(1, int(env.JOB_QUEUE_LIMIT, 16, 'JOB_QUEUE_LIMIT')),
    jobWorkerMemoryMb: Math.max(16, int(env.JOB_WORKER_MEMORY_MB, 512, 'JOB_WORKER_MEMORY_MB')),
    jobLeaseMs: leaseMs(env.JOB_LEASE_MS, 60_000, 'JOB_LEASE_MS'),
    collectors: bool(env.COLLECTORS, true),
    collectorNetworks,
    collectorDiscovery:
      env.COLLECTOR_DISCOVERY_ADDRESS || loopback
        ? hostPort(env.COLLECTOR_DISCOVERY_ADDRESS, { host: '255.255.255.255', port: 1918 }, 'COLLECTOR_DISCOVERY_ADDRESS')
        : null,
    importMaxBytes: Math.max(1024, int(env.IMPORT_MAX_BYTES, 512 * 1024 * 1024, 'IMPORT_MAX_BYTES')),
    importMaxRows: Math.max(1, int(env.IMPORT_MAX_ROWS, 2_000_000, 'IMPORT_MAX_ROWS')),
    haDiscovery: bool(env.HA_DISCOVERY, false),
    haMqttUrl: env.HA_MQTT_URL || env.MQTT_URL || '',
    rceImport: bool(env.RCE_IMPORT, true),
    rceSourceUrl: httpUrl(env.RCE_SOURCE_URL, 'https://api.raporty.pse.pl/api/rce-pln', 'RCE_SOURCE_URL'),
  };
}
