import { parameterInfo } from '@phasewatch/shared';
import type { TFunction } from 'i18next';
import { formatQuantity } from '../live-values';

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
