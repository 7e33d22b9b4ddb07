import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startMosquitto } from '../scripts/testing/mosquitto.js';
import { startPgCluster } from '../scripts/testing/pg-cluster.js';

/** What every benchmark gets: the throw-away services and a printer for its figures. */
export interface BenchContext {
  /** Admin URL of a throw-away PostgreSQL cluster (create your own databases in it). */
  pgUrl: string;
  mqttUrl: string;
  /** Prints one figure line: name, value, unit, and an optional note (target, ratio). */
  report(name: string, value: number, unit: string, note?: string): void;
}

export type Bench = (ctx: BenchContext) => Promise<void>;

// Benches talk to this machine only: a server they start never broadcasts a Fox discovery into the network.
process.env.COLLECTOR_DISCOVERY_ADDRESS ??= '127.0.0.1:9';

const only = process.argv.slice(2);
const dir = import.meta.dirname;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const pg = await startPgCluster();
const broker = await startMosquitto();
let failed = false;
try {
  for (const f of files) {
    console.log(`\n=== ${f.replace('.bench.ts', '')} ===`);
    const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as { default: Bench };
    try {
      await mod.default({
        pgUrl: pg.url,
        mqttUrl: broker.url,
        report(name, value, unit, note) {
          const v = Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 2 : 1);
          console.log(`  ${name.padEnd(58)} ${v.padStart(12)} ${unit.padEnd(10)} ${note ?? ''}`);
        },
      });
    } catch (err) {
      failed = true;
      console.error(`  ✖ ${f} failed:`, err);
    }
  }
} finally {
  await broker.stop();
  pg.stop();
}
if (files.length === 0) console.log('no benchmarks matched');
process.exit(failed ? 1 : 0);
