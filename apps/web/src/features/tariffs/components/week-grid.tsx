import { Group, Text } from '@mantine/core';
import { DAY_TYPES, type DayType, type TariffArea, type TariffGroup } from '@phasewatch/shared';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Segmented } from '@/components/ui/segmented';
import { usePhone } from '@/lib/use-phone';
import { areaLabel } from '../format';
import classes from './week-grid.module.css';

type Days = Record<DayType, TariffArea[]>;
const HOURS = Array.from({ length: 24 }, (_, h) => h);
const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;

/**
 * A season's zone schedule as a grid a person can read and click: hours × day types (day types × hours
 * turned on its side below 576 px), each hour showing its area's number and colour. Pick an area, then
 * click or drag over hours to put them in it; arrow keys move between hours, Enter or Space sets one.
 */
export function WeekGrid({
  days,
  group,
  areas,
  onChange,
  label,
}: {
  days: Days;
  group: TariffGroup;
  /** The areas the group bills (the brush offers these). */
  areas: readonly TariffArea[];
  /** Without it the grid is read-only. */
  onChange?: (days: Days) => void;
  label: string;
}) {
  const { t } = useTranslation();
  const narrow = usePhone();
  const [brush, setBrush] = useState<TariffArea>(areas.includes(2) ? 2 : (areas[0] ?? 1));
  const [focus, setFocus] = useState<[number, number]>([0, 0]);
  const painting = useRef(false);
  const daysRef = useRef(days);
  daysRef.current = days;
  const cells = useRef(new Map<string, HTMLButtonElement>());

  useEffect(() => {
    if (!areas.includes(brush)) setBrush(areas[0] ?? 1);
  }, [areas, brush]);
  useEffect(() => {
    const stop = () => {
      painting.current = false;
    };
    window.addEventListener('pointerup', stop);
    window.addEventListener('pointercancel', stop);
    return () => {
      window.removeEventListener('pointerup', stop);
      window.removeEventListener('pointercancel', stop);
    };
  }, []);

  const set = (d: DayType, h: number) => {
    if (!onChange || daysRef.current[d][h] === brush) return;
    const next = { ...daysRef.current, [d]: daysRef.current[d].map((a, i) => (i === h ? brush : a)) };
    daysRef.current = next;
    onChange(next);
  };

  const move = (e: KeyboardEvent, r: number, h: number) => {
    const step: Record<string, [number, number]> = narrow
      ? { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }
      : { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      const nh = e.key === 'Home' ? 0 : 23;
      setFocus([r, nh]);
      cells.current.get(`${r}:${nh}`)?.focus();
      return;
    }
    const s = step[e.key];
    if (!s) return;
    e.preventDefault();
    const nr = Math.min(DAY_TYPES.length - 1, Math.max(0, r + s[0]));
    const nh = Math.min(23, Math.max(0, h + s[1]));
    setFocus([nr, nh]);
    cells.current.get(`${nr}:${nh}`)?.focus();
  };

  const cell = (r: number, h: number) => {
    const d = DAY_TYPES[r] as DayType;
    const a = days[d][h] as TariffArea;
    const name = `${t(`tariffs.dayTypes.${d}`)} ${hh(h)}–${hh(h + 1)}: ${areaLabel(t, a, group)}`;
    return (
      <td key={`${r}:${h}`}>
        <button
          type="button"
          className={classes.cell}
          data-area={a}
          data-day={d}
          data-hour={h}
          data-readonly={onChange ? undefined : true}
          aria-label={name}
          title={name}
          tabIndex={focus[0] === r && focus[1] === h ? 0 : -1}
          ref={(el) => {
            if (el) cells.current.set(`${r}:${h}`, el);
            else cells.current.delete(`${r}:${h}`);
          }}
          onPointerDown={(e) => {
            if (!onChange || e.button !== 0) return;
            painting.current = e.pointerType === 'mouse';
            setFocus([r, h]);
            set(d, h);
          }}
          onPointerEnter={() => {
            if (painting.current) set(d, h);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault();
              set(d, h);
            } else move(e, r, h);
          }}
          onFocus={() => setFocus([r, h])}
        >
          {a}
        </button>
      </td>
    );
  };

  const totals = (d: DayType) =>
    areas
      .map((a) => ({ a, n: days[d].filter((x) => x === a).length }))
      .filter((x) => x.n > 0)
      .map((x) => `${x.a}: ${x.n} h`)
      .join(' · ');

  return (
    <div>
      {onChange && (
        <Group gap="sm" mb="xs" wrap="wrap">
          <Text size="sm" aria-hidden>
            {t('tariffs.grid.brush')}
          </Text>
          <Segmented
            aria-label={t('tariffs.grid.brush')}
            value={String(brush)}
            onChange={(v) => setBrush(Number(v) as TariffArea)}
            data={areas.map((a) => ({ value: String(a), label: areaLabel(t, a, group) }))}
          />
        </Group>
      )}
      {onChange && (
        <Text size="xs" c="dimmed" mb={6}>
          {t('tariffs.grid.hint')}
        </Text>
      )}
      <table className={`${classes.grid} ${narrow ? classes.narrow : ''}`} aria-label={label} data-week-grid>
        {narrow ? (
          <>
            <thead>
              <tr>
                <th className={classes.rowHead} scope="col">
                  {t('tariffs.grid.hour')}
                </th>
                {DAY_TYPES.map((d) => (
                  <th key={d} scope="col" title={totals(d)}>
                    {t(`tariffs.dayTypesShort.${d}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {HOURS.map((h) => (
                <tr key={h}>
                  <th className={classes.rowHead} scope="row">
                    {hh(h)}
                  </th>
                  {DAY_TYPES.map((_, r) => cell(r, h))}
                </tr>
              ))}
            </tbody>
          </>
        ) : (
          <>
            <thead>
              <tr>
                <th className={classes.rowHead} scope="col">
                  {t('tariffs.grid.dayType')}
                </th>
                {HOURS.map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {DAY_TYPES.map((d, r) => (
                <tr key={d}>
                  <th className={classes.rowHead} scope="row" title={totals(d)}>
                    {t(`tariffs.dayTypes.${d}`)}
                  </th>
                  {HOURS.map((h) => cell(r, h))}
                </tr>
              ))}
            </tbody>
          </>
        )}
      </table>
      <Group gap="md" mt="xs">
        {areas.map((a) => (
          <Text key={a} size="xs" c="dimmed">
            <span className={`${classes.cell} ${classes.swatch}`} data-area={a} data-readonly>
              {a}
            </span>{' '}
            {areaLabel(t, a, group)}
          </Text>
        ))}
      </Group>
    </div>
  );
}
