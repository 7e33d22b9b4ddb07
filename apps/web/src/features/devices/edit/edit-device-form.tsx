import { Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  DEVICE_ROLES,
  type Device,
  type DeviceRole,
  deviceDetailPath,
  deviceKind,
  type NotificationSettings,
  notificationSettingsSchema,
  type UpdateDeviceRequest,
  updateDeviceRequestSchema,
} from '@phasewatch/shared';
import { type FormEvent, lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateField } from '@/components/ui/date-field';
import { DevicePlaceFields, type Placement } from '@/features/locations';
import { loadPushBrowserSwitch } from '@/features/notifications';
import { fieldErrorsOf } from '@/lib/error-text';
import { useSchemaForm } from '@/lib/use-schema-form';
import { useSaveDevice } from '../api/update-device';
import { deviceTypeLabel } from '../device-labels';

const PushBrowserSwitch = lazy(() => loadPushBrowserSwitch().then((m) => ({ default: m.PushBrowserSwitch })));

type DeviceValues = { name: string; friendlyName: string; billingStartDate: string; billingPeriodMonths: number };

const deviceValues = (d: Device): DeviceValues => ({
  name: d.name,
  friendlyName: d.friendlyName,
  billingStartDate: d.billingStartDate,
  billingPeriodMonths: d.billingPeriodMonths,
});

/**
 * `/edit-device/{id}`: the device's name, friendly name, location and default tariff, billing period, and
 * the notification settings of spec section 3. Every field is checked with the shared schemas on input,
 * change and blur; Save sends PUT devices/:id and PUT devices/:id/notifications.
 */
