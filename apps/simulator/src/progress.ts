import type { FleetEvent } from './fleet.js';

/** Start of the line printed when the simulated history is complete; benchmarks and scripts wait for it. */
export const HISTORY_READY_PREFIX = 'Simulated history ready:';

const fmt = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The one-line summary of a finished backfill, starting with `HISTORY_READY_PREFIX`. */
export function historyReadyLine(readings: number, elapsedMs: number, readingsPerSecond: number): string {
  return `${HISTORY_READY_PREFIX} ${fmt.format(readings)} readings in ${(elapsedMs / 1000).toFixed(1)} s (${fmt.format(readingsPerSecond)} readings/s)`;
}

/**
 * An `onProgress` handler that shows a fleet's start-up in a terminal: on a TTY one line redrawn in place
 * at most four times a second, otherwise a line per 10 %; then the `HISTORY_READY_PREFIX` line and any
 * errors.
 */
export function terminalProgress(out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout): (e: FleetEvent) => void {
  const tty = out.isTTY === true;
  let lastDraw = 0;
  let lastDecile = -1;
  let drawn = false;
  return (e) => {
    switch (e.type) {
      case 'setup':
        if (!e.resumed && e.historyDays > 0) {
          out.write(`Simulating ${e.devices} devices with ${e.historyDays} days of 1-minute history (first start)…\n`);
        }
        return;
      case 'backfill': {
        const p = e.progress;
        const pct = p.total > 0 ? Math.floor((p.done / p.total) * 100) : 100;
        const rate = p.readingsPerSecond;
        const left = rate > 0 && p.done > 0 ? ((p.total - p.done) * (p.sent / p.done)) / rate : 0;
        const text = `  simulated history ${String(pct).padStart(3)} %  ${fmt.format(p.sent)} readings, ${fmt.format(rate)}/s, ~${Math.ceil(left)} s left`;
        if (tty) {
          const t = performance.now();
          if (t - lastDraw < 250 && p.done < p.total) return;
          lastDraw = t;
          out.write(`\r${text}\u001b[K`);
          drawn = true;
        } else {
          const decile = Math.floor(pct / 10);
          if (decile === lastDecile) return;
          lastDecile = decile;
          out.write(`${text}\n`);
        }
        return;
      }
      case 'backfill-done':
        if (drawn) out.write('\n');
        drawn = false;
        if (e.summary.sent > 0) out.write(`${historyReadyLine(e.summary.sent, e.summary.elapsedMs, e.summary.readingsPerSecond)}\n`);
        else out.write(`${HISTORY_READY_PREFIX} up to date\n`);
        return;
      case 'error':
        if (drawn) out.write('\n');
        drawn = false;
        out.write(`Simulator (${e.during}): ${errorText(e.error)}\n`);
        return;
    }
  };
}
