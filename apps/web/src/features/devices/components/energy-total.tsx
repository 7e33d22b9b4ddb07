import { Text } from '@mantine/core';
import { deviceFigures } from '@phasewatch/shared';
import { useTranslation } from 'react-i18next';
import { formatQuantity } from '@/lib/quantities';

/**
 * A device's total energy as its type defines it (deviceFigures): what a meter consumed, what a solar
 * device produced, what a thermostat's heater used; the same figure and meaning as its detail page.
 */
export function EnergyTotal({ typeCode, kwh }: { typeCode: number; kwh: number }) {
  const { t, i18n } = useTranslation();
  const meaning = deviceFigures(typeCode).energy.meaning;
  return (
    <span data-energy-total={meaning} style={{ whiteSpace: 'nowrap' }}>
      {formatQuantity(kwh, 'kWh', i18n.language)}
      {meaning !== 'consumption' && (
        <Text span size="xs" c="dimmed" display="block">
          {t(`detail.totalMeaning.${meaning}`)}
        </Text>
      )}
    </span>
  );
}
