import { buildApp } from './app.js';
import { loadConfig } from './config.js';

/** Listens, seeds the embedded default and shuts down gracefully on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const { app, ctx } = await buildApp(config);
  if (config.demo) {
    await ctx.accounts.ensureUser(config.demo.email, config.demo.password);
  }
  await app.listen({ port: config.port, host: config.host });
  const url = `http://${config.host}:${config.port}`;
  app.log.info({ database: ctx.storage.location }, 'storage');
  process.stdout.write(`\nPhasewatch ${config.appVersion} is running at ${url}\n`);
  if (config.demo) process.stdout.write(`Sign in with ${config.demo.email} / ${config.demo.password}\n\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
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
