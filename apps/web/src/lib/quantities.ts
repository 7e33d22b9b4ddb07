import { parameterInfo } from '@phasewatch/shared';
import type { TFunction } from 'i18next';
import { numberFormat } from './intl';

/** A parameter's name for people: `Power L1` for `pave1`, `Temperature` for `tempmain`. */
export function parameterLabel(t: TFunction, name: string): string {
  const info = parameterInfo(name);
  if (info?.phase) {
    const prefix = name.slice(0, -1);
    return t('device.live.phase', { name: t(`device.live.prefix.${prefix}`, { defaultValue: prefix }), phase: info.phase });
  }
  return t(`device.live.param.${name}`, { defaultValue: name });
}

/** A parameter's value with the catalogue's unit; the relay as on/off. */
export function parameterValue(t: TFunction, name: string, value: number, locale: string): string {
  if (name === 'rel1') return t(value ? 'device.live.on' : 'device.live.off');
  return formatQuantity(value, parameterInfo(name)?.unit ?? '', locale);
}

/** Digits per unit: whole watts, volts to one place, currents to two, and so on. Energy always shows its two places, so figures line up. */
const DIGITS: Record<string, number> = { W: 0, kW: 2, V: 1, A: 2, Hz: 2, '°C': 1, kWh: 2, kvarh: 2, dBm: 0, '': 2 };

const FIXED_DIGITS = new Set(['kW', 'kWh', 'kvarh']);

/** A value with its unit in the user's locale; powers of 10 kW and more in kW. */
export function formatQuantity(value: number, unit: string, locale: string): string {
  let v = value;
  let u = unit;
  if (unit === 'W' && Math.abs(value) >= 10_000) {
    v = value / 1000;
    u = 'kW';
  }
  const digits = DIGITS[u] ?? 2;
  const text = numberFormat(locale, {
    maximumFractionDigits: digits,
    minimumFractionDigits: FIXED_DIGITS.has(u) ? digits : 0,
  }).format(v);
  return u ? `${text} ${u}` : text;
}
