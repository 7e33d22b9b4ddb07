import { Alert, Button, Code, CopyButton, Group, Modal, NumberInput, Select, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { type CollectorSource, type CreateDeviceResponse, createDeviceRequestSchema, DEVICE_TYPES, deviceKind } from '@phasewatch/shared';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StepperWidget } from '@/components/ui/stepper';
import { CollectedDone, modelName, type SourceChoice, SourceStep } from '@/features/collectors';
import { DevicePlaceFields, type Placement } from '@/features/locations';
import { errorTexts, fieldErrorsOf } from '@/lib/error-text';
import { usePhone } from '@/lib/use-phone';
import { useSchemaForm } from '@/lib/use-schema-form';
import { useCreateDevice } from '../../api/create-device';
import { ingestExamples } from '../../ingest-examples';

/** Type codes offered by name; any other code is typed in. */
const KNOWN_TYPES = [DEVICE_TYPES.ENERGY_METER_3P, DEVICE_TYPES.SINGLE_PHASE_METER, DEVICE_TYPES.SOLAR, DEVICE_TYPES.THERMOSTAT] as const;
const OTHER = 'other';

type Values = {
  name: string;
  friendlyName: string;
  typeCode: number;
  mac: string | undefined;
  model: string;
  source?: CollectorSource | undefined;
};

/** "Add device": a dialog with the spec's stepper (details → location and tariff → the device key). */
export function AddDeviceModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const phone = usePhone();
  // A new flow (empty form, step 1) each time the dialog opens.
  const [round, setRound] = useState(0);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={() => setRound((r) => r + 1)}
      title={
        <Title order={2} size="h3">
          {t('addDevice.title')}
        </Title>
      }
      size="xl"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': t('widgets.close') }}
    >
      <AddDeviceFlow key={round} onDone={onClose} />
    </Modal>
  );
}

