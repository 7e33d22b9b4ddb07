import { useEffect, useState } from 'react';
import { loadChunk } from '@/lib/lazy-chunk';

/**
 * uPlot and the drawing code: a chunk of their own, never part of the dashboard's JavaScript. A device
 * page's route loader starts loading it as the route matches, beside the readings requests.
 */
type ChartComponent = typeof import('./components/uplot-chart')['default'];
let chunk: Promise<ChartComponent> | null = null;
/** The chart component once its chunk has loaded: charts then draw in the render their data arrives in. */
let loadedChart: ChartComponent | null = null;

export function preloadChart(): Promise<ChartComponent> {
  chunk ??= loadChunk(() => import('./components/uplot-chart')).then(
    (m) => {
      loadedChart = m.default;
      return m.default;
    },
    (err: unknown) => {
      chunk = null;
      throw err;
    },
  );
  return chunk;
}

/**
 * The chart component, or null while its chunk loads (`wanted`: the chart is near the viewport). Not
 * React.lazy + Suspense: React holds a resolved Suspense boundary's content back for up to 300 ms after
 * its fallback showed (to batch reveals), which kept every chart of a freshly opened page blank that long
 * after its data had arrived. A chunk that fails to load is thrown to the route's error boundary, as a
 * lazy component's would be.
 */
export function useChartComponent(wanted: boolean): ChartComponent | null {
  const [component, setComponent] = useState<ChartComponent | null>(() => loadedChart);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!wanted || component) return;
    let live = true;
    preloadChart().then(
      (c) => live && setComponent(() => c),
      (err: unknown) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [wanted, component]);
  if (error) throw error;
  return component ?? loadedChart;
}
