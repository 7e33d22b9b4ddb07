import { setFlagsFromString } from 'node:v8';
import { startEmbeddedFleet, terminalProgress } from '@phasewatch/simulator';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

/**
 * How far V8 lets the old generation grow past what the last full collection kept, in percent. V8's own
 * choice grows it up to 4× when the process is busy: at 2,000 live meters on PostgreSQL the heap held
 * ~60 MB of live objects but grew to 200-290 MB of old space between collections (RSS 300-390 MB) while
 * thousands of requests and hub connections were in flight at once. A fixed factor keeps the garbage
 * between collections in proportion to what is live. Read by V8 at each collection, so setting it
 * here, before anything is allocated in earnest, applies to the whole run.
 */
const HEAP_GROWING_PERCENT = 50;

/**
 * Connections the kernel may hold for us before we accept them (capped by net.core.somaxconn). Node's
 * default of 511 overflowed when a fleet of 2,000 devices connected within the same second: the kernel
 * drops the SYNs that do not fit (TcpExtListenOverflows went up by 655 in one fleet bench run), and a
 * dropped SYN is sent again only after 1 s, then 3 s — the slowest first readings of the fleet bench.
 */
const LISTEN_BACKLOG = 8192;

/** Listens, seeds the embedded default and shuts down gracefully on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const config = loadConfig();
  const { app, ctx } = await buildApp(config);
  if (config.demo) {
    await ctx.accounts.ensureUser(config.demo.email, config.demo.password);
  }
  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  const url = `http://${config.host}:${config.port}`;
  app.log.info({ database: ctx.storage.location }, 'storage');
  process.stdout.write(`\nPhasewatch ${config.appVersion} is running at ${url}\n`);
  if (config.demo) process.stdout.write(`Sign in with ${config.demo.email} / ${config.demo.password}\n\n`);

  // The embedded default: the demo account's simulated fleet talks to us over HTTP like real devices
  // (loopback even when HOST is 0.0.0.0). First start backfills the history with progress in the terminal.
  const fleet =
    config.demo && config.simulate
      ? startEmbeddedFleet({
          baseUrl: `http://127.0.0.1:${config.port}`,
          email: config.demo.email,
          password: config.demo.password,
          dataDir: config.dataDir,
          historyDays: config.simulateHistoryDays,
          liveIntervalMs: 5000,
          onProgress: terminalProgress(process.stdout),
        })
      : null;
  // Failures are printed by terminalProgress; the server keeps serving without the fleet.
  fleet?.backfillDone.catch(() => {});

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await fleet?.stop();
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`Phasewatch failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
