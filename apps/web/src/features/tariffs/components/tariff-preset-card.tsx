import { Alert, Card, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { TARIFF_GROUPS, type TariffGroup, type TariffPresetInfo } from '@phasewatch/shared';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { applyPreset, changeGroup } from '../tariff-draft';
import type { DraftFields } from './draft-fields';
import { PresetNotes } from './preset-notes';

const CURRENCIES = ['PLN', 'EUR', 'TRY', 'USD', 'GBP', 'CZK', 'CHF', 'HUF', 'RON', 'SEK', 'NOK', 'DKK', 'UAH'];

/** The tariff part of the form: name, group, the operator's preset (with its notes) and the currency. */
export function TariffPresetCard({
  fields: { draft, update, error, touch },
  presets,
  onPresetChosen,
}: {
  fields: DraftFields;
  presets: TariffPresetInfo[];
  /** A preset was chosen or cleared (its seasons replace the draft's). */
  onPresetChosen(): void;
}) {
  const { t } = useTranslation();
  const preset = presets.find((p) => p.id === draft.presetId) ?? null;
  const groupPresets = presets.filter((p) => p.group === draft.group);
  const presetOptions = groupPresets.map((p) => ({
    value: p.id,
    label: `${p.operator} ${p.group}${p.unconfirmed ? ` · ${t('tariffs.unconfirmed')}` : ''}`,
  }));
  return (
    <Card withBorder padding="lg">
      <Title order={2} size="h4" mb="sm">
        {t('tariffs.form.sectionTariff')}
      </Title>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('tariffs.form.name')}
            required
            name="name"
            value={draft.name}
            onChange={(e) => update({ ...draft, name: e.currentTarget.value })}
            onBlur={() => touch('name')}
            error={error('name')}
          />
          <Select
            label={t('tariffs.form.group')}
            description={t('tariffs.form.groupHint')}
            required
            allowDeselect={false}
            name="group"
            data={TARIFF_GROUPS.map((g) => ({ value: g, label: `${g} · ${t(`tariffs.groups.${g}`)}` }))}
            value={draft.group}
            onChange={(v) => v && update(changeGroup(draft, v as TariffGroup))}
            error={error('group')}
          />
          <Select
            label={t('tariffs.form.preset')}
            description={t('tariffs.form.presetHint')}
            name="presetId"
            placeholder={t('tariffs.form.presetNone')}
            clearable
            data={presetOptions}
            value={draft.presetId}
            onChange={(v) => {
              const p = presets.find((x) => x.id === v);
              update(p ? applyPreset(draft, p, presets) : { ...draft, presetId: null });
              onPresetChosen();
            }}
            error={error('presetId')}
            nothingFoundMessage={t('tariffs.form.noPresets')}
          />
          <Select
            label={t('tariffs.form.currency')}
            name="currency"
            required
            allowDeselect={false}
            searchable
            data={[...new Set([draft.currency, ...CURRENCIES])]}
            value={draft.currency}
            onChange={(v) => v && update({ ...draft, currency: v })}
            error={error('currency')}
          />
        </SimpleGrid>
        {preset && <PresetNotes preset={preset} />}
        {draft.group === 'G12as' && (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle />} data-g12as-note>
            {t('tariffs.g12asNote')}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
