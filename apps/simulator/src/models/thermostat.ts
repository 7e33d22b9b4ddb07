import { DEVICE_TYPES } from '@phasewatch/shared';
import { hashUnit } from '../random.js';
import { DECIMALS, DeviceModel, type ModelOptions } from './device-model.js';
import { dayOfYear, gridVoltage, HOUR_MS, MINUTE_MS, outdoorTemperature, rssi, sagDepth } from './environment.js';

/** The relay switches on below `tempset − HYSTERESIS` and off above `tempset + HYSTERESIS` (°C). */
export const THERMOSTAT_HYSTERESIS = 0.3;

/** Heat capacity of the room (air and furniture) in Wh/K and its losses in W/K: about one heating cycle an hour in winter. */
const CAPACITY_WH_PER_K = 800;
const LOSS_W_PER_K = 45;
/** People, appliances and sun, on average. */
const INTERNAL_GAINS_W = 150;
/** The thermostat's own electronics. */
const SELF_W = 2;

/** Comfort schedule: warm mornings and evenings, cooler days (away) and nights; weekends warm all day. */
function setpoint(hour: number, weekday: number): number {
  if (weekday === 0 || weekday === 6) return hour >= 7.5 && hour < 23 ? 21.5 : 18;
  if (hour >= 6 && hour < 8) return 21;
  if (hour >= 8 && hour < 16) return 19;
  if (hour >= 16 && hour < 22.5) return 21.5;
  return 18;
}

/**
 * A thermostat (code 17) switching an electric heater through its relay `rel1`. The room temperature
 * `tempmain` follows a first-order heat balance (heater, losses to the outdoor temperature, internal
 * gains); the relay keeps it within ±0.3 °C of `tempset` with hysteresis, and the heater's power and energy
 * are measured on phase 1.
 */
export class ThermostatModel extends DeviceModel {
  readonly typeCode = DEVICE_TYPES.THERMOSTAT;
  readonly heaterWatts: number;
  private temp = 20;
  private relay = 0;

  constructor(options: ModelOptions) {
    super(
      options,
      [
        ['tempmain', DECIMALS.temperature],
        ['tempset', DECIMALS.temperature],
        ['rel1', DECIMALS.state],
        ['pave1', DECIMALS.power],
        ['vave1', DECIMALS.voltage],
        ['iave1', DECIMALS.current],
        ['eai1', DECIMALS.energy],
        ['rssi', 0],
      ],
      1,
    );
    this.heaterWatts = 1500 + Math.round(hashUnit(this.seed, 900, 0) * 2) * 250;
    this.counters[0] = this.initialCounter(0, 3000);
  }

  protected override extraState(): number[] {
    return [this.temp, this.relay];
  }

  protected override restoreExtra(extra: number[]): void {
    this.temp = extra[0] ?? 20;
    this.relay = extra[1] ?? 0;
  }

  protected compute(tsMs: number, dtMs: number, _windowMs: number): void {
    // Sub-steps of at most a minute keep the Euler integration and the relay decisions fine-grained.
    const n = Math.max(1, Math.ceil(dtMs / MINUTE_MS));
    const sub = dtMs / n;
    let onMs = 0;
    let set = 20;
    for (let i = 1; i <= n; i++) {
      const t = tsMs - dtMs + i * sub;
      const local = this.clock.at(t);
      set = setpoint(local.hour, local.weekday);
      const outdoor = outdoorTemperature(this.seed, t, dayOfYear(t), local.hour);
      const heat = this.relay * this.heaterWatts + INTERNAL_GAINS_W - LOSS_W_PER_K * (this.temp - outdoor);
      this.temp += (heat / CAPACITY_WH_PER_K) * (sub / HOUR_MS);
      onMs += this.relay * sub;
      if (this.temp < set - THERMOSTAT_HYSTERESIS) this.relay = 1;
      else if (this.temp > set + THERMOSTAT_HYSTERESIS) this.relay = 0;
    }
    if (dtMs === 0) {
      const local = this.clock.at(tsMs);
      set = setpoint(local.hour, local.weekday);
    }
    const power = (dtMs > 0 ? (onMs / dtMs) * this.heaterWatts : this.relay * this.heaterWatts) + SELF_W;
    this.counters[0] = (this.counters[0] ?? 0) + (power * dtMs) / HOUR_MS / 1000;
    const local = this.clock.at(tsMs);
    const V = Math.max(185, gridVoltage(this.seed, 1, tsMs, local.hour) - (0.25 * power) / 230 - sagDepth(this.seed, 1, tsMs));
    const v = this.values;
    v[0] = this.temp;
    v[1] = set;
    v[2] = this.relay;
    v[3] = power;
    v[4] = V;
    v[5] = power / V;
    v[6] = this.counters[0] ?? 0;
    v[7] = rssi(this.seed, tsMs, -60);
  }
}
