import { type ChartGroup, type DeviceFigures, PARAMETERS, type ParameterInfo, parameterInfo } from '@phasewatch/shared';

/** The page's view of a three-phase meter: all phases together, or one phase. */
export type PhaseView = 'summary' | 1 | 2 | 3;

/** How a chart draws: lines of instantaneous values, or bars of energy per interval. */
export type ChartStyle = 'line' | 'bars';

export interface SeriesSpec {
  /** Catalogue parameter the series draws. */
  param: string;
  color: string;
  /** The bucket's minimum or maximum of an instantaneous parameter, drawn faintly around its mean. */
  stat?: 'min' | 'max';
  /** Step line (a set temperature changes in steps). */
  stepped?: boolean;
}

export interface ChartSpec {
  /** Stable id, also the i18n key `charts.title.<group>`. */
  id: string;
  group: ChartGroup | 'other';
  unit: string;
  style: ChartStyle;
  series: SeriesSpec[];
  /** Warning and critical voltage limit lines (% of 230 V). */
  limits?: boolean;
  /** A state parameter (relay) drawn as a band behind the lines. */
  stateBand?: string;
  /** Energy charts can show the same span a day / week / year earlier behind them. */
  comparable?: boolean;
  /** Shown only when the device sends it (balance): no "no readings" card for a parameter it never sends. */
  optional?: boolean;
}

/** Phase colours (L1, L2, L3), the total, and import / export. Chosen to read on light and dark. */
export const COLORS = {
  total: '#ff7300',
  phase: ['#1c7ed6', '#2f9e44', '#ae3ec9'] as const,
  import: '#f76707',
  export: '#0ca678',
  set: '#868e96',
  temp: '#e03131',
  dc: ['#1971c2', '#f08c00', '#6741d9', '#c2255c'] as const,
};

const phaseColor = (p: number) => COLORS.phase[(p - 1) % 3] as string;
const line = (param: string, color: string, extra: Partial<SeriesSpec> = {}): SeriesSpec => ({ param, color, ...extra });

/** A phase's mean with the bucket's min and max drawn faintly around it. */
function withBand(param: string, color: string): SeriesSpec[] {
  return [line(param, color), line(param, color, { stat: 'min' }), line(param, color, { stat: 'max' })];
}

function threePhase(view: PhaseView, group: ChartGroup): ChartSpec | null {
  const phases = view === 'summary' ? [1, 2, 3] : [view];
  const per = (prefix: string) => phases.map((p) => line(`${prefix}${p}`, phaseColor(p)));
  const one = view !== 'summary';
  switch (group) {
    case 'power':
      return {
        id: 'power',
        group,
        unit: 'W',
        style: 'line',
        series: one ? withBand(`pave${view}`, phaseColor(view)) : [line('power3phases', COLORS.total), ...per('pave')],
      };
    case 'voltage':
      return {
        id: 'voltage',
        group,
        unit: 'V',
        style: 'line',
        limits: true,
        series: one ? withBand(`vave${view}`, phaseColor(view)) : per('vave'),
      };
    case 'current':
      return { id: 'current', group, unit: 'A', style: 'line', series: one ? withBand(`iave${view}`, phaseColor(view)) : per('iave') };
    case 'powerFactor':
      return { id: 'powerFactor', group, unit: '', style: 'line', series: per('pfave') };
    case 'frequency':
      return view === 'summary' ? { id: 'frequency', group, unit: 'Hz', style: 'line', series: [line('frq1', COLORS.total)] } : null;
    case 'activeEnergy':
      return {
        id: 'activeEnergy',
        group,
        unit: 'kWh',
        style: 'bars',
        comparable: true,
        series: one
          ? [line(`eai${view}`, COLORS.import), line(`eae${view}`, COLORS.export)]
          : [line('energy3phases_import', COLORS.import), line('energy3phases_export', COLORS.export)],
      };
    case 'reactiveEnergy':
      return {
        id: 'reactiveEnergy',
        group,
        unit: 'kvarh',
        style: 'bars',
        series: one
          ? [line(`eri${view}`, COLORS.import), line(`ere${view}`, COLORS.export)]
          : [line('renergy3phases_import', COLORS.import), line('renergy3phases_export', COLORS.export)],
      };
    case 'balance':
      return view === 'summary'
        ? {
            id: 'balance',
            group,
            unit: 'kWh',
            style: 'bars',
            optional: true,
            series: [line('balance', COLORS.import), line('balance_export', COLORS.export)],
          }
        : null;
    default:
      return null;
  }
}

function singlePhase(group: ChartGroup): ChartSpec | null {
  switch (group) {
    case 'frequency':
      return { id: 'frequency', group, unit: 'Hz', style: 'line', series: [line('frq1', COLORS.total)] };
    case 'powerFactor':
      return { id: 'powerFactor', group, unit: '', style: 'line', series: withBand('pfave1', phaseColor(1)) };
    default:
      return threePhase(1, group);
  }
}

function solar(group: ChartGroup): ChartSpec | null {
  switch (group) {
    case 'production':
      return {
        id: 'production',
        group,
        unit: 'W',
        style: 'line',
        series: [line('power3phases', COLORS.total), ...[1, 2, 3].map((p) => line(`pave${p}`, phaseColor(p)))],
      };
    case 'selfConsumption':
      // What the inverter delivers (its export counters) and, where it has import counters, what it draws itself.
      return {
        id: 'solarEnergy',
        group,
        unit: 'kWh',
        style: 'bars',
        comparable: true,
        series: [line('energy3phases_export', COLORS.export), line('energy3phases_import', COLORS.import)],
      };
    case 'dc':
      return {
        id: 'dc',
        group,
        unit: 'V',
        style: 'line',
        series: [line('vdc1', COLORS.dc[0]), line('vdc2', COLORS.dc[1]), line('vdc3', COLORS.dc[2])],
      };
    case 'voltage':
      return {
        id: 'voltage',
        group,
        unit: 'V',
        style: 'line',
        limits: true,
        series: [1, 2, 3].map((p) => line(`vave${p}`, phaseColor(p))),
      };
    case 'frequency':
      return { id: 'frequency', group, unit: 'Hz', style: 'line', series: [line('frq1', COLORS.total)] };
    default:
      return null;
  }
}

