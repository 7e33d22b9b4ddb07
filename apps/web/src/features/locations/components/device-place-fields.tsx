import { Anchor, Select, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useLocations } from '../api/get-locations';

/** A device's location and default tariff (ids; null: none). */
export type Placement = {
  locationId: number | null;
  tariffId: number | null;
};

/**
 * The location and default tariff of a device, for its edit page and the add-device flow: the tariffs
 * offered are the chosen location's, and choosing a location brings its energy tariff.
 */
export function DevicePlaceFields({
  value,
  onChange,
  errors = {},
}: {
  value: Placement;
  onChange(p: Placement): void;
  errors?: Partial<Record<keyof Placement, string>>;
}) {
  const { t } = useTranslation();
  const locations = useLocations();
  const list = locations.data ?? [];
  const chosen = list.find((l) => l.id === value.locationId);
  return (
    <div data-device-place>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t('locations.field.location')}
          name="locationId"
          placeholder={locations.isPending ? t('app.loading') : t('locations.field.none')}
          clearable
          data={list.map((l) => ({ value: String(l.id), label: l.name }))}
          value={value.locationId === null ? null : String(value.locationId)}
          onChange={(v) => {
            const loc = list.find((l) => String(l.id) === v);
            onChange({ locationId: loc?.id ?? null, tariffId: loc?.tariff?.id ?? null });
          }}
          error={errors.locationId ? t(errors.locationId, { defaultValue: errors.locationId }) : undefined}
          comboboxProps={{ zIndex: 400 }}
        />
        <Select
          label={t('locations.field.tariff')}
          name="tariffId"
          placeholder={chosen ? t('locations.field.none') : t('locations.field.locationFirst')}
          clearable
          disabled={!chosen || chosen.tariffs.length === 0}
          data={(chosen?.tariffs ?? []).map((x) => ({ value: String(x.id), label: `${x.name} (${x.group})` }))}
          value={value.tariffId === null ? null : String(value.tariffId)}
          onChange={(v) => onChange({ ...value, tariffId: v ? Number(v) : null })}
          error={errors.tariffId ? t(errors.tariffId, { defaultValue: errors.tariffId }) : undefined}
          comboboxProps={{ zIndex: 400 }}
        />
      </SimpleGrid>
      {locations.isSuccess && list.length === 0 && (
        <Text size="sm" c="dimmed" mt={4}>
          {t('locations.field.noLocations')}{' '}
          <Anchor component={Link} to={paths.locationEdit(paths.newId)}>
            {t('locations.add')}
          </Anchor>
        </Text>
      )}
      {chosen && chosen.tariffs.length === 0 && (
        <Text size="sm" c="dimmed" mt={4}>
          {t('locations.field.noTariffs')}{' '}
          <Anchor component={Link} to={paths.locationTariffEdit(chosen.id, paths.newId)}>
            {t('locations.addTariff')}
          </Anchor>
        </Text>
      )}
    </div>
  );
}
