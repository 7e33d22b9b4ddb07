import type { TariffArea, TariffGroup } from '@phasewatch/shared';
import type { TFunction } from 'i18next';
import { numberFormat } from '@/lib/intl';
import { formatQuantity } from '@/lib/quantities';

/** A cost in its currency, in the interface language (two decimals: the API rounds to them). */
export function formatMoney(value: number, currency: string, locale: string): string {
  try {
    return numberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
  } catch {
    return `${numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value)} ${currency}`;
  }
}

/** A price per kWh: up to four decimals, as tariffs state them. */
export function formatPrice(value: number, currency: string, locale: string): string {
  try {
    return `${numberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(value)}/kWh`;
  } catch {
    return `${value} ${currency}/kWh`;
  }
}

export const formatKWh = (value: number, locale: string) => formatQuantity(value, 'kWh', locale);

/** Colours of the areas (Mantine colour names): day orange, the cheap night blue, the third zone red. */
export const AREA_COLORS: Record<TariffArea, string> = { 1: 'orange', 2: 'blue', 3: 'red' };

/** "Area 2 (night)": what the area means in the group (G13 and T3 have their own third zone). */
export function areaLabel(t: TFunction, area: TariffArea, group?: TariffGroup): string {
  if (group === 'G13' || group === 'T3') return t(`tariffs.areaOf.${group}.${area}`);
  return t(`tariffs.area.${area}`);
}
