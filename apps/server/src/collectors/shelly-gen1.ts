import { CollectorError } from './collector-error.js';
import { type CollectedReading, type DeviceInfo, objectOf, type PollContext, type PolledFamily, put } from './family.js';
import { shellyIdentity } from './shelly-gen2.js';

/*
 * Shelly 3EM (Gen1): `GET /status` → `emeters[0..2]` with `power` (W), `pf`, `current` (A), `voltage` (V),
 * `total` and `total_returned` (Wh). Its totals restart from zero on power loss; the energy rules
 * (packages/shared/src/energy/counter.ts) take a drop below 90 % as a reset and count from zero, so the
 * restart adds no false energy. Authentication, when enabled, is HTTP basic.
 * Sources: Shelly Gen1 API docs (/status of the Shelly 3EM, /shelly).
 */

/** Wh per kWh. */
const WH = 1000;

/** Our values from a Gen1 `/status`. */
export function gen1Values(status: Record<string, unknown>): Record<string, number> {
  const meters = status.emeters;
  if (!Array.isArray(meters) || meters.length === 0) throw new CollectorError('unexpectedAnswer', '/status has no emeters');
  const v: Record<string, number> = {};
  meters.slice(0, 3).forEach((m: unknown, i) => {
    if (!m || typeof m !== 'object') return;
    const e = m as Record<string, unknown>;
    // A channel the device itself marks invalid (no voltage, a fault) says nothing this time.
    if (e.is_valid === false) return;
    const p = i + 1;
    put(v, `vave${p}`, e.voltage);
    put(v, `iave${p}`, e.current);
    put(v, `pave${p}`, e.power);
    put(v, `pfave${p}`, e.pf);
    put(v, `eai${p}`, e.total, WH);
    put(v, `eae${p}`, e.total_returned, WH);
  });
  if (meters.length >= 3 && v.pave1 !== undefined && v.pave2 !== undefined && v.pave3 !== undefined)
    v.power3phases = v.pave1 + v.pave2 + v.pave3;
  return v;
}

export const shellyGen1: PolledFamily = {
  kind: 'shelly-gen1',

  async probe(ctx: PollContext): Promise<DeviceInfo> {
    const info = shellyIdentity(await ctx.get('shelly'));
    if (info.kind !== 'shelly-gen1') return info;
    const status = objectOf(await ctx.get('status'), 'status');
    const meters = Array.isArray(status.emeters) ? status.emeters.length : 0;
    return { ...info, phases: meters >= 3 ? 3 : 1 };
  },

  async poll(ctx: PollContext): Promise<CollectedReading[]> {
    const status = objectOf(await ctx.get('status'), 'status');
    return [{ ts: ctx.now(), values: gen1Values(status) }];
  },
};