export function EditDeviceForm({ device }: { device: Device }) {
  const { t } = useTranslation();
  const form = useSchemaForm(updateDeviceRequestSchema, deviceValues(device));
  const notify = useSchemaForm(notificationSettingsSchema, device.notifications);
  const save = useSaveDevice(device.id);
  const placementOf = (d: Device): Placement => ({ locationId: d.location?.id ?? null, tariffId: d.tariff?.id ?? null });
  const [place, setPlace] = useState<Placement>(() => placementOf(device));
  const [placeErrors, setPlaceErrors] = useState<Partial<Record<keyof Placement, string>>>({});
  const [shareHa, setShareHa] = useState(device.shareWithHomeAssistant === true);
  // The device's role at its location (issue 33): 'auto' keeps the default.
  const [role, setRole] = useState<string>(device.roleSet ? device.role : 'auto');
  const [roleError, setRoleError] = useState<string | undefined>();
  // The weekly EN 50160 notification is offered where the device page links its power-quality report.
  const kind = deviceKind(device.typeCode);
  const hasQualityReport = kind === 'energy' || kind === 'singlePhase';
  const { reset: resetDevice } = form;
  const { reset: resetNotify } = notify;
  useEffect(() => {
    resetDevice(deviceValues(device));
    resetNotify(device.notifications);
    setPlace({ locationId: device.location?.id ?? null, tariffId: device.tariff?.id ?? null });
    setShareHa(device.shareWithHomeAssistant === true);
    setRole(device.roleSet ? device.role : 'auto');
  }, [device, resetDevice, resetNotify]);

  const toggle = (f: 'pushEnabled' | 'emailEnabled' | 'disableAtNight' | 'muteAll' | 'qualityWeekFailed') => ({
    name: f,
    // qualityWeekFailed may be absent (settings saved before it existed): off.
    checked: notify.values[f] === true,
    onChange: (e: { currentTarget: { checked: boolean } }) => notify.setValue(f, e.currentTarget.checked),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = form.validate();
    const settings = notify.validate();
    if (!body || !settings) {
      notifications.show({ color: 'red', message: t('messages.unableToSave') });
      return;
    }
    save.mutate(
      {
        device: {
          ...(body as UpdateDeviceRequest),
          ...place,
          shareWithHomeAssistant: shareHa,
          role: role === 'auto' ? null : (role as DeviceRole),
        },
        notifications: settings as NotificationSettings,
      },
      {
        onSuccess: () => notifications.show({ color: 'teal', message: t('messages.changesSaved') }),
        onError: (err) => {
          form.setErrors(fieldErrorsOf(err, form.values));
          notify.setErrors(fieldErrorsOf(err, notify.values));
          setPlaceErrors(fieldErrorsOf(err, place));
          setRoleError(fieldErrorsOf(err, { role }).role);
          notifications.show({ color: 'red', message: t('messages.unableToSave') });
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} aria-label={t('titles.editDevice')}>
      <Stack gap="md">
        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb="sm">
            {t('editDevice.sectionDevice')}
          </Title>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={t('editDevice.name')} required {...form.textProps('name')} />
              <TextInput
                label={t('editDevice.friendlyName')}
                description={t('addDevice.friendlyNameHint')}
                {...form.textProps('friendlyName')}
              />
            </SimpleGrid>
            <Text size="sm" c="dimmed">
              {t('editDevice.identity', { type: deviceTypeLabel(t, device), mac: device.mac })}
            </Text>
            <DevicePlaceFields value={place} onChange={setPlace} errors={placeErrors} />
            <Select
              label={t('prosumer.roleLabel')}
              description={t('prosumer.roleDescription')}
              name="role"
              data={[
                { value: 'auto', label: t('prosumer.roleAuto', { role: t(`prosumer.roles.${device.role}`) }) },
                ...DEVICE_ROLES.map((r) => ({ value: r, label: t(`prosumer.roles.${r}`) })),
              ]}
              value={role}
              onChange={(v) => v && setRole(v)}
              allowDeselect={false}
              error={roleError ? t(roleError) : undefined}
              data-device-role
            />
          </Stack>
        </Card>

        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb="sm">
            {t('editDevice.sectionBilling')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <DateField
              label={t('editDevice.billingStart')}
              description={t('editDevice.billingStartHint')}
              required
              name="billingStartDate"
              value={form.values.billingStartDate || null}
              onChange={(v) => form.setValue('billingStartDate', v ?? '')}
              error={form.errorText('billingStartDate')}
              popoverProps={{ zIndex: 300 }}
            />
            <NumberInput
              label={t('editDevice.billingMonths')}
              description={t('editDevice.billingMonthsHint')}
              required
              min={1}
              max={24}
              {...form.numberProps('billingPeriodMonths')}
            />
          </SimpleGrid>
        </Card>

        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb="sm">
            {t('integrations.homeAssistant.title')}
          </Title>
          <Switch
            name="shareWithHomeAssistant"
            label={t('integrations.homeAssistant.share')}
            description={t('integrations.homeAssistant.shareHint')}
            checked={shareHa}
            onChange={(e) => setShareHa(e.currentTarget.checked)}
          />
        </Card>

        <Card withBorder padding="lg">
          <Title order={2} size="h4" mb="sm">
            {t('editDevice.sectionNotifications')}
          </Title>
          <Stack gap="md">
            <Switch label={t('editDevice.muteAll')} description={t('editDevice.muteAllHint')} {...toggle('muteAll')} />
            <Switch label={t('editDevice.push')} description={t('editDevice.pushHint')} {...toggle('pushEnabled')} />
            <Suspense fallback={null}>
              <PushBrowserSwitch compact devicePushOn={notify.values.pushEnabled} />
            </Suspense>
            <Switch
              label={t('notifications.settings.email')}
              description={t('notifications.settings.emailHint')}
              {...toggle('emailEnabled')}
            />
            <Switch label={t('editDevice.disableAtNight')} {...toggle('disableAtNight')} />
            {hasQualityReport && (
              <Switch label={t('editDevice.qualityWeek')} description={t('editDevice.qualityWeekHint')} {...toggle('qualityWeekFailed')} />
            )}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NumberInput
                label={t('editDevice.voltageDrop')}
                description={t('editDevice.voltageDropHint')}
                suffix=" %"
                min={0}
                max={100}
                decimalScale={1}
                required
                {...notify.numberProps('voltageDropThreshold')}
              />
              <NumberInput
                label={t('editDevice.voltageRise')}
                description={t('editDevice.voltageRiseHint')}
                suffix=" %"
                min={0}
                max={100}
                decimalScale={1}
                required
                {...notify.numberProps('voltageRiseThreshold')}
              />
              <NumberInput
                label={t('editDevice.totalConsumption')}
                description={t('editDevice.totalConsumptionHint')}
                suffix=" kWh"
                min={0}
                decimalScale={3}
                {...notify.numberProps('totalConsumptionThreshold', { nullable: true })}
              />
              <NumberInput
                label={t('editDevice.interval')}
                description={t('editDevice.intervalHint')}
                min={1}
                max={1440}
                required
                {...notify.numberProps('notificationIntervalMinutes')}
              />
            </SimpleGrid>
          </Stack>
        </Card>

        <Group justify="flex-end" gap="sm">
          <Button variant="default" component={Link} to={deviceDetailPath(device.typeCode, device.id)}>
            {t('editDevice.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('editDevice.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
