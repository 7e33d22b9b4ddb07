import { Alert, Button, Group, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { CollectorKind, CollectorSource, CollectorTestResponse, DiscoveredDevice } from '@phasewatch/shared';
import { IconCircleCheck, IconPlugConnected, IconSearch, IconWifiOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorTexts } from '@/lib/error-text';
import { parameterLabel, parameterValue } from '@/lib/quantities';
import { useDiscoverDevices } from '../api/discover-devices';
import { useTestCollector } from '../api/test-collector';

/** The families offered; Shelly's generation is told by the device itself. */
export type Family = 'own' | 'fox-energy' | 'shelly' | 'tasmota';
const FAMILIES: Family[] = ['fox-energy', 'shelly', 'tasmota', 'own'];

/** What the first step decided: a device that sends itself, or a source the server read successfully. */
export type SourceChoice =
  | { family: 'own' }
  | { family: Exclude<Family, 'own'>; source: CollectorSource; found: Extract<CollectorTestResponse, { ok: true }> | null };

const kindOf = (f: Exclude<Family, 'own'>): CollectorKind => (f === 'shelly' ? 'shelly-gen2' : f);

/** Values shown from the test reading: the first phase's main ones and the energy counter. */
const PREVIEW = ['vave1', 'iave1', 'pave1', 'frq1', 'eai1', 'energy3phases_import'];

/**
 * The add-device flow's first step: which kind of device, and for one Phasewatch reads itself its address
 * (or a discovered Fox), its key, and a connection test that shows the model and MAC the server found.
 */
export function SourceStep({ value, onChange }: { value: SourceChoice; onChange(next: SourceChoice): void }) {
  const { t, i18n } = useTranslation();
  const family = value.family;
  const [address, setAddress] = useState(value.family === 'own' ? '' : value.source.address);
  const [key, setKey] = useState(value.family === 'own' ? '' : (value.source.key ?? ''));
  const test = useTestCollector();
  const discover = useDiscoverDevices();
  const found = value.family === 'own' ? null : value.found;
  const result = test.data;

  const choose = (f: Family) => {
    test.reset();
    discover.reset();
    if (f === 'own') onChange({ family: 'own' });
    else onChange({ family: f, source: { kind: kindOf(f), address: '' }, found: null });
    setAddress('');
    setKey('');
  };

  const run = async (addr = address) => {
    if (family === 'own') return;
    const source: CollectorSource = { kind: kindOf(family), address: addr.trim(), ...(key.trim() ? { key: key.trim() } : {}) };
    onChange({ family, source, found: null });
    try {
      const res = await test.mutateAsync(source);
      onChange({ family, source: { ...source, kind: res.ok ? res.kind : source.kind }, found: res.ok ? res : null });
    } catch {
      // Shown below from the mutation's error.
    }
  };

  const pick = (d: DiscoveredDevice) => {
    setAddress(d.address);
    void run(d.address);
  };

  const polled = family === 'fox-energy' || family === 'shelly';
  return (
    <Stack gap="sm" mt="sm">
      <Radio.Group value={family} onChange={(v) => choose(v as Family)} label={t('collectors.kindLabel')} required>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt={6}>
          {FAMILIES.map((f) => (
            <Radio.Card key={f} value={f} p="sm" radius="md" data-family={f}>
              <Group wrap="nowrap" align="flex-start" gap="sm">
                <Radio.Indicator />
                <div>
                  <Text fw={600} size="sm">
                    {t(`collectors.family.${f}`)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t(`collectors.familyHint.${f}`)}
                  </Text>
                </div>
              </Group>
            </Radio.Card>
          ))}
        </SimpleGrid>
      </Radio.Group>

      {family !== 'own' && (
        <>
          <TextInput
            label={t(polled ? 'collectors.address' : 'collectors.topic')}
            description={t(`collectors.addressHint.${family}`)}
            placeholder={polled ? 'http://192.168.1.20' : 'tasmota_9CF9D1'}
            required
            autoComplete="off"
            spellCheck={false}
            value={address}
            onChange={(e) => setAddress(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void run();
              }
            }}
            name="collectorAddress"
          />
          {polled && (
            <TextInput
              label={t('collectors.key')}
              description={t(`collectors.keyHint.${family}`)}
              type="password"
              autoComplete="off"
              value={key}
              onChange={(e) => setKey(e.currentTarget.value)}
              name="collectorKey"
            />
          )}
          <Group gap="xs">
            <Button
              leftSection={<IconPlugConnected size={16} />}
              onClick={() => void run()}
              loading={test.isPending}
              disabled={!address.trim()}
              data-testid="collector-test"
            >
              {t('collectors.test')}
            </Button>
            {family === 'fox-energy' && (
              <Button variant="light" leftSection={<IconSearch size={16} />} onClick={() => discover.mutate()} loading={discover.isPending}>
                {t('collectors.discover')}
              </Button>
            )}
          </Group>

          {!found && !result && !test.isPending && (
            <Text size="xs" c="dimmed">
              {t('collectors.testFirst')}
            </Text>
          )}

          {discover.isSuccess && (
            <Stack gap={4} data-testid="discovered">
              {discover.data.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('collectors.discoverNone')}
                </Text>
              ) : (
                discover.data.map((d) => (
                  <Button key={d.mac} variant="default" justify="space-between" onClick={() => pick(d)} fullWidth>
                    {d.address} · MAC {d.mac}
                  </Button>
                ))
              )}
            </Stack>
          )}
          {discover.isError && (
            <Text size="sm" c="red" data-testid="discover-error">
              {errorTexts(discover.error).includes('errors.discoveryOff') ? t('errors.discoveryOff') : t('collectors.discoverFailed')}
            </Text>
          )}

          {found && (
            <Alert color="teal" variant="light" icon={<IconCircleCheck />} title={t('collectors.found')} data-testid="collector-found">
              <Stack gap={4}>
                <Text size="sm">
                  {[
                    found.model && t('collectors.model', { model: found.model }),
                    found.mac && `MAC ${found.mac}`,
                    found.phases && t('collectors.phases', { count: found.phases }),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Text>
                {found.values && (
                  <Text size="sm" c="dimmed">
                    {PREVIEW.filter((p) => found.values?.[p] !== undefined)
                      .map((p) => `${parameterLabel(t, p)} ${parameterValue(t, p, found.values?.[p] as number, i18n.language)}`)
                      .join(' · ')}
                  </Text>
                )}
              </Stack>
            </Alert>
          )}
          {result && !result.ok && (
            <Alert
              color="red"
              variant="light"
              icon={<IconWifiOff />}
              title={t('collectors.notRead')}
              role="alert"
              data-testid="collector-error"
            >
              <Text size="sm">{t(`collectors.errors.${result.errorKey}`)}</Text>
              <Text size="xs" c="dimmed" mt={4}>
                {result.error}
              </Text>
            </Alert>
          )}
          {test.isError && (
            <Alert color="red" variant="light" role="alert" title={t('collectors.testFailed')}>
              {errorTexts(test.error)
                .map((m) => t(m, { defaultValue: m }))
                .join(' ')}
            </Alert>
          )}
        </>
      )}
    </Stack>
  );
}
