import { Button, Card, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type Location, type LocationRequest, locationRequestSchema, timezoneForCountry } from '@phasewatch/shared';
import { type FormEvent, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth-store';
import { fieldErrorsOf } from '@/lib/error-text';
import { useSchemaForm } from '@/lib/use-schema-form';
import { useSaveLocation } from '../api/save-location';
import { DeleteLocationButton } from './delete-location';

type Values = { name: string; code: string; address: string; city: string; timezone: string; tariffId: number | null };

let zones: string[] | null = null;
/** Every IANA zone the browser knows. */
function allZones(): string[] {
  zones ??= Intl.supportedValuesOf('timeZone');
  return zones;
}

/**
 * `/locations/edit/{id}` and `/locations/edit/new`: name, code, address, city, timezone (a new location's
 * from the user's country) and its energy tariff (one of its own; a new location has none yet).
 */
export function LocationForm({ location }: { location: Location | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useAuth();
  const initial: Values = location
    ? {
        name: location.name,
        code: location.code,
        address: location.address,
        city: location.city,
        timezone: location.timezone,
        tariffId: location.tariff?.id ?? null,
      }
    : { name: '', code: '', address: '', city: '', timezone: timezoneForCountry(user?.country), tariffId: null };
  const form = useSchemaForm(locationRequestSchema, initial);
  const save = useSaveLocation(location?.id ?? null);
  const zoneOptions = useMemo(() => {
    const list = allZones();
    return list.includes(form.values.timezone) ? list : [form.values.timezone, ...list];
  }, [form.values.timezone]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = form.validate();
    if (!body) {
      notifications.show({ color: 'red', message: t('messages.unableToSave') });
      return;
    }
    save.mutate(body as LocationRequest, {
      onSuccess: (saved) => {
        notifications.show({ color: 'teal', message: t('messages.dataSaved') });
        void navigate(paths.locationView(saved.id));
      },
      onError: (err) => {
        form.setErrors(fieldErrorsOf(err, form.values));
        notifications.show({ color: 'red', message: t('messages.unableToSave') });
      },
    });
  };

  return (
    <form noValidate onSubmit={submit} aria-label={t(location ? 'locations.form.editTitle' : 'locations.form.newTitle')}>
      <Stack gap="md">
        <Card withBorder padding="lg">
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={t('locations.form.name')} required data-autofocus {...form.textProps('name')} />
              <TextInput label={t('locations.form.code')} description={t('locations.form.codeHint')} {...form.textProps('code')} />
              <TextInput label={t('locations.form.address')} {...form.textProps('address')} />
              <TextInput label={t('locations.form.city')} {...form.textProps('city')} />
              <Select
                label={t('locations.form.timezone')}
                description={t('locations.form.timezoneHint')}
                name="timezone"
                required
                searchable
                allowDeselect={false}
                data={zoneOptions}
                value={form.values.timezone}
                onChange={(v) => v && form.setValue('timezone', v)}
                error={form.errorText('timezone')}
                limit={400}
              />
              <Select
                label={t('locations.form.tariff')}
                description={location ? t('locations.form.tariffHint') : t('locations.form.tariffNew')}
                name="tariffId"
                placeholder={t('locations.noTariff')}
                clearable
                disabled={!location || location.tariffs.length === 0}
                data={(location?.tariffs ?? []).map((x) => ({ value: String(x.id), label: `${x.name} (${x.group})` }))}
                value={form.values.tariffId === null ? null : String(form.values.tariffId)}
                onChange={(v) => form.setValue('tariffId', v ? Number(v) : null)}
                error={form.errorText('tariffId')}
              />
            </SimpleGrid>
            {location && location.tariffs.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('locations.form.noTariffsYet')}{' '}
                <Link to={paths.locationTariffEdit(location.id, paths.newId)}>{t('locations.addTariff')}</Link>
              </Text>
            )}
          </Stack>
        </Card>
        <Group justify="space-between">
          {location ? <DeleteLocationButton location={location} onDeleted={() => void navigate(paths.locations)} /> : <span />}
          <Group gap="sm">
            <Button variant="default" component={Link} to={location ? paths.locationView(location.id) : paths.locations}>
              {t('editDevice.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('editDevice.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
