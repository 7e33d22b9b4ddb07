import { once } from 'node:events';
import { createWriteStream, statSync } from 'node:fs';
import { BENCH_PARAMS, benchReadings } from '../telemetry-fixtures.js';

const MIN = 60_000;
const BATCH = 5000;

/**
 * `rows` 1-minute readings of the bench's ten parameters from `start`, in Phasewatch's CSV layout, written a
 * block at a time (never whole in memory); answers the file's size in bytes.
 */
export async function writeImportCsv(file: string, start: number, rows: number): Promise<number> {
  const out = createWriteStream(file);
  out.write(
    `time,${BENCH_PARAMS.map((p) => `${p} [${p.startsWith('v') ? 'V' : p.startsWith('i') ? 'A' : p.startsWith('p') && p !== 'pfave1' ? 'W' : p === 'frq1' ? 'Hz' : p.startsWith('e') ? 'kWh' : p === 'rssi' ? 'dBm' : ''}]`).join(',')}\r\n`,
  );
  for (let i = 0; i < rows; i += BATCH) {
    const block = benchReadings(start + i * MIN, Math.min(BATCH, rows - i), MIN);
    const text = block.map((r) => `${new Date(r.ts).toISOString()},${BENCH_PARAMS.map((p) => r.values[p]).join(',')}`).join('\r\n');
    if (!out.write(`${text}\r\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return statSync(file).size;
}
