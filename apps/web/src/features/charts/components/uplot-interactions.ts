import type uPlot from 'uplot';
import { xScale } from './uplot-scales';

/**
 * Ctrl+wheel zooms around the pointer; Shift+drag pans (plain wheel keeps scrolling the page); leaving the
 * plot hides the tooltip. `setX` sets the x range within the requested span. Returns the clean-up of what
 * outlives the plot (the window's listeners).
 */
export function attachZoomAndPan(
  u: uPlot,
  setX: (min: number, max: number) => void,
  tip: { readonly current: HTMLElement | null },
): () => void {
  const over = u.over;
  const onWheel = (e: WheelEvent) => {
    if (!e.ctrlKey && !e.metaKey) return;
    e.preventDefault();
    const { min, max } = xScale(u);
    if (min === undefined || max === undefined) return;
    const at = u.posToVal(e.offsetX, 'x');
    const f = e.deltaY < 0 ? 0.75 : 1 / 0.75;
    setX(at - (at - min) * f, at + (max - at) * f);
  };
  let panFrom: { x: number; min: number; max: number } | null = null;
  const onDown = (e: MouseEvent) => {
    if (!e.shiftKey) return;
    const { min, max } = xScale(u);
    if (min === undefined || max === undefined) return;
    e.stopPropagation();
    e.preventDefault();
    panFrom = { x: e.clientX, min, max };
  };
  const onMove = (e: MouseEvent) => {
    if (!panFrom) return;
    const dx = ((e.clientX - panFrom.x) / u.over.clientWidth) * (panFrom.max - panFrom.min);
    setX(panFrom.min - dx, panFrom.max - dx);
  };
  const onUp = () => {
    panFrom = null;
  };
  over.addEventListener('wheel', onWheel, { passive: false });
  over.addEventListener('mousedown', onDown, true);
  window.addEventListener('mousemove', onMove);
  window.addEventListener('mouseup', onUp);
  const onLeave = () => {
    if (tip.current) tip.current.style.display = 'none';
  };
  over.addEventListener('mouseleave', onLeave);
  return () => {
    window.removeEventListener('mousemove', onMove);
    window.removeEventListener('mouseup', onUp);
  };
}

/** The plot follows its box's width (the height is the chart's). Returns the observer's disconnect. */
export function followWidth(u: uPlot, el: HTMLElement, height: number): () => void {
  const ro = new ResizeObserver(() => {
    const w = el.clientWidth;
    if (w > 0 && Math.abs(w - u.width) > 1) u.setSize({ width: w, height });
  });
  ro.observe(el);
  return () => ro.disconnect();
}
