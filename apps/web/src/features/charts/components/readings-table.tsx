import { Badge, Group, Pagination, ScrollArea, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartData } from '../chart-data';
import { pageOf, type SortDir, type SortKey, sortRows, tableRows } from '../table-model';

const PAGE_SIZE = 24;

export interface ReadingsTableProps {
  data: ChartData;
  labels: string[];
  formatValue(v: number, unit: string): string;
  formatBucket(ts: number): string;
  caption: string;
}

/** The chart's numbers as a table: one row per bucket, sortable by any column, paged, units in the headers. */
export function ReadingsTable({ data, labels, formatValue, formatBucket, caption }: ReadingsTableProps) {
  const { t } = useTranslation();
  const [sort, setSort] = useState<{ key: SortKey; dir: SortDir }>({ key: 'ts', dir: 'desc' });
  const [page, setPage] = useState(1);
  const rows = useMemo(() => sortRows(tableRows(data), sort.key, sort.dir), [data, sort]);
  const shown = pageOf(rows, page, PAGE_SIZE);

  const header = (key: SortKey, label: string, align: 'left' | 'right') => {
    const active = sort.key === key;
    const Icon = active ? (sort.dir === 'asc' ? IconArrowUp : IconArrowDown) : IconSelector;
    return (
      <Table.Th
        key={String(key)}
        ta={align}
        aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
        style={{ whiteSpace: 'nowrap' }}
      >
        <UnstyledButton
          onClick={() => {
            setSort((s) => ({ key, dir: s.key === key && s.dir === 'desc' ? 'asc' : 'desc' }));
            setPage(1);
          }}
          data-sort={String(key)}
          style={{ fontWeight: 600, fontSize: 'inherit' }}
        >
          <Group gap={4} wrap="nowrap" justify={align === 'right' ? 'flex-end' : 'flex-start'}>
            {label}
            <Icon size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Table.Th>
    );
  };

  return (
    <div data-readings-table>
      <ScrollArea type="auto" offsetScrollbars>
        <Table striped highlightOnHover verticalSpacing={4} fz="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
          <Table.Caption>{caption}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {header('ts', t('charts.time'), 'left')}
              {data.columns.map((c, i) => header(i, `${labels[i] ?? c.spec.param}${c.unit ? ` [${c.unit}]` : ''}`, 'right'))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.rows.map((r) => (
              <Table.Tr key={r.index} data-row-ts={r.ts}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {formatBucket(r.ts)}
                  {r.estimated && (
                    <Badge ml={6} size="xs" variant="outline" color="gray">
                      {t('charts.estimatedShort')}
                    </Badge>
                  )}
                </Table.Td>
                {r.values.map((v, i) => (
                  <Table.Td
                    key={data.columns[i]?.spec.param + String(data.columns[i]?.spec.stat ?? '')}
                    ta="right"
                    style={{ whiteSpace: 'nowrap' }}
                  >
                    {v === null ? '—' : formatValue(v, data.columns[i]?.unit ?? '')}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <Group justify="space-between" mt="xs" gap="xs">
        <Text size="xs" c="dimmed">
          {t('charts.rows', { count: rows.length })}
        </Text>
        {shown.pages > 1 && (
          <Pagination
            size="sm"
            total={shown.pages}
            value={shown.page}
            onChange={setPage}
            siblings={0}
            boundaries={1}
            getControlProps={(control) => ({ 'aria-label': t(`charts.page.${control}`) })}
            getItemProps={(p) => ({ 'aria-label': t('charts.page.number', { page: p }) })}
          />
        )}
      </Group>
    </div>
  );
}
