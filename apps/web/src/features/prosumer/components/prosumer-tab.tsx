import {
  Alert,
  Button,
  Card,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  type BalanceItem,
  COEFFICIENT_FROM,
  DEFAULT_COEFFICIENT,
  type Ledger,
  type Location,
  localDate,
  PROSUMER_SCHEMES,
  type ProsumerScheme,
  type ProsumerSettingsRequest,
  RCE_CLAMPS,
  RCEM_VERSION_CHOICES,
} from '@phasewatch/shared';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '@/components/ui/date-field';
import { formatKWh, formatMoney } from '@/features/tariffs';
import { fieldErrorsOf } from '@/lib/error-text';
import { useBalance, useLedger, useProsumerSettings, useSaveProsumerSettings, useSaveRcem } from '../api';
import { monthLabel } from '../month-label';
import { BalanceBars } from './balance-bars';
import { RcePricesCard } from './rce-prices-card';

const pct = (v: number | null, lng: string) =>
  v === null ? '—' : new Intl.NumberFormat(lng, { style: 'percent', maximumFractionDigits: 1 }).format(v);

/** `/locations/view/{id}` Prosumer tab: the balance, the settlement settings and the monthly ledger (issue 33). */
export default function ProsumerTab({ location }: { location: Location }) {
  const { t } = useTranslation();
  const today = localDate(Date.now(), location.timezone);
  const thisYear = Number(today.slice(0, 4));
  const [year, setYear] = useState(thisYear);
  const years = [0, 1, 2, 3].map((k) => String(thisYear - k));
  const settings = useProsumerSettings(location.id);
  const rceSince = settings.data?.scheme === 'net-billing-rce' ? settings.data.since : null;
  return (
    <Stack gap="md" data-prosumer-tab>
      <Group>
        <Select
          label={t('prosumer.year')}
          data={years}
          value={String(year)}
          onChange={(v) => v && setYear(Number(v))}
          allowDeselect={false}
          w={140}
        />
      </Group>
      <BalanceCard location={location} year={year} today={today} />
      <SettingsCard location={location} />
      <LedgerCard location={location} year={year} today={today} />
      <RcePricesCard year={year} today={today} rceSince={rceSince} />
    </Stack>
  );
}

type Figures = Omit<BalanceItem, 'start'>;
const FIELDS: (keyof Figures)[] = [
  'importKWh',
  'exportKWh',
  'nettedImportKWh',
  'nettedExportKWh',
  'productionKWh',
  'consumptionKWh',
  'selfConsumptionKWh',
];
const FIELD_LABEL: Record<keyof Figures, string> = {
  importKWh: 'prosumer.import',
  exportKWh: 'prosumer.export',
  nettedImportKWh: 'prosumer.nettedImport',
  nettedExportKWh: 'prosumer.nettedExport',
  productionKWh: 'prosumer.production',
  consumptionKWh: 'prosumer.consumption',
  selfConsumptionKWh: 'prosumer.selfConsumption',
};

function addDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function BalanceCard({ location, year, today }: { location: Location; year: number; today: string }) {
  const { t, i18n } = useTranslation();
  const [per, setPer] = useState<'month' | 'day'>('month');
  const from = `${year}-01-01`;
  const end = `${year + 1}-01-01`;
  const to = end < addDay(today) ? end : addDay(today);
  const balance = useBalance(location.id, { from, to, interval: '24h' });
  const rows = useMemo(() => {
    const items = balance.data?.items ?? [];
    if (per === 'day') return items;
    const byMonth = new Map<string, BalanceItem>();
    for (const it of items) {
      const m = it.start.slice(0, 7);
      const acc: BalanceItem = byMonth.get(m) ?? {
        start: m,
        importKWh: 0,
        exportKWh: 0,
        nettedImportKWh: 0,
        nettedExportKWh: 0,
        productionKWh: 0,
        consumptionKWh: 0,
        selfConsumptionKWh: 0,
      };
      for (const f of FIELDS) acc[f] = Math.round((acc[f] + it[f]) * 1e6) / 1e6;
      byMonth.set(m, acc);
    }
    return [...byMonth.values()];
  }, [balance.data, per]);
  const kwh = (v: number) => formatKWh(v, i18n.language);
  return (
    <Card withBorder padding="lg" data-prosumer-balance>
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={3} size="h4">
          {t('prosumer.balanceTitle')}
        </Title>
        <SegmentedControl
          aria-label={t('prosumer.period')}
          value={per}
          onChange={(v) => setPer(v as 'month' | 'day')}
          data={[
            { value: 'month', label: t('prosumer.perMonth') },
            { value: 'day', label: t('prosumer.perDay') },
          ]}
        />
      </Group>
      {balance.isPending && <Skeleton h={220} aria-busy aria-label={t('app.loading')} />}
      {balance.isError && <Text c="red">{t('prosumer.loadError')}</Text>}
      {balance.data && (
        <Stack gap="sm">
          {balance.data.gridDeviceId === null && (
            <Alert color="yellow" data-no-grid>
              {t('prosumer.noGrid')}
            </Alert>
          )}
          {rows.length === 0 ? (
            <Text c="dimmed">{t('prosumer.noData')}</Text>
          ) : (
            <>
              <BalanceBars
                periods={rows.map((r) => ({
                  label: per === 'month' ? r.start.slice(5, 7) : r.start.slice(5),
                  production: r.productionKWh,
                  consumption: r.consumptionKWh,
                  importKWh: r.importKWh,
                  exportKWh: r.exportKWh,
                }))}
              />
              <Group gap="lg">
                <Text size="sm">
                  {t('prosumer.selfConsumptionShare', { value: pct(balance.data.totals.selfConsumptionShare, i18n.language) })}
                </Text>
                <Text size="sm">
                  {t('prosumer.selfSufficiencyShare', { value: pct(balance.data.totals.selfSufficiencyShare, i18n.language) })}
                </Text>
              </Group>
              {/* A focusable scroll region (keyboard users scroll it too; axe scrollable-region-focusable). */}
              <section
                aria-label={t('prosumer.balanceTitle')}
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll region must take focus to be scrolled by keyboard
                tabIndex={0}
                style={{ overflow: 'auto', maxHeight: per === 'day' ? 420 : undefined }}
              >
                <Table striped stickyHeader data-balance-table miw={760}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('prosumer.period')}</Table.Th>
                      {FIELDS.map((f) => (
                        <Table.Th key={f} style={{ textAlign: 'right' }}>
                          {t(FIELD_LABEL[f])}
                        </Table.Th>
                      ))}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((r) => (
                      <Table.Tr key={r.start}>
                        <Table.Td>{r.start}</Table.Td>
                        {FIELDS.map((f) => (
                          <Table.Td key={f} style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
                            {kwh(r[f])}
                          </Table.Td>
                        ))}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                  <Table.Tfoot>
                    <Table.Tr>
                      <Table.Th>Σ</Table.Th>
                      {FIELDS.map((f) => (
                        <Table.Th key={f} style={{ textAlign: 'right' }} data-total={f}>
                          {kwh(balance.data.totals[f])}
                        </Table.Th>
                      ))}
                    </Table.Tr>
                  </Table.Tfoot>
                </Table>
              </section>
            </>
          )}
          <Text size="xs" c="dimmed">
            {t('prosumer.nettingExplained')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('prosumer.balanceExplained')}
          </Text>
        </Stack>
      )}
    </Card>
  );
}

const DEFAULTS = (today: string): ProsumerSettingsRequest => ({
  scheme: 'none',
  since: today,
  installationKw: 0,
  coefficient: DEFAULT_COEFFICIENT,
  refundCap: 0.2,
  rcemVersion: 'latest',
  rceClamp: 'quarter',
  coefficientFrom: COEFFICIENT_FROM,
});

function SettingsCard({ location }: { location: Location }) {
  const { t } = useTranslation();
  const today = localDate(Date.now(), location.timezone);
  const settings = useProsumerSettings(location.id);
  const save = useSaveProsumerSettings(location.id);
  const [draft, setDraft] = useState<ProsumerSettingsRequest>(DEFAULTS(today));
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (settings.data) setDraft(settings.data);
  }, [settings.data]);
  const set = <K extends keyof ProsumerSettingsRequest>(k: K, v: ProsumerSettingsRequest[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const err = (k: string) => (errors[k] ? t(errors[k]) : undefined);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(draft, {
      onSuccess: () => {
        setErrors({});
        notifications.show({ color: 'teal', message: t('prosumer.saved') });
      },
      onError: (error) => {
        setErrors(fieldErrorsOf(error, draft as Record<string, unknown>) as Record<string, string>);
        notifications.show({ color: 'red', message: t('prosumer.saveError') });
      },
    });
  };
  const netBilling = draft.scheme === 'net-billing-rcem' || draft.scheme === 'net-billing-rce';
  return (
    <Card withBorder padding="lg" data-prosumer-settings>
      <Title order={3} size="h4" mb="sm">
        {t('prosumer.settingsTitle')}
      </Title>
      {settings.isPending ? (
        <Skeleton h={120} aria-busy aria-label={t('app.loading')} />
      ) : (
        <form noValidate onSubmit={submit} aria-label={t('prosumer.settingsTitle')}>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label={t('prosumer.scheme')}
                name="scheme"
                data={PROSUMER_SCHEMES.map((s) => ({ value: s, label: t(`prosumer.schemes.${s}`) }))}
                value={draft.scheme}
                onChange={(v) => v && set('scheme', v as ProsumerScheme)}
                allowDeselect={false}
                error={err('scheme')}
              />
              <DateField
                label={t('prosumer.since')}
                name="since"
                value={draft.since || null}
                onChange={(v) => set('since', v ?? '')}
                error={err('since')}
              />
              <NumberInput
                label={t('prosumer.installationKw')}
                description={t('prosumer.installationKwHint')}
                name="installationKw"
                min={0}
                decimalScale={2}
                value={draft.installationKw}
                onChange={(v) => set('installationKw', typeof v === 'number' ? v : Number.NaN)}
                error={err('installationKw')}
              />
              {netBilling && (
                <>
                  <NumberInput
                    label={t('prosumer.coefficient')}
                    description={t('prosumer.coefficientHint')}
                    name="coefficient"
                    min={0}
                    decimalScale={3}
                    step={0.01}
                    value={draft.coefficient ?? DEFAULT_COEFFICIENT}
                    onChange={(v) => set('coefficient', typeof v === 'number' ? v : Number.NaN)}
                    error={err('coefficient')}
                  />
                  <DateField
                    label={t('prosumer.coefficientFrom')}
                    name="coefficientFrom"
                    value={draft.coefficientFrom ?? COEFFICIENT_FROM}
                    onChange={(v) => set('coefficientFrom', v ?? COEFFICIENT_FROM)}
                    error={err('coefficientFrom')}
                  />
                  <Select
                    label={t('prosumer.refundCap')}
                    description={t('prosumer.refundCapHint')}
                    name="refundCap"
                    data={['0.2', '0.3'].map((v) => ({ value: v, label: t(`prosumer.refundCaps.${v}`) }))}
                    value={String(draft.refundCap ?? 0.2)}
                    onChange={(v) => v && set('refundCap', Number(v))}
                    allowDeselect={false}
                    error={err('refundCap')}
                  />
                </>
              )}
              {draft.scheme === 'net-billing-rcem' && (
                <Select
                  label={t('prosumer.rcemVersion')}
                  description={t('prosumer.rcemVersionHint')}
                  name="rcemVersion"
                  data={RCEM_VERSION_CHOICES.map((v) => ({ value: v, label: t(`prosumer.rcemVersions.${v}`) }))}
                  value={draft.rcemVersion ?? 'latest'}
                  onChange={(v) => v && set('rcemVersion', v as 'latest' | 'first')}
                  allowDeselect={false}
                />
              )}
              {draft.scheme === 'net-billing-rce' && (
                <Select
                  label={t('prosumer.rceClamp')}
                  description={t('prosumer.rceClampHint')}
                  name="rceClamp"
                  data={RCE_CLAMPS.map((v) => ({ value: v, label: t(`prosumer.rceClamps.${v}`) }))}
                  value={draft.rceClamp ?? 'quarter'}
                  onChange={(v) => v && set('rceClamp', v as 'quarter' | 'hour')}
                  allowDeselect={false}
                />
              )}
            </SimpleGrid>
            <Group>
              <Button type="submit" loading={save.isPending}>
                {t('prosumer.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Card>
  );
}

function LedgerCard({ location, year, today }: { location: Location; year: number; today: string }) {
  const { t, i18n } = useTranslation();
  const current = today.slice(0, 7);
  const from = `${year}-01`;
  const end = `${year}-12`;
  const to = end < current ? end : current;
  const ledger = useLedger(location.id, { from, to });
  const money = (v: number | null) => (v === null ? '—' : formatMoney(v, 'PLN', i18n.language));
  const kwh = (v: number) => formatKWh(v, i18n.language);
  const data: Ledger | undefined = ledger.data;
  const bank = data?.scheme === 'net-metering';
  const cols: { key: string; label: string; cell(m: Ledger['months'][number]): string }[] = bank
    ? [
        { key: 'nettedImportKWh', label: 'prosumer.nettedImport', cell: (m) => kwh(m.nettedImportKWh) },
        { key: 'nettedExportKWh', label: 'prosumer.nettedExport', cell: (m) => kwh(m.nettedExportKWh) },
        { key: 'bankCreditedKWh', label: 'prosumer.bankCredited', cell: (m) => kwh(m.bankCreditedKWh) },
        { key: 'bankUsedKWh', label: 'prosumer.bankUsed', cell: (m) => kwh(m.bankUsedKWh) },
        { key: 'bankLostKWh', label: 'prosumer.bankLost', cell: (m) => kwh(m.bankLostKWh) },
        { key: 'bankKWh', label: 'prosumer.bankKWh', cell: (m) => kwh(m.bankKWh) },
        { key: 'energyCost', label: 'prosumer.energyCost', cell: (m) => money(m.energyCost) },
        { key: 'used', label: 'prosumer.used', cell: (m) => money(m.used) },
        { key: 'cashForEnergy', label: 'prosumer.cashForEnergy', cell: (m) => money(m.cashForEnergy) },
      ]
    : [
        { key: 'nettedImportKWh', label: 'prosumer.nettedImport', cell: (m) => kwh(m.nettedImportKWh) },
        { key: 'nettedExportKWh', label: 'prosumer.nettedExport', cell: (m) => kwh(m.nettedExportKWh) },
        {
          key: 'price',
          label: 'prosumer.price',
          cell: (m) =>
            m.price === null
              ? m.missingPrice
                ? t('prosumer.missingPrice')
                : '—'
              : `${m.price}${m.priceSource === 'user' ? ` (${t('prosumer.sourceUser')})` : ''}`,
        },
        { key: 'credited', label: 'prosumer.credited', cell: (m) => money(m.credited) },
        { key: 'energyCost', label: 'prosumer.energyCost', cell: (m) => money(m.energyCost) },
        { key: 'used', label: 'prosumer.used', cell: (m) => money(m.used) },
        { key: 'cashForEnergy', label: 'prosumer.cashForEnergy', cell: (m) => money(m.cashForEnergy) },
        { key: 'refunded', label: 'prosumer.refunded', cell: (m) => money(m.refunded) },
        { key: 'lost', label: 'prosumer.lost', cell: (m) => money(m.lost) },
        { key: 'balance', label: 'prosumer.balance', cell: (m) => money(m.balance) },
        { key: 'expiringNext', label: 'prosumer.expiringNext', cell: (m) => money(m.expiringNext) },
      ];
  return (
    <Card withBorder padding="lg" data-prosumer-ledger>
      <Title order={3} size="h4" mb="sm">
        {t('prosumer.ledgerTitle')}
      </Title>
      {ledger.isPending && <Skeleton h={160} aria-busy aria-label={t('app.loading')} />}
      {ledger.isError && <Text c="red">{t('prosumer.loadError')}</Text>}
      {data && data.scheme === 'none' && <Text c="dimmed">{t('prosumer.noScheme')}</Text>}
      {data && data.scheme !== 'none' && (
        <Stack gap="sm">
          <section
            aria-label={t('prosumer.ledgerTitle')}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll region must take focus to be scrolled by keyboard
            tabIndex={0}
            style={{ overflowX: 'auto' }}
          >
            <Table striped data-ledger-table miw={bank ? 820 : 1000}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('prosumer.month')}</Table.Th>
                  {cols.map((c) => (
                    <Table.Th key={c.key} style={{ textAlign: 'right' }}>
                      {t(c.label)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.months.map((m) => (
                  <Table.Tr key={m.month} data-month={m.month}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{monthLabel(m.month, i18n.language)}</Table.Td>
                    {cols.map((c) => (
                      <Table.Td key={c.key} data-field={c.key} style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
                        {c.cell(m)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </section>
          <Text size="xs" c="dimmed">
            {t(bank ? 'prosumer.bankExplained' : 'prosumer.ledgerExplained')}
          </Text>
          {data.energyEstimated && (
            <Alert color="yellow" data-estimated>
              {t('prosumer.estimatedNote')}
            </Alert>
          )}
          {data.months.some((m) => m.missingPrice) && (
            <Alert color="yellow" data-missing-price>
              {t('prosumer.missingPriceNote')}
            </Alert>
          )}
          {data.scheme === 'net-billing-rcem' && <UserRcemForm locationId={location.id} current={to} />}
        </Stack>
      )}
    </Card>
  );
}

function UserRcemForm({ locationId, current }: { locationId: number; current: string }) {
  const { t } = useTranslation();
  const save = useSaveRcem(locationId);
  const [month, setMonth] = useState(current);
  const [price, setPrice] = useState<number | string>('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(
      { month, price: typeof price === 'number' ? price : Number.NaN },
      {
        onSuccess: () => {
          setErrors({});
          notifications.show({ color: 'teal', message: t('prosumer.userRcemSaved') });
        },
        onError: (error) => {
          setErrors(fieldErrorsOf(error, { month, price }) as Record<string, string>);
          notifications.show({ color: 'red', message: t('prosumer.saveError') });
        },
      },
    );
  };
  return (
    <form noValidate onSubmit={submit} aria-label={t('prosumer.userRcemTitle')} data-user-rcem>
      <Text fw={600} size="sm" mb={4}>
        {t('prosumer.userRcemTitle')}
      </Text>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          type="month"
          label={t('prosumer.userRcemMonth')}
          name="month"
          value={month}
          onChange={(e) => setMonth(e.currentTarget.value)}
          error={errors.month ? t(errors.month) : undefined}
        />
        <NumberInput
          label={t('prosumer.userRcemPrice')}
          name="price"
          min={0}
          decimalScale={2}
          value={price}
          onChange={setPrice}
          error={errors.price ? t(errors.price) : undefined}
        />
        <Button type="submit" variant="light" loading={save.isPending}>
          {t('prosumer.userRcemSave')}
        </Button>
      </Group>
    </form>
  );
}