function AddDeviceFlow({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const form = useSchemaForm(createDeviceRequestSchema, {
    name: '',
    friendlyName: '',
    typeCode: DEVICE_TYPES.ENERGY_METER_3P,
    mac: '',
    model: '',
  } as Values);
  const [otherType, setOtherType] = useState(false);
  const create = useCreateDevice();
  const [created, setCreated] = useState<CreateDeviceResponse | null>(null);
  const [placement, setPlacement] = useState<Placement>({ locationId: null, tariffId: null });
  // Fox ENERGY, Shelly, Tasmota (read by Phasewatch) or a device that sends itself: chosen first.
  const [choice, setChoice] = useState<SourceChoice>({ family: 'own' });
  const collected = choice.family !== 'own';
  // What the last connection test filled in: replaced by the next test, never what the user typed.
  const filled = useRef({ name: '', model: '' });
  const onChoice = (c: SourceChoice) => {
    setChoice(c);
    const fill = (field: 'name' | 'model', value: string) => {
      const current = form.values[field];
      if (current.trim() && current !== filled.current[field]) return;
      form.setValue(field, value);
      filled.current[field] = value;
    };
    if (c.family === 'own') {
      form.setValue('source', undefined);
      if (form.values.mac === undefined) form.setValue('mac', '');
      fill('model', '');
      return;
    }
    form.setValue('source', c.source);
    form.setValue('mac', c.found?.mac);
    if (!c.found) return;
    fill('model', c.found.model ?? '');
    // The name people know it by ("Shelly Pro 3EM"), not its model code.
    fill('name', c.found.model ? modelName(c.found.model) : c.source.address);
    if (c.found.typeCode !== undefined) form.setValue('typeCode', c.found.typeCode);
  };

  const typeOptions = [
    ...KNOWN_TYPES.map((code) => ({ value: String(code), label: t(`deviceTypes.${deviceKind(code)}`) })),
    { value: OTHER, label: t('addDevice.otherType') },
  ];

  const details = (
    <Stack gap="sm" mt="sm">
      <TextInput label={t('addDevice.name')} required data-autofocus {...form.textProps('name')} />
      <TextInput label={t('addDevice.friendlyName')} description={t('addDevice.friendlyNameHint')} {...form.textProps('friendlyName')} />
      <Select
        label={t('addDevice.type')}
        required
        allowDeselect={false}
        data={typeOptions}
        value={otherType ? OTHER : String(form.values.typeCode)}
        onChange={(v) => {
          const other = v === OTHER;
          setOtherType(other);
          if (!other && v) form.setValue('typeCode', Number(v));
        }}
        comboboxProps={{ zIndex: 400 }}
      />
      {otherType && (
        <NumberInput
          label={t('addDevice.typeCode')}
          description={t('addDevice.typeCodeHint')}
          required
          min={0}
          max={9999}
          {...form.numberProps('typeCode')}
        />
      )}
      {collected && form.values.mac === undefined ? (
        <TextInput label={t('addDevice.mac')} description={t('collectors.macFromAddress')} disabled value="" placeholder="—" />
      ) : (
        <TextInput
          label={t('addDevice.mac')}
          description={collected ? t('collectors.macFound') : t('addDevice.macHint')}
          required={!collected}
          autoComplete="off"
          spellCheck={false}
          {...form.textProps('mac')}
        />
      )}
      <TextInput label={t('addDevice.model')} {...form.textProps('model')} />
    </Stack>
  );

  const place = (
    <Stack gap="sm" mt="sm">
      <DevicePlaceFields value={placement} onChange={setPlacement} />
      {create.isError && (
        <Alert color="red" role="alert" title={t('messages.unableToSave')}>
          {errorTexts(create.error)
            .map((m) => t(m, { defaultValue: m }))
            .join(' ')}
        </Alert>
      )}
    </Stack>
  );

  const key =
    created &&
    (collected ? (
      <CollectedDone
        created={created}
        keyView={
          <Copyable
            label={t('collectors.done.keyTitle')}
            text={created.ingestKey}
            testId="ingest-key"
            hint={t('collectors.done.keyHint')}
          />
        }
      />
    ) : (
      <KeyStep created={created} />
    ));

  return (
    <StepperWidget
      finishLabel={t('addDevice.done')}
      onFinish={onDone}
      steps={[
        {
          label: t('collectors.stepSource'),
          description: t('collectors.stepSourceHint'),
          content: <SourceStep value={choice} onChange={onChoice} />,
          onNext: () => choice.family === 'own' || choice.found !== null,
        },
        {
          label: t('addDevice.stepDetails'),
          description: t('addDevice.stepDetailsHint'),
          content: details,
          onNext: () => form.validate() !== null,
        },
        {
          label: t('addDevice.stepPlace'),
          description: t('addDevice.stepPlaceHint'),
          content: place,
          nextLabel: t('addDevice.create'),
          onNext: async () => {
            const body = form.validate();
            if (!body) return false;
            try {
              const res = await create.mutateAsync({ ...body, ...placement });
              // The key step itself tells it worked (a toast would cover the dialog's buttons on a phone).
              setCreated(res);
              return true;
            } catch (err) {
              form.setErrors(fieldErrorsOf(err, form.values));
              return false;
            }
          },
        },
        { label: t('addDevice.stepKey'), description: t('addDevice.stepKeyHint'), content: key, final: true },
      ]}
    />
  );
}

/** The device key, shown this once, and how the device sends with it. */
function KeyStep({ created }: { created: CreateDeviceResponse }) {
  const { t } = useTranslation();
  const [now] = useState(() => Date.now());
  const examples = ingestExamples({
    origin: window.location.origin,
    key: created.ingestKey,
    mac: created.device.mac,
    typeCode: created.device.typeCode,
    now,
  });
  return (
    <Stack gap="sm" mt="sm">
      <Alert variant="light" color="yellow" icon={<IconAlertTriangle />} title={t('addDevice.keyTitle')}>
        {t('addDevice.keyOnce')}
      </Alert>
      <Copyable label={t('addDevice.key')} text={created.ingestKey} testId="ingest-key" />
      <Copyable label={t('addDevice.http')} text={examples.http} block testId="example-http" />
      <Copyable label={t('addDevice.mqtt')} text={examples.mqtt} block testId="example-mqtt" hint={t('addDevice.mqttHint')} />
    </Stack>
  );
}

function Copyable({
  label,
  text,
  block = false,
  hint,
  testId,
}: {
  label: string;
  text: string;
  block?: boolean;
  hint?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div>
      <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <CopyButton value={text} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('addDevice.copied') : t('addDevice.copy')} withArrow>
              <Button
                size="compact-sm"
                variant="light"
                color={copied ? 'teal' : undefined}
                leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                onClick={copy}
                aria-label={`${t('addDevice.copy')}: ${label}`}
              >
                {copied ? t('addDevice.copied') : t('addDevice.copy')}
              </Button>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Code
        block={block}
        data-testid={testId}
        style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', display: block ? undefined : 'block' }}
      >
        {text}
      </Code>
      {hint && (
        <Text size="xs" c="dimmed" mt={4}>
          {hint}
        </Text>
      )}
    </div>
  );
}