function thermostat(group: ChartGroup): ChartSpec | null {
  switch (group) {
    case 'temperature':
      return {
        id: 'temperature',
        group,
        unit: '°C',
        style: 'line',
        stateBand: 'rel1',
        series: [line('tempmain', COLORS.temp), line('tempset', COLORS.set, { stepped: true })],
      };
    case 'power':
      return { id: 'power', group, unit: 'W', style: 'line', series: [line('pave1', phaseColor(1))] };
    case 'activeEnergy':
      return { id: 'heatingEnergy', group, unit: 'kWh', style: 'bars', comparable: true, series: [line('eai1', COLORS.import)] };
    default:
      return null;
  }
}

/** Catalogue groups of the default detail, in display order, and how each draws. */
const GENERIC_GROUPS: readonly { group: ParameterInfo['group']; chart: ChartGroup | 'other'; style: ChartStyle; unit?: string }[] = [
  { group: 'power', chart: 'power', style: 'line' },
  { group: 'voltage', chart: 'voltage', style: 'line' },
  { group: 'current', chart: 'current', style: 'line' },
  { group: 'powerFactor', chart: 'powerFactor', style: 'line' },
  { group: 'frequency', chart: 'frequency', style: 'line' },
  { group: 'energy', chart: 'activeEnergy', style: 'bars' },
  { group: 'reactiveEnergy', chart: 'reactiveEnergy', style: 'bars' },
  { group: 'dc', chart: 'dc', style: 'line' },
  { group: 'thermostat', chart: 'temperature', style: 'line' },
  { group: 'status', chart: 'other', style: 'line' },
];

const PALETTE = ['#ff7300', '#1c7ed6', '#2f9e44', '#ae3ec9', '#e03131', '#0ca678', '#f08c00', '#6741d9', '#c2255c', '#868e96'];

/**
 * Charts of the default detail: every catalogue parameter the device sent, grouped by quantity (one chart
 * per group and unit; min/max variants are left to the mean).
 */
export function genericCharts(present: readonly string[]): ChartSpec[] {
  const have = new Set(present);
  const out: ChartSpec[] = [];
  for (const g of GENERIC_GROUPS) {
    const params = PARAMETERS.filter(
      (p) => p.group === g.group && have.has(p.name) && !/^(pmin|pmax|vmin|vmax|imin|imax|pfmin|pfmax)/.test(p.name),
    );
    const units = [...new Set(params.map((p) => p.unit))];
    for (const unit of units) {
      const ps = params.filter((p) => p.unit === unit);
      out.push({
        id: units.length > 1 ? `${g.chart}-${unit}` : g.chart,
        group: g.chart,
        unit,
        style: parameterInfo(ps[0]?.name ?? '')?.kind === 'counter' ? 'bars' : g.style,
        limits: g.group === 'voltage',
        comparable: g.style === 'bars',
        series: ps.map((p, i) => line(p.name, PALETTE[i % PALETTE.length] as string)),
      });
    }
  }
  return out;
}

/** The charts of a device's detail page for a view (generic devices: from the parameters they sent). */
export function chartsFor(figures: DeviceFigures, view: PhaseView, present: readonly string[] = []): ChartSpec[] {
  const build = (g: ChartGroup): ChartSpec | null => {
    switch (figures.kind) {
      case 'energy':
        return threePhase(view, g);
      case 'singlePhase':
        return singlePhase(g);
      case 'solar':
        return solar(g);
      case 'thermostat':
        return thermostat(g);
      default:
        return null;
    }
  };
  if (figures.kind === 'generic') return genericCharts(present);
  return figures.charts.map(build).filter((c): c is ChartSpec => c !== null);
}

/** The parameters a chart asks the server for: its series and its state band. */
export function chartParams(spec: ChartSpec): string[] {
  return [...new Set([...spec.series.map((s) => s.param), ...(spec.stateBand ? [spec.stateBand] : [])])];
}

/** Charts a phone user rarely needs: on a phone they fold under a button, below the others. */
const SECONDARY = new Set(['powerFactor', 'frequency', 'reactiveEnergy', 'balance', 'other']);

/** Whether a chart is one a phone user rarely needs (power factor, frequency, reactive energy, …). */
export function isSecondaryChart(spec: Pick<ChartSpec, 'group'>): boolean {
  return SECONDARY.has(spec.group);
}

/**
 * How many of a device page's charts start in its first screen, known before layout (the header and
 * the range controls take ~250 px; the first chart comes next): from the `lg` breakpoint (75em) the
 * first two charts, one above the other beside the device's summary, and on a wide screen taller than
 * ~1,180 px the row of two below them too; on narrower screens the first chart. These charts ask for
 * their readings as the route matches and draw as soon as they arrive; the others wait until they come
 * near the viewport.
 */
export function chartsInFirstScreen(): number {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return 2;
  if (!window.matchMedia('(min-width: 75em)').matches) return 1;
  return window.innerHeight >= 1180 ? 4 : 2;
}
