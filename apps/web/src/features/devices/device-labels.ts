import { deviceKind, deviceTypeName } from '@phasewatch/shared';
import type { TFunction } from 'i18next';

/**
 * The device's type for people: the catalogue name of its type code in the user's language, or the
 * name the owner gave it when it is not the catalogue's (English) default.
 */
export function deviceTypeLabel(t: TFunction, device: { typeCode: number; typeName: string }): string {
  if (!device.typeName || device.typeName === deviceTypeName(device.typeCode)) return t(`deviceTypes.${deviceKind(device.typeCode)}`);
  return device.typeName;
}
